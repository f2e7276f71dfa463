package io.antrean.coordinator.core;

import io.antrean.coordinator.job.Failure;
import io.antrean.coordinator.store.Completion;
import io.antrean.coordinator.store.LeaseRenewal;
import io.antrean.proto.WorkerCallLimits;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import javax.annotation.Nullable;

/**
 * The checks and limits of the worker-facing calls: which fields must be there, which ranges are
 * allowed, and how much text a worker may send (progress notes, error messages, stack traces are
 * cut, never rejected). Stateless.
 */
final class WorkerRequests {
  static final int MAX_PROGRESS_CHARS = 1024;
  static final int MAX_ERROR_MESSAGE_CHARS = 4096;
  static final int MAX_STACK_TRACE_CHARS = 16 * 1024;

  private final Settings settings;

  WorkerRequests(Settings settings) {
    this.settings = settings;
  }

  /**
   * @throws ValidationException listing every fault of the Lease request
   */
  LeasePlan plan(LeaseCommand c) {
    String queue = Names.queueOrDefault(c.queue());
    new Violations()
        .problem(WorkerIds.problem(c.workerId()), "worker_id")
        .problem(Names.queueProblem(queue), "queue")
        .check(
            c.maxJobs() >= 0 && c.maxJobs() <= settings.maxLeaseBatch(),
            "max_jobs",
            "must be between 1 and " + settings.maxLeaseBatch())
        .notNegative(c.leaseTtl(), "lease_ttl")
        .check(c.leaseTtl() == null || !c.leaseTtl().isZero(), "lease_ttl", "must be positive")
        .notNegative(c.maxWait(), "wait")
        .throwIfAny();
    return new LeasePlan(
        c.workerId(), queue, new HashSet<>(c.types()), Math.max(1, c.maxJobs()), ttl(c.leaseTtl()));
  }

  /**
   * The lease a CompleteBatch asks for after its items ({@code lease_next}): {@link #plan}'s
   * checks, its worker id left empty or the batch's, and no wait, every field named under {@code
   * lease_next.}.
   *
   * @throws ValidationException listing every fault, before anything is stored
   */
  LeasePlan planNext(String batchWorkerId, LeaseCommand c) {
    LeaseCommand next =
        c.workerId().isEmpty()
            ? new LeaseCommand(
                batchWorkerId, c.queue(), c.types(), c.maxJobs(), c.leaseTtl(), c.maxWait())
            : c;
    new Violations()
        .check(
            next.workerId().equals(batchWorkerId),
            "lease_next.worker_id",
            "must be empty or the batch's worker_id")
        .check(
            c.maxWait() == null || c.maxWait().isZero(),
            "lease_next.wait",
            "must be unset or zero: the lease of a CompleteBatch never waits")
        .throwIfAny();
    try {
      return plan(next);
    } catch (ValidationException e) {
      throw new ValidationException(
          e.violations().stream()
              .map(v -> new FieldViolation("lease_next." + v.field(), v.description()))
              .toList());
    }
  }

  /** The long-poll wait: the default when none was asked for, capped. */
  Duration wait(@Nullable Duration requested) {
    Duration wait = requested == null ? settings.defaultLeaseWait() : requested;
    return wait.compareTo(settings.maxLeaseWait()) > 0 ? settings.maxLeaseWait() : wait;
  }

  /** The lease length: the default when none was asked for, capped. */
  Duration ttl(@Nullable Duration requested) {
    Duration ttl = requested == null ? settings.defaultLeaseTtl() : requested;
    return ttl.compareTo(settings.maxLeaseTtl()) > 0 ? settings.maxLeaseTtl() : ttl;
  }

  /**
   * @return the renewals with their progress notes cut to size
   * @throws ValidationException for a missing worker id, too many leases or a bad TTL
   */
  static List<LeaseRenewal> heartbeat(
      String workerId, List<LeaseRenewal> renewals, @Nullable Duration leaseTtl) {
    new Violations()
        .problem(WorkerIds.problem(workerId), "worker_id")
        .check(
            renewals.size() <= WorkerCallLimits.MAX_HEARTBEAT_LEASES,
            "leases",
            "at most " + WorkerCallLimits.MAX_HEARTBEAT_LEASES + " leases per heartbeat")
        .notNegative(leaseTtl, "lease_ttl")
        .check(leaseTtl == null || !leaseTtl.isZero(), "lease_ttl", "must be positive")
        .throwIfAny();
    return renewals.stream()
        .map(r -> new LeaseRenewal(r.jobId(), r.lease(), cut(r.progress(), MAX_PROGRESS_CHARS)))
        .toList();
  }

  /**
   * @throws ValidationException for a Complete, Fail or Release without job id or worker id
   */
  static void leaseCall(long jobId, String workerId) {
    leaseCallChecks(jobId, workerId).throwIfAny();
  }

  /**
   * @throws ValidationException for a Complete without job id or worker id, or with a result past
   *     {@link WorkerCallLimits#MAX_RESULT_BYTES}
   */
  static void complete(long jobId, String workerId, int resultBytes) {
    leaseCallChecks(jobId, workerId).problem(resultProblem(resultBytes), "result").throwIfAny();
  }

  private static Violations leaseCallChecks(long jobId, String workerId) {
    return new Violations()
        .check(jobId > 0, "job_id", "must be positive")
        .problem(WorkerIds.problem(workerId), "worker_id");
  }

  @Nullable
  private static String resultProblem(int resultBytes) {
    return resultBytes <= WorkerCallLimits.MAX_RESULT_BYTES
        ? null
        : "is "
            + resultBytes
            + " bytes, past the limit of "
            + WorkerCallLimits.MAX_RESULT_BYTES
            + ": fail the job, or store a long result elsewhere and return where it is";
  }

  /**
   * @throws ValidationException for a CompleteBatch without worker id or items, with too many, with
   *     an item without job id or with a result past {@link WorkerCallLimits#MAX_RESULT_BYTES}, or
   *     naming a job twice
   */
  static void completeBatch(String workerId, List<Completion> completions) {
    Violations v =
        new Violations()
            .problem(WorkerIds.problem(workerId), "worker_id")
            .check(!completions.isEmpty(), "items", "at least one item is required")
            .check(
                completions.size() <= WorkerCallLimits.MAX_COMPLETE_BATCH_ITEMS,
                "items",
                "at most " + WorkerCallLimits.MAX_COMPLETE_BATCH_ITEMS + " items per call");
    Set<Long> seen = new HashSet<>();
    for (int i = 0; i < completions.size(); i++) {
      long jobId = completions.get(i).jobId();
      v.check(jobId > 0, "items[" + i + "].job_id", "must be positive")
          .check(
              jobId <= 0 || seen.add(jobId),
              "items[" + i + "].job_id",
              "job " + jobId + " appears twice in one batch")
          .problem(resultProblem(completions.get(i).resultSize()), "items[" + i + "].result");
    }
    v.throwIfAny();
  }

  /**
   * @return the failure with its texts cut to size
   * @throws ValidationException for a retry_after outside [0, 365 days]
   */
  static Failure failure(Failure f) {
    new Violations()
        .problem(
            f.retryAfter() == null ? null : TimeRanges.backoffProblem(f.retryAfter()),
            "retry_after")
        .throwIfAny();
    return new Failure(
        f.kind(),
        cut(f.errorType(), MAX_ERROR_MESSAGE_CHARS),
        cut(f.message(), MAX_ERROR_MESSAGE_CHARS),
        cut(f.stackTrace(), MAX_STACK_TRACE_CHARS),
        f.retryAfter());
  }

  @Nullable
  private static String cut(@Nullable String s, int max) {
    return s == null || s.length() <= max ? s : s.substring(0, max);
  }
}
