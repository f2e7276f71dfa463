package io.antrean.client.bench;

import io.antrean.proto.v1.CompleteRequest;
import io.antrean.proto.v1.CompleteResponse;
import io.antrean.proto.v1.Job;
import io.antrean.proto.v1.LeaseRequest;
import io.antrean.proto.v1.LeaseResponse;
import io.antrean.proto.v1.WorkerServiceGrpc;
import io.grpc.Channel;
import io.grpc.Context;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.StreamObserver;
import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * One in-process worker that completes every {@code bench.noop} job it leases without doing
 * anything, shaped like a real worker's poll loop: wait for a free slot, long-poll Lease for as
 * many jobs as slots are free, hand each to the listener, Complete it asynchronously (the slot
 * frees when the coordinator answers), repeat. UNAVAILABLE and DEADLINE_EXCEEDED on Lease are
 * retried with backoff; any other failure is reported to the pool and ends the loop. Runs on one
 * thread; {@link #stop} may be called from any.
 */
final class NoopWorker implements Runnable {
  /** How long each Lease waits for a job; the coordinator may cap it. */
  static final Duration LEASE_WAIT = Duration.ofSeconds(5);

  private static final long SLOT_POLL_MILLIS = 100;
  private static final long MAX_BACKOFF_MILLIS = 1_000;

  private final String workerId;
  private final String queue;
  private final int slotCount;
  private final Semaphore slots;
  private final WorkerServiceGrpc.WorkerServiceBlockingStub leases;
  private final WorkerServiceGrpc.WorkerServiceStub completions;
  private final Duration callTimeout;
  private final NoopWorkerPool pool;
  private final Context.CancellableContext leaseContext = Context.ROOT.withCancellation();
  private volatile boolean stopped;

  NoopWorker(
      String workerId,
      String queue,
      int slotCount,
      Channel channel,
      Duration callTimeout,
      NoopWorkerPool pool) {
    this.workerId = workerId;
    this.queue = queue;
    this.slotCount = slotCount;
    this.slots = new Semaphore(slotCount);
    this.leases = WorkerServiceGrpc.newBlockingStub(channel);
    this.completions = WorkerServiceGrpc.newStub(channel);
    this.callTimeout = callTimeout;
    this.pool = pool;
  }

  @Override
  public void run() {
    long backoffMillis = 0;
    try {
      while (!stopped) {
        if (!slots.tryAcquire(SLOT_POLL_MILLIS, TimeUnit.MILLISECONDS)) {
          continue;
        }
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
          complete(job);
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (Exception e) {
      pool.failed(workerId + ": unexpected failure", e);
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

  private void complete(Job job) {
    CompleteRequest request =
        CompleteRequest.newBuilder()
            .setJobId(job.getId())
            .setFencingToken(job.getLease().getFencingToken())
            .setWorkerId(workerId)
            .build();
    completions
        .withDeadlineAfter(callTimeout.toNanos(), TimeUnit.NANOSECONDS)
        .complete(
            request,
            new StreamObserver<CompleteResponse>() {
              @Override
              public void onNext(CompleteResponse response) {}

              @Override
              public void onError(Throwable t) {
                slots.release();
                if (!stopped) {
                  pool.failed(workerId + ": Complete of job " + job.getId() + " failed", t);
                }
              }

              @Override
              public void onCompleted() {
                pool.completedOne();
                slots.release();
              }
            });
  }

  private static boolean isTransient(Status.Code code) {
    return code == Status.Code.UNAVAILABLE || code == Status.Code.DEADLINE_EXCEEDED;
  }

  /** Ends the loop: cancels the Lease in flight; Completes in flight go on. */
  void stop() {
    stopped = true;
    leaseContext.cancel(null);
  }

  /**
   * Waits until no Complete is in flight.
   *
   * @return whether they all ended within {@code timeout}
   */
  boolean awaitIdle(Duration timeout) throws InterruptedException {
    if (slots.tryAcquire(slotCount, timeout.toNanos(), TimeUnit.NANOSECONDS)) {
      slots.release(slotCount);
      return true;
    }
    return false;
  }
}
