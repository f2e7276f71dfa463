package io.antrean.coordinator.grpc;

import io.antrean.coordinator.api.JobMapper;
import io.antrean.coordinator.core.JobWatchers;
import io.antrean.coordinator.job.Job;
import io.antrean.proto.v1.WatchJobResponse;
import io.grpc.stub.ServerCallStreamObserver;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import javax.annotation.Nullable;

/**
 * One WatchJob call's sending side. Snapshots are coalesced: while the client is not ready only the
 * latest one is kept, and it goes out when the transport says it is ready again. Sending is
 * serialized without a lock (a work-in-progress counter), so neither the watcher's threads nor the
 * transport's onReady callback ever block. Thread-safe.
 */
final class JobWatchStream implements JobWatchers.Watcher {
  private final ServerCallStreamObserver<WatchJobResponse> call;
  private final AtomicReference<Job> latest = new AtomicReference<>();
  private final AtomicReference<RuntimeException> ending = new AtomicReference<>();
  private final AtomicReference<Runnable> unwatch = new AtomicReference<>();
  private final AtomicInteger wip = new AtomicInteger();
  // Only touched inside drain's serialized section.
  private boolean done;
  private volatile boolean cancelled;

  JobWatchStream(ServerCallStreamObserver<WatchJobResponse> call) {
    this.call = call;
    call.setOnReadyHandler(this::drain);
    call.setOnCancelHandler(this::cancel);
  }

  /** Hands over the registration to cancel when the client goes away; runs it at once if gone. */
  void attach(Runnable registration) {
    unwatch.set(registration);
    if (cancelled) {
      cancel();
    }
  }

  private void cancel() {
    cancelled = true;
    Runnable r = unwatch.getAndSet(null);
    if (r != null) {
      r.run();
    }
  }

  @Override
  public void onChange(Job job) {
    latest.set(job);
    drain();
  }

  @Override
  public void onEnd(RuntimeException reason) {
    ending.compareAndSet(null, reason);
    drain();
  }

  private void drain() {
    if (wip.getAndIncrement() != 0) {
      return;
    }
    int missed = 1;
    do {
      if (!done) {
        done = emit();
      }
      missed = wip.addAndGet(-missed);
    } while (missed != 0);
  }

  /** Sends what may be sent now; true once the call is closed. */
  private boolean emit() {
    if (cancelled) {
      return true;
    }
    @Nullable RuntimeException end = ending.get();
    if (end != null) {
      call.onError(StatusMapping.toStatus(end));
      return true;
    }
    while (call.isReady()) {
      Job job = latest.getAndSet(null);
      if (job == null) {
        return false;
      }
      call.onNext(
          WatchJobResponse.newBuilder()
              // Sent from the store's thread, outside the call's context: a watcher is never the
              // lease's holder, so it never gets the fencing token.
              .setJob(clearFencingToken(JobMapper.job(job).toBuilder().clearHistory()))
              .build());
      if (job.state().isTerminal()) {
        call.onCompleted();
        return true;
      }
    }
    return false;
  }

  private static io.antrean.proto.v1.Job.Builder clearFencingToken(
      io.antrean.proto.v1.Job.Builder job) {
    if (job.hasLease()) {
      job.getLeaseBuilder().clearFencingToken();
    }
    return job;
  }
}
