package io.antrean.bench;

import io.antrean.proto.v1.CompleteRequest;
import io.antrean.proto.v1.EnqueueRequest;
import io.antrean.proto.v1.Job;
import io.antrean.proto.v1.LeaseRequest;
import io.antrean.proto.v1.LeaseResponse;
import io.antrean.proto.v1.WorkerServiceGrpc;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * {@code lease}: the latency of Lease with {@code --backlog} jobs pending, to check that leasing
 * stays as fast with a million jobs waiting as with none. It first fills the queue with the backlog
 * through EnqueueBatch calls (untimed), then runs {@code --jobs} rounds, one call in flight: with
 * no backlog, Enqueue one job (untimed); Lease one {@code bench.noop} job without waiting, timed
 * from send to answer; Complete it (untimed). Seconds and jobs/s count the time spent in Lease
 * calls only, so jobs/s is Lease calls per second of leasing. What is left of the backlog is
 * drained afterwards like the enqueue scenarios' jobs, unless {@code --no-drain} or {@code
 * --queue}.
 */
final class LeaseScenario {
  /** The worker id every Lease and Complete of this scenario carries. */
  static final String WORKER_ID = "bench-lease";

  private final BenchContext context;

  LeaseScenario(BenchContext context) {
    this.context = context;
  }

  /** Fills the backlog, measures, then drains if asked to; returns the measurement. */
  BenchResult run() throws InterruptedException {
    BenchSettings settings = context.settings();
    int rounds = settings.jobsFor(Scenario.LEASE);
    int backlog = settings.backlog();
    String queue = settings.queueForScenario();
    fill(queue, backlog);
    // What the queue holds when leasing starts: the backlog, plus what --queue already held.
    long pending = pendingIn(queue);
    WorkerServiceGrpc.WorkerServiceBlockingStub stub =
        WorkerServiceGrpc.newBlockingStub(context.target().workerChannel());
    LeaseRequest lease =
        LeaseRequest.newBuilder()
            .setWorkerId(WORKER_ID)
            .setQueue(queue)
            .addTypes(BenchSettings.JOB_TYPE)
            .setMaxJobs(1)
            .setWait(com.google.protobuf.Duration.getDefaultInstance())
            .build();
    EnqueueRequest refill = BenchContext.request(queue, context.payload().untimed());
    LatencySamples samples = new LatencySamples(rounds);
    long leasingNanos = 0;
    try (ProgressTicker ticker =
        context.progress(
            () ->
                String.format(
                    Locale.ROOT,
                    "lease: %d/%d rounds, backlog %d",
                    samples.count(),
                    rounds,
                    backlog))) {
      for (int round = 1; round <= rounds; round++) {
        if (backlog == 0) {
          context.client().enqueue(refill);
        }
        long sent = System.nanoTime();
        LeaseResponse response = call("Lease", () -> deadlined(stub).lease(lease));
        long took = System.nanoTime() - sent;
        samples.record(took);
        leasingNanos += took;
        if (response.getJobsCount() != 1) {
          throw new BenchFailedException(
              String.format(
                  Locale.ROOT,
                  "lease: round %d: Lease found no %s job in queue %s; is another worker leasing"
                      + " from it?",
                  round,
                  BenchSettings.JOB_TYPE,
                  queue));
        }
        complete(stub, response.getJobs(0));
      }
    }
    if (backlog > rounds) {
      QueueDrain.afterEnqueueScenario(context, queue, backlog - rounds);
    }
    return new BenchResult(
        Scenario.LEASE,
        queue,
        rounds,
        1,
        "-",
        Duration.ofNanos(leasingNanos),
        samples.summary(),
        "Lease call with " + pending + " jobs pending; seconds and jobs/s: in Lease calls only");
  }

  private long pendingIn(String queue) {
    return context.client().getStats(queue).getQueuesList().stream()
        .filter(stats -> stats.getQueue().equals(queue))
        .mapToLong(stats -> stats.getPending())
        .findFirst()
        .orElse(0);
  }

  /** Enqueues the backlog, untimed, in EnqueueBatch calls of up to 1,000. */
  private void fill(String queue, int backlog) {
    if (backlog == 0) {
      return;
    }
    AtomicLong enqueued = new AtomicLong();
    try (ProgressTicker ticker =
        context.progress(
            () ->
                String.format(
                    Locale.ROOT,
                    "lease: backlog %d/%d jobs enqueued in %s",
                    enqueued.get(),
                    backlog,
                    queue))) {
      BatchEnqueueScenario.enqueueAll(context, queue, backlog, enqueued);
    }
  }

  private void complete(WorkerServiceGrpc.WorkerServiceBlockingStub stub, Job job) {
    CompleteRequest request =
        CompleteRequest.newBuilder()
            .setJobId(job.getId())
            .setFencingToken(job.getLease().getFencingToken())
            .setLeaseId(job.getLease().getLeaseId())
            .setWorkerId(WORKER_ID)
            .build();
    call("Complete of job " + job.getId(), () -> deadlined(stub).complete(request));
  }

  private WorkerServiceGrpc.WorkerServiceBlockingStub deadlined(
      WorkerServiceGrpc.WorkerServiceBlockingStub stub) {
    return stub.withDeadlineAfter(context.target().callTimeout().toNanos(), TimeUnit.NANOSECONDS);
  }

  /** Makes one worker call; a failure ends the scenario with the call and its status. */
  private static <T> T call(String what, Supplier<T> rpc) {
    try {
      return rpc.get();
    } catch (StatusRuntimeException e) {
      Status status = e.getStatus();
      String description = status.getDescription() == null ? "" : ": " + status.getDescription();
      throw new BenchFailedException(
          "lease: " + what + " failed: " + status.getCode() + description, e);
    }
  }
}
