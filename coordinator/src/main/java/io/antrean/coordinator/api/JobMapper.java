package io.antrean.coordinator.api;

import static io.antrean.coordinator.api.ProtoTime.duration;
import static io.antrean.coordinator.api.ProtoTime.requestDuration;
import static io.antrean.coordinator.api.ProtoTime.requestInstant;
import static io.antrean.coordinator.api.ProtoTime.timestamp;

import com.google.protobuf.ByteString;
import io.antrean.coordinator.core.EnqueueCommand;
import io.antrean.coordinator.core.QueueReport;
import io.antrean.coordinator.core.RetryOverride;
import io.antrean.coordinator.job.Attempt;
import io.antrean.coordinator.job.DependsOn;
import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.job.LeaseInfo;
import io.antrean.coordinator.store.Dependency;
import io.antrean.coordinator.store.QueueCounts;
import io.antrean.proto.v1.AttemptOutcome;
import io.antrean.proto.v1.DependencyFailure;
import io.antrean.proto.v1.EnqueueRequest;
import io.antrean.proto.v1.ErrorKind;
import io.antrean.proto.v1.JobState;
import io.antrean.proto.v1.Lease;
import io.antrean.proto.v1.QueueStats;
import io.antrean.proto.v1.RetryPolicy;
import io.antrean.proto.v1.UniqueConflict;
import javax.annotation.Nullable;

/** Maps between the antrean.v1 messages and the coordinator's domain types. Stateless. */
public final class JobMapper {
  private JobMapper() {}

  /** An Enqueue request as a domain command; zero retry fields mean "keep the default". */
  public static EnqueueCommand command(EnqueueRequest r) {
    return command(r, "");
  }

  /**
   * An Enqueue request as a domain command, its time fields named under {@code prefix} (for example
   * {@code jobs[2].}) when they are not valid protobuf times.
   *
   * @throws io.antrean.coordinator.core.ValidationException for a time protobuf calls invalid
   */
  public static EnqueueCommand command(EnqueueRequest r, String prefix) {
    RetryOverride retry = RetryOverride.NONE;
    if (r.hasRetryPolicy()) {
      RetryPolicy p = r.getRetryPolicy();
      String at = prefix + "retry_policy.";
      retry =
          new RetryOverride(
              p.getMaxAttempts() == 0 ? null : p.getMaxAttempts(),
              p.hasInitialBackoff()
                  ? requestDuration(p.getInitialBackoff(), at + "initial_backoff")
                  : null,
              p.getBackoffMultiplier() == 0 ? null : p.getBackoffMultiplier(),
              p.hasMaxBackoff() ? requestDuration(p.getMaxBackoff(), at + "max_backoff") : null,
              p.getMaxLeaseExpiries() == 0 ? null : p.getMaxLeaseExpiries());
    }
    return new EnqueueCommand(
        r.getQueue(),
        r.getType(),
        r.getPayload().toByteArray(),
        r.getContentType(),
        r.getPriority(),
        r.hasRunAt() ? requestInstant(r.getRunAt(), prefix + "run_at") : null,
        r.hasDelay() ? requestDuration(r.getDelay(), prefix + "delay") : null,
        r.getIdempotencyKey(),
        retry,
        r.getTraceParent(),
        r.getConcurrencyKey(),
        r.getUniqueKey(),
        r.getOnUniqueConflict() == UniqueConflict.UNIQUE_CONFLICT_RETURN_EXISTING,
        r.getDependsOnList(),
        r.getOnDependencyFailure() == DependencyFailure.DEPENDENCY_FAILURE_DEAD_LETTER
            ? io.antrean.coordinator.job.DependencyFailure.DEAD_LETTER
            : io.antrean.coordinator.job.DependencyFailure.CANCEL);
  }

  /** The job as a message with what it depends on; {@code dependsOn} null for nothing. */
  public static io.antrean.proto.v1.Job job(Job j, @Nullable DependsOn dependsOn) {
    io.antrean.proto.v1.Job job = job(j);
    if (dependsOn == null || !dependsOn.any()) {
      return job;
    }
    return job.toBuilder()
        .addAllDependsOn(dependsOn.jobIds())
        .setOnDependencyFailure(
            DependencyFailure.valueOf("DEPENDENCY_FAILURE_" + dependsOn.onFailure().name()))
        .build();
  }

  /** One dependency as a message. */
  public static io.antrean.proto.v1.Dependency dependency(Dependency d) {
    io.antrean.proto.v1.Dependency.Builder b =
        io.antrean.proto.v1.Dependency.newBuilder()
            .setId(d.id())
            .setQueue(d.queue())
            .setType(d.type())
            .setState(state(d.state()));
    if (d.result() != null) {
      b.setResult(ByteString.copyFrom(d.result()));
    }
    if (d.resultContentType() != null) {
      b.setResultContentType(d.resultContentType());
    }
    if (d.lastError() != null) {
      b.setLastError(d.lastError());
    }
    return b.build();
  }

  /**
   * A job just leased, as the Lease answer gives it to the worker that took it: the only message
   * that carries the lease id. Every other mapping ({@link #job}) leaves it out.
   */
  public static io.antrean.proto.v1.Job leasedJob(Job j) {
    io.antrean.proto.v1.Job job = job(j);
    if (j.lease() == null || j.lease().leaseId() == null) {
      return job;
    }
    io.antrean.proto.v1.Job.Builder b = job.toBuilder();
    b.getLeaseBuilder().setLeaseId(j.lease().leaseId().text());
    return b.build();
  }

  /** A job as a message, with its history when the snapshot carries one; never a lease id. */
  public static io.antrean.proto.v1.Job job(Job j) {
    io.antrean.proto.v1.Job.Builder b =
        io.antrean.proto.v1.Job.newBuilder()
            .setId(j.id())
            .setQueue(j.queue())
            .setType(j.type())
            .setPayload(ByteString.copyFrom(j.payload()))
            .setContentType(j.contentType())
            .setPriority(j.priority())
            .setRunAt(timestamp(j.runAt()))
            .setRetryPolicy(policy(j.retryPolicy()))
            .setAttempts(j.attempts())
            .setLeaseExpiries(j.leaseExpiries())
            .setState(state(j.state()))
            .setCreatedAt(timestamp(j.createdAt()))
            .setUpdatedAt(timestamp(j.updatedAt()))
            .setCancelRequested(j.cancelRequested());
    if (j.idempotencyKey() != null) {
      b.setIdempotencyKey(j.idempotencyKey());
    }
    if (j.result() != null) {
      b.setResult(ByteString.copyFrom(j.result()));
    }
    if (j.resultContentType() != null) {
      b.setResultContentType(j.resultContentType());
    }
    if (j.lastError() != null) {
      b.setLastError(j.lastError());
    }
    if (j.finishedAt() != null) {
      b.setFinishedAt(timestamp(j.finishedAt()));
    }
    if (j.traceParent() != null) {
      b.setTraceParent(j.traceParent());
    }
    if (j.concurrencyKey() != null) {
      b.setConcurrencyKey(j.concurrencyKey());
    }
    if (j.progress() != null) {
      b.setProgress(j.progress());
    }
    if (j.lease() != null) {
      b.setLease(lease(j.lease()));
    }
    for (Attempt a : j.history()) {
      b.addHistory(attempt(a));
    }
    b.setHistoryOmitted(j.historyOmitted());
    return b.build();
  }

  /**
   * The lease, with its fencing token only for its holder: with authentication on, a caller that is
   * not the identity holding the lease sees who holds it and until when, never the token. The lease
   * id is never set here (see {@link #leasedJob}).
   */
  static Lease lease(LeaseInfo l) {
    return Lease.newBuilder()
        .setWorkerId(l.workerId())
        .setFencingToken(CallerIdentity.holds(l.workerId()) ? l.fencingToken() : 0)
        .setExpiresAt(timestamp(l.expiresAt()))
        .build();
  }

  static io.antrean.proto.v1.Attempt attempt(Attempt a) {
    io.antrean.proto.v1.Attempt.Builder b =
        io.antrean.proto.v1.Attempt.newBuilder()
            .setAttempt(a.attempt())
            .setWorkerId(a.workerId())
            .setFencingToken(
                a.outcome() != io.antrean.coordinator.job.AttemptOutcome.RUNNING
                        || CallerIdentity.holds(a.workerId())
                    ? a.fencingToken()
                    : 0)
            .setLeasedAt(timestamp(a.leasedAt()))
            .setOutcome(AttemptOutcome.valueOf("ATTEMPT_OUTCOME_" + a.outcome().name()));
    if (a.endedAt() != null) {
      b.setEndedAt(timestamp(a.endedAt()));
    }
    if (a.errorKind() != null) {
      b.setErrorKind(errorKind(a.errorKind()));
    }
    if (a.errorType() != null) {
      b.setErrorType(a.errorType());
    }
    if (a.errorMessage() != null) {
      b.setErrorMessage(a.errorMessage());
    }
    if (a.stackTrace() != null) {
      b.setStackTrace(a.stackTrace());
    }
    return b.build();
  }

  static RetryPolicy policy(io.antrean.coordinator.job.RetryPolicy p) {
    return RetryPolicy.newBuilder()
        .setMaxAttempts(p.maxAttempts())
        .setInitialBackoff(duration(p.initialBackoff()))
        .setBackoffMultiplier(p.multiplier())
        .setMaxBackoff(duration(p.maxBackoff()))
        .setMaxLeaseExpiries(p.maxLeaseExpiries())
        .build();
  }

  /** The domain state, or null for UNSPECIFIED (no filter). */
  public static io.antrean.coordinator.job.JobState state(JobState s) {
    return switch (s) {
      case JOB_STATE_PENDING -> io.antrean.coordinator.job.JobState.PENDING;
      case JOB_STATE_RUNNING -> io.antrean.coordinator.job.JobState.RUNNING;
      case JOB_STATE_SUCCEEDED -> io.antrean.coordinator.job.JobState.SUCCEEDED;
      case JOB_STATE_FAILED -> io.antrean.coordinator.job.JobState.FAILED;
      case JOB_STATE_CANCELLED -> io.antrean.coordinator.job.JobState.CANCELLED;
      case JOB_STATE_WAITING -> io.antrean.coordinator.job.JobState.WAITING;
      case JOB_STATE_UNSPECIFIED, UNRECOGNIZED -> null;
    };
  }

  public static JobState state(io.antrean.coordinator.job.JobState s) {
    return JobState.valueOf("JOB_STATE_" + s.name());
  }

  static ErrorKind errorKind(io.antrean.coordinator.job.ErrorKind k) {
    return ErrorKind.valueOf("ERROR_KIND_" + k.name());
  }

  /** The domain kind; RETRYABLE when unspecified. */
  public static io.antrean.coordinator.job.ErrorKind errorKind(ErrorKind k) {
    return k == ErrorKind.ERROR_KIND_PERMANENT
        ? io.antrean.coordinator.job.ErrorKind.PERMANENT
        : io.antrean.coordinator.job.ErrorKind.RETRYABLE;
  }

  public static QueueStats queueStats(QueueReport r) {
    QueueCounts c = r.counts();
    return QueueStats.newBuilder()
        .setDeadLetteredRecently(r.deadLetteredRecently())
        .setQueue(c.queue())
        .setPending(c.pending())
        .setScheduled(c.scheduled())
        .setRunning(c.running())
        .setSucceeded(c.succeeded())
        .setFailed(c.failed())
        .setCancelled(c.cancelled())
        .setOldestPendingAge(duration(c.oldestPendingAge()))
        .setWaiting(c.waiting())
        .build();
  }
}
