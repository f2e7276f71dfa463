package io.antrean.coordinator.core;

import io.antrean.coordinator.job.ErrorKind;
import io.antrean.coordinator.job.Job;
import java.time.Duration;
import java.time.Instant;
import javax.annotation.Nullable;

/** Reports each event to two listeners in turn; see {@link SchedulerEvents#both}. */
final class BothEvents implements SchedulerEvents {
  private final SchedulerEvents first;
  private final SchedulerEvents second;

  BothEvents(SchedulerEvents first, SchedulerEvents second) {
    this.first = first;
    this.second = second;
  }

  @Override
  public void onEnqueued(Job job) {
    first.onEnqueued(job);
    second.onEnqueued(job);
  }

  @Override
  public void onLeased(Job job, Instant leasedAt) {
    first.onLeased(job, leasedAt);
    second.onLeased(job, leasedAt);
  }

  @Override
  public void onCompleted(long jobId, String queue, @Nullable Duration runTime) {
    first.onCompleted(jobId, queue, runTime);
    second.onCompleted(jobId, queue, runTime);
  }

  @Override
  public void onFailed(Job job, ErrorKind kind, @Nullable Duration runTime) {
    first.onFailed(job, kind, runTime);
    second.onFailed(job, kind, runTime);
  }

  @Override
  public void onDeadLettered(Job job) {
    first.onDeadLettered(job);
    second.onDeadLettered(job);
  }

  @Override
  public void onCancelled(Job job) {
    first.onCancelled(job);
    second.onCancelled(job);
  }

  @Override
  public void onReleased(Job job) {
    first.onReleased(job);
    second.onReleased(job);
  }

  @Override
  public void onLeaseExpired(Job job) {
    first.onLeaseExpired(job);
    second.onLeaseExpired(job);
  }

  @Override
  public void onLeasesExpired(LeaseExpiryPath path, int count) {
    first.onLeasesExpired(path, count);
    second.onLeasesExpired(path, count);
  }

  @Override
  public void onStaleRejected() {
    first.onStaleRejected();
    second.onStaleRejected();
  }
}
