package io.antrean.client.bench;

import io.antrean.proto.v1.EnqueueRequest;
import io.antrean.proto.v1.EnqueueResponse;
import io.antrean.proto.v1.JobServiceGrpc;
import io.grpc.stub.StreamObserver;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * {@code latency}: sends Enqueues at a steady {@code --rate} for {@code --duration} while
 * in-process no-op workers lease the jobs, and measures for every job the time from just before its
 * Enqueue was sent to the arrival of the Lease response that carried it. Both ends are read from
 * {@link System#nanoTime()} in this JVM: the send time travels in the job's payload. Sends are
 * paced on a fixed schedule through an asynchronous stub with up to {@code --concurrency} calls in
 * flight, so a slow answer does not delay the next send while fewer than that many are in flight;
 * if the coordinator falls further behind, sends wait, and the achieved rate shows it. The run
 * starts with {@link #WARM_UP} at the same rate whose jobs are not measured, so the JIT compilers
 * of both ends are done with the paths before the measured window.
 */
final class LatencyScenario {
  /** Sent at the same rate before the measured window; not measured. */
  static final Duration WARM_UP = Duration.ofSeconds(1);

  private static final long RECEIPT_POLL_MILLIS = 5;
  // Sends over a whole run lose a little to scheduling; less than this share is falling behind.
  private static final double KEPT_RATE_SHARE = 0.9;

  private final BenchContext context;

  LatencyScenario(BenchContext context) {
    this.context = context;
  }

  /** Runs the scenario; returns the measurement. */
  BenchResult run() throws InterruptedException {
    BenchSettings settings = context.settings();
    int jobs = settings.jobsFor(Scenario.LATENCY);
    long warmUpJobs = (long) Math.ceil(settings.rate() * WARM_UP.toNanos() / 1e9);
    String queue = settings.queueForScenario();
    LatencySamples samples = new LatencySamples(jobs);
    AtomicLong received = new AtomicLong();
    AtomicLong measuredFrom = new AtomicLong(Long.MAX_VALUE);
    try (NoopWorkerPool pool =
        NoopWorkerPool.start(
            context,
            queue,
            settings.workersFor(Scenario.LATENCY),
            settings.workerConcurrency(),
            (job, arrivalNanos) -> {
              received.incrementAndGet();
              context
                  .payload()
                  .sentNanos(job.getPayload())
                  .ifPresent(
                      sentNanos -> {
                        if (sentNanos - measuredFrom.get() >= 0) {
                          samples.record(arrivalNanos - sentNanos);
                        }
                      });
            })) {
      Sender sender = new Sender(context, queue, settings.concurrency());
      long warmUpStart = System.nanoTime();
      for (long i = 0; i < warmUpJobs; i++) {
        parkUntil(warmUpStart + (long) (i * 1e9 / settings.rate()));
        sender.send();
      }
      long start = warmUpStart + (long) (warmUpJobs * 1e9 / settings.rate());
      measuredFrom.set(start);
      try (ProgressTicker ticker =
          context.progress(
              () ->
                  String.format(
                      Locale.ROOT,
                      "latency: %d/%d jobs sent, %d leased",
                      Math.max(0, sender.sent() - warmUpJobs),
                      jobs,
                      samples.count()))) {
        for (int i = 0; i < jobs && !sender.failed(); i++) {
          parkUntil(start + (long) (i * 1e9 / settings.rate()));
          sender.send();
        }
        sender.awaitAnswers(settings);
        Duration elapsed = Duration.ofNanos(System.nanoTime() - start);
        awaitReceipts(received, sender.sent(), pool, settings, queue);
        BenchResult result =
            new BenchResult(
                Scenario.LATENCY,
                queue,
                sender.sent() - warmUpJobs,
                settings.concurrency(),
                pool.describe(),
                elapsed,
                samples.summary(),
                "Enqueue sent to job leased");
        warnIfBehind(result, settings);
        return result;
      }
    }
  }

  /** Sends stamped Enqueues asynchronously with at most {@code concurrency} in flight. */
  private static final class Sender {
    private final BenchContext context;
    private final String queue;
    private final int concurrency;
    private final Semaphore permits;
    private final JobServiceGrpc.JobServiceStub stub;
    private final AtomicLong sent = new AtomicLong();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();

    Sender(BenchContext context, String queue, int concurrency) {
      this.context = context;
      this.queue = queue;
      this.concurrency = concurrency;
      this.permits = new Semaphore(concurrency);
      // Answers run on the transport's thread: the callback only counts and frees a permit.
      this.stub =
          JobServiceGrpc.newStub(context.target().producerChannel()).withExecutor(Runnable::run);
    }

    /** Sends one Enqueue stamped now, waiting first for a free permit if all are in flight. */
    void send() throws InterruptedException {
      Duration callTimeout = context.target().callTimeout();
      if (!permits.tryAcquire(callTimeout.toNanos(), TimeUnit.NANOSECONDS)) {
        throw new BenchFailedException(
            "latency: Enqueue calls did not end within --timeout; the coordinator did not keep up");
      }
      EnqueueRequest request =
          BenchContext.request(queue, context.payload().stamped(System.nanoTime()));
      stub.withDeadlineAfter(callTimeout.toNanos(), TimeUnit.NANOSECONDS)
          .enqueue(
              request,
              new StreamObserver<EnqueueResponse>() {
                @Override
                public void onNext(EnqueueResponse response) {
                  sent.incrementAndGet();
                }

                @Override
                public void onError(Throwable t) {
                  failure.compareAndSet(null, t);
                  permits.release();
                }

                @Override
                public void onCompleted() {
                  permits.release();
                }
              });
    }

    boolean failed() {
      return failure.get() != null;
    }

    /** Enqueues answered so far. */
    long sent() {
      return sent.get();
    }

    /** Waits for every call in flight; rethrows the first failure as the client would. */
    void awaitAnswers(BenchSettings settings) throws InterruptedException {
      long bound = settings.duration().plus(context.target().callTimeout()).toNanos();
      if (!permits.tryAcquire(concurrency, bound, TimeUnit.NANOSECONDS)) {
        throw new BenchFailedException(
            "latency: the coordinator did not keep up with --rate "
                + settings.rate()
                + ": Enqueue calls were still waiting for answers after --duration plus --timeout");
      }
      permits.release(concurrency);
      if (failure.get() != null) {
        throw FailureReplay.translate(failure.get());
      }
    }
  }

  /** A rate well below the one asked for means the latencies are not those at that rate. */
  private void warnIfBehind(BenchResult result, BenchSettings settings) {
    if (result.jobsPerSecond() < settings.rate() * KEPT_RATE_SHARE) {
      context.warn(
          String.format(
              Locale.ROOT,
              "latency: sent %.0f jobs/s, below --rate %.0f: the coordinator (or this machine) did"
                  + " not keep up, so these latencies include queueing",
              result.jobsPerSecond(),
              settings.rate()));
    }
  }

  private static void parkUntil(long deadlineNanos) {
    long left;
    while ((left = deadlineNanos - System.nanoTime()) > 0) {
      LockSupport.parkNanos(left);
    }
  }

  private static void awaitReceipts(
      AtomicLong received, long sent, NoopWorkerPool pool, BenchSettings settings, String queue)
      throws InterruptedException {
    long deadline = System.nanoTime() + settings.waitLimit().toNanos();
    while (received.get() < sent) {
      pool.throwIfFailed();
      if (System.nanoTime() - deadline >= 0) {
        throw new BenchFailedException(
            String.format(
                Locale.ROOT,
                "latency: only %d of %d jobs reached the bench's workers within %s; is another"
                    + " worker leasing %s jobs from queue %s?",
                received.get(),
                sent,
                settings.waitText(),
                BenchSettings.JOB_TYPE,
                queue));
      }
      Thread.sleep(RECEIPT_POLL_MILLIS);
    }
  }
}
