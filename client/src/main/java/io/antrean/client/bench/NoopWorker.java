package io.antrean.client.bench;

import io.antrean.proto.v1.Job;
import io.antrean.proto.v1.LeaseRequest;
import io.antrean.proto.v1.LeaseResponse;
import io.antrean.proto.v1.WorkerServiceGrpc;
import io.grpc.Channel;
import io.grpc.Context;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.annotation.Nullable;

/**
 * One in-process worker that completes every {@code bench.noop} job it leases without doing
 * anything, shaped like a real worker's poll loop: wait until a slot is free, long-poll Lease for
 * as many jobs as slots are free, hand each to the listener, report them to a {@link
 * CompletionBatcher} (the slots free when the coordinator answers for them), repeat. UNAVAILABLE
 * and DEADLINE_EXCEEDED on Lease are retried with backoff; any other failure is reported to the
 * pool and ends the loop. Runs on one thread; {@link #stop} may be called from any, and wakes it
 * wherever it waits.
 */
final class NoopWorker implements Runnable {
  /** How long each Lease waits for a job; the coordinator may cap it. */
  static final Duration LEASE_WAIT = Duration.ofSeconds(5);

  private static final long MAX_BACKOFF_MILLIS = 1_000;

  private final String workerId;
  private final String queue;
  private final int slotCount;
  private final Semaphore slots;
  private final WorkerServiceGrpc.WorkerServiceBlockingStub leases;
  private final CompletionBatcher completions;
  private final Duration callTimeout;
  private final NoopWorkerPool pool;
  private final Context.CancellableContext leaseContext = Context.ROOT.withCancellation();
  private volatile boolean stopped;
  @Nullable private volatile Thread runner;

  /**
   * @param batchUnimplemented shared by the pool's workers: set once the coordinator turned out to
   *     lack CompleteBatch
   */
  NoopWorker(
      String workerId,
      String queue,
      int slotCount,
      Channel channel,
      Duration callTimeout,
      AtomicBoolean batchUnimplemented,
      NoopWorkerPool pool) {
    this.workerId = workerId;
    this.queue = queue;
    this.slotCount = slotCount;
    this.slots = new Semaphore(slotCount);
    this.leases = WorkerServiceGrpc.newBlockingStub(channel);
    this.callTimeout = callTimeout;
    this.pool = pool;
    // Answers are handled on the transport's thread: they only count, free slots and send.
    this.completions =
        new CompletionBatcher(
            workerId,
            WorkerServiceGrpc.newStub(channel).withExecutor(Runnable::run),
            callTimeout,
            batchUnimplemented,
            new Acknowledgements());
  }

  @Override
  public void run() {
    runner = Thread.currentThread();
    long backoffMillis = 0;
    try {
      while (!stopped) {
        slots.acquire();
        int free = 1 + slots.drainPermits();
        LeaseResponse response;
        try {
          response = leaseContext.call(() -> lease(free));
        } catch (StatusRuntimeException e) {
          slots.release(free);
          if (stopped) {
            return;
          }
          if (!isTransient(e.getStatus().getCode())) {
            pool.failed(workerId + ": Lease failed", e);
            return;
          }
          backoffMillis = Math.min(MAX_BACKOFF_MILLIS, Math.max(50, backoffMillis * 2));
          Thread.sleep(backoffMillis);
          continue;
        }
        long arrivalNanos = System.nanoTime();
        backoffMillis = 0;
        slots.release(free - response.getJobsCount());
        for (Job job : response.getJobsList()) {
          pool.listener().leased(job, arrivalNanos);
        }
        completions.addAll(response.getJobsList());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (Exception e) {
      if (!stopped) {
        pool.failed(workerId + ": unexpected failure", e);
      }
    }
  }

  private LeaseResponse lease(int maxJobs) {
    LeaseRequest request =
        LeaseRequest.newBuilder()
            .setWorkerId(workerId)
            .setQueue(queue)
            .addTypes(BenchSettings.JOB_TYPE)
            .setMaxJobs(maxJobs)
            .setWait(com.google.protobuf.Duration.newBuilder().setSeconds(LEASE_WAIT.toSeconds()))
            .build();
    long deadlineNanos = LEASE_WAIT.plus(callTimeout).toNanos();
    return leases.withDeadlineAfter(deadlineNanos, TimeUnit.NANOSECONDS).lease(request);
  }

  private static boolean isTransient(Status.Code code) {
    return code == Status.Code.UNAVAILABLE || code == Status.Code.DEADLINE_EXCEEDED;
  }

  /**
   * Ends the loop: cancels the Lease in flight and wakes the worker's thread if it waits for a slot
   * or a backoff; completions in flight or pending go on.
   */
  void stop() {
    stopped = true;
    leaseContext.cancel(null);
    Thread thread = runner;
    if (thread != null) {
      thread.interrupt();
    }
  }

  /**
   * Waits until the coordinator has answered for every job this worker leased.
   *
   * @return whether it did within {@code timeout}
   */
  boolean awaitIdle(Duration timeout) throws InterruptedException {
    if (slots.tryAcquire(slotCount, timeout.toNanos(), TimeUnit.NANOSECONDS)) {
      slots.release(slotCount);
      return true;
    }
    return false;
  }

  /** Counts answered jobs into the pool and frees their slots. */
  private final class Acknowledgements implements CompletionBatcher.Acknowledgements {
    @Override
    public void answered(int jobs, int completed) {
      if (completed > 0) {
        pool.completed(completed);
      }
      slots.release(jobs);
    }

    @Override
    public void failed(String what, @Nullable Throwable cause) {
      if (!stopped) {
        pool.failed(what, cause);
      }
    }

    @Override
    public void fellBackToUnary() {
      pool.fellBackToUnary();
    }
  }
}
