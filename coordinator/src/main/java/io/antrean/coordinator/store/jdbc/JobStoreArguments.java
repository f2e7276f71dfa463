package io.antrean.coordinator.store.jdbc;

import io.antrean.coordinator.job.Failure;
import io.antrean.coordinator.job.JobState;
import io.antrean.coordinator.job.NewJob;
import io.antrean.coordinator.store.Completion;
import io.antrean.coordinator.store.JobStore;
import io.antrean.coordinator.store.LeaseRenewal;
import io.antrean.coordinator.store.LeaseSpec;
import io.antrean.coordinator.store.RetryPlanner;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import javax.annotation.Nullable;

/**
 * The argument checks of the {@link JobStore} methods, made before a store touches its database, so
 * every store rejects the same calls with the same exceptions. Each method is named after the SPI
 * method whose arguments it checks, and returns the copies the store works on where the SPI takes a
 * list or an array. Every method throws {@link NullPointerException} for a null argument the SPI
 * does not allow.
 */
public final class JobStoreArguments {
  private JobStoreArguments() {}

  /** Checks {@link JobStore#enqueue}'s arguments; returns the jobs, copied. */
  public static List<NewJob> forEnqueue(List<NewJob> jobs, Instant now) {
    List<NewJob> batch = List.copyOf(jobs);
    Objects.requireNonNull(now, "now");
    return batch;
  }

  public static void forLease(LeaseSpec spec, Instant now) {
    Objects.requireNonNull(spec, "spec");
    Objects.requireNonNull(now, "now");
  }

  /** Checks {@link JobStore#heartbeat}'s arguments; returns the renewals, copied. */
  public static List<LeaseRenewal> forHeartbeat(
      String workerId, List<LeaseRenewal> renewals, Instant expiresAt, Instant now) {
    Objects.requireNonNull(workerId, "workerId");
    List<LeaseRenewal> batch = List.copyOf(renewals);
    Objects.requireNonNull(expiresAt, "expiresAt");
    Objects.requireNonNull(now, "now");
    return batch;
  }

  /** Checks {@link JobStore#complete}'s arguments; returns the result, copied. */
  @Nullable
  public static byte[] forComplete(String workerId, @Nullable byte[] result, Instant now) {
    Objects.requireNonNull(workerId, "workerId");
    Objects.requireNonNull(now, "now");
    return result == null ? null : result.clone();
  }

  /**
   * Checks a batched completion and copies it.
   *
   * @throws IllegalArgumentException if two completions name the same job
   */
  public static List<Completion> forCompleteAll(
      String workerId, List<Completion> completions, Instant now) {
    Objects.requireNonNull(workerId, "workerId");
    Objects.requireNonNull(now, "now");
    List<Completion> copy = List.copyOf(completions);
    Set<Long> seen = new HashSet<>();
    for (Completion c : copy) {
      if (!seen.add(c.jobId())) {
        throw new IllegalArgumentException("job " + c.jobId() + " is completed twice in one batch");
      }
    }
    return copy;
  }

  public static void forFail(String workerId, Failure failure, RetryPlanner planner, Instant now) {
    Objects.requireNonNull(workerId, "workerId");
    Objects.requireNonNull(failure, "failure");
    Objects.requireNonNull(planner, "planner");
    Objects.requireNonNull(now, "now");
  }

  public static void forRelease(String workerId, String reason, Instant now) {
    Objects.requireNonNull(workerId, "workerId");
    Objects.requireNonNull(reason, "reason");
    Objects.requireNonNull(now, "now");
  }

  /**
   * @throws IllegalArgumentException if {@code limit} is below 1
   */
  public static void forExpireLeases(Instant now, int limit) {
    Objects.requireNonNull(now, "now");
    requireLimit(limit);
  }

  /**
   * Checks {@link JobStore#redrive}'s arguments; returns the ids, copied.
   *
   * @throws IllegalArgumentException if {@code spacing} is negative
   */
  public static List<Long> forRedrive(
      List<Long> jobIds, Instant firstRunAt, Duration spacing, Instant now) {
    List<Long> ids = List.copyOf(jobIds);
    Objects.requireNonNull(firstRunAt, "firstRunAt");
    Objects.requireNonNull(now, "now");
    if (spacing.isNegative()) {
      throw new IllegalArgumentException("spacing must not be negative, got " + spacing);
    }
    return ids;
  }

  /**
   * @throws IllegalArgumentException if {@code state} is not terminal or {@code limit} is below 1
   */
  public static void forDeleteFinished(JobState state, Instant finishedBefore, int limit) {
    if (!state.isTerminal()) {
      throw new IllegalArgumentException("only finished jobs are deleted, not " + state);
    }
    Objects.requireNonNull(finishedBefore, "finishedBefore");
    requireLimit(limit);
  }

  /**
   * @throws IllegalArgumentException if {@code limit} is below 1
   */
  public static void forForgetExpiredIdempotencyKeys(Instant now, int limit) {
    Objects.requireNonNull(now, "now");
    requireLimit(limit);
  }

  private static void requireLimit(int limit) {
    if (limit < 1) {
      throw new IllegalArgumentException("limit must be at least 1, got " + limit);
    }
  }
}
