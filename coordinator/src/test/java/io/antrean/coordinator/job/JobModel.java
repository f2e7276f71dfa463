package io.antrean.coordinator.job;

import java.time.Instant;

/**
 * A job as the stores keep it, reduced to its {@link JobStatus} and the last fencing token issued,
 * changed only by applying {@link JobLifecycle}'s decisions the way the stores' SQL applies them.
 * For property tests.
 */
final class JobModel {
  JobStatus status;
  long lastToken;

  JobModel(JobStatus status) {
    this.status = status;
  }

  void apply(LeaseGrant g) {
    lastToken++;
    status =
        new JobStatus(
            JobState.RUNNING,
            status.runAt(),
            g.attempts(),
            status.leaseExpiries(),
            status.releases(),
            status.cancelRequested(),
            new LeaseInfo(g.workerId(), lastToken, g.expiresAt()),
            status.retryPolicy());
  }

  void apply(Renewal r) {
    LeaseInfo l = status.lease();
    status =
        new JobStatus(
            status.state(),
            status.runAt(),
            status.attempts(),
            status.leaseExpiries(),
            status.releases(),
            status.cancelRequested(),
            new LeaseInfo(l.workerId(), l.fencingToken(), r.expiresAt()),
            status.retryPolicy());
  }

  void apply(JobMove m) {
    status =
        new JobStatus(
            m.to(),
            m.runAt() == null ? status.runAt() : m.runAt(),
            status.attempts(),
            status.leaseExpiries() + m.leaseExpiriesDelta(),
            status.releases() + m.releasesDelta(),
            status.cancelRequested(),
            null,
            status.retryPolicy());
  }

  void apply(Cancellation c) {
    switch (c) {
      case CANCEL_NOW -> apply(JobLifecycle.CANCEL_NOW);
      case ASK_WORKER ->
          status =
              new JobStatus(
                  status.state(),
                  status.runAt(),
                  status.attempts(),
                  status.leaseExpiries(),
                  status.releases(),
                  true,
                  status.lease(),
                  status.retryPolicy());
      case ALREADY_ASKED -> {}
    }
  }

  void apply(Redrive r) {
    status = new JobStatus(JobState.PENDING, r.runAt(), 0, 0, 0, false, null, status.retryPolicy());
  }

  Instant runAt() {
    return status.runAt();
  }
}
