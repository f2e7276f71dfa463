package io.antrean.coordinator.job;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import javax.annotation.Nullable;

/**
 * A snapshot of one job. Immutable: byte arrays are copied in and out, so a snapshot handed to a
 * caller can never change what a store holds. Equality is the record's default, so two snapshots
 * with payloads are never equal; compare fields.
 *
 * @param id assigned from a counter, never reused
 * @param attempts leases taken so far (handler attempts and expired ones alike)
 * @param leaseExpiries how many of those leases expired
 * @param releases how many of those leases the worker handed back unrun (Release, a cancel)
 * @param lease present while the job is {@link JobState#RUNNING}
 * @param history the attempt history, oldest first; empty when the store was not asked for it, and
 *     its newest entries only when the store kept the answer within {@link
 *     io.antrean.coordinator.store.AnswerBudget}
 * @param historyOmitted how many of the oldest entries {@code history} leaves out
 * @param traceParent the producer's W3C {@code traceparent}; null for none
 * @param concurrencyKey the key its queue's per-key concurrency limit counts it under; null for
 *     none
 */
public record Job(
    long id,
    String queue,
    String type,
    byte[] payload,
    String contentType,
    int priority,
    Instant runAt,
    @Nullable String idempotencyKey,
    RetryPolicy retryPolicy,
    int attempts,
    int leaseExpiries,
    int releases,
    JobState state,
    @Nullable byte[] result,
    @Nullable String resultContentType,
    @Nullable String lastError,
    Instant createdAt,
    Instant updatedAt,
    @Nullable Instant finishedAt,
    @Nullable LeaseInfo lease,
    @Nullable String progress,
    boolean cancelRequested,
    List<Attempt> history,
    int historyOmitted,
    @Nullable String traceParent,
    @Nullable String concurrencyKey) {

  public Job {
    Objects.requireNonNull(queue, "queue");
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(contentType, "contentType");
    Objects.requireNonNull(runAt, "runAt");
    Objects.requireNonNull(retryPolicy, "retryPolicy");
    Objects.requireNonNull(state, "state");
    Objects.requireNonNull(createdAt, "createdAt");
    Objects.requireNonNull(updatedAt, "updatedAt");
    payload = payload.clone();
    result = result == null ? null : result.clone();
    history = List.copyOf(history);
  }

  @Override
  public byte[] payload() {
    return payload.clone();
  }

  /** The payload's length in bytes, without copying it. */
  public int payloadSize() {
    return payload.length;
  }

  @Override
  @Nullable
  public byte[] result() {
    return result == null ? null : result.clone();
  }

  /** The result's length in bytes, 0 for none, without copying it. */
  public int resultSize() {
    return result == null ? 0 : result.length;
  }

  /**
   * Handler attempts spent so far: leases that neither expired nor were handed back unrun. This,
   * not {@link #attempts}, is what {@link RetryPolicy#maxAttempts} budgets.
   */
  public int handlerAttempts() {
    return attempts - leaseExpiries - releases;
  }

  /** This snapshot with another history, which leaves out {@code omitted} older entries. */
  public Job withHistory(List<Attempt> newHistory, int omitted) {
    return new Job(
        id,
        queue,
        type,
        payload,
        contentType,
        priority,
        runAt,
        idempotencyKey,
        retryPolicy,
        attempts,
        leaseExpiries,
        releases,
        state,
        result,
        resultContentType,
        lastError,
        createdAt,
        updatedAt,
        finishedAt,
        lease,
        progress,
        cancelRequested,
        newHistory,
        omitted,
        traceParent,
        concurrencyKey);
  }

  /** This snapshot with another lease. */
  public Job withLease(@Nullable LeaseInfo newLease) {
    return new Job(
        id,
        queue,
        type,
        payload,
        contentType,
        priority,
        runAt,
        idempotencyKey,
        retryPolicy,
        attempts,
        leaseExpiries,
        releases,
        state,
        result,
        resultContentType,
        lastError,
        createdAt,
        updatedAt,
        finishedAt,
        newLease,
        progress,
        cancelRequested,
        history,
        historyOmitted,
        traceParent,
        concurrencyKey);
  }

  @Override
  public String toString() {
    return "Job{id="
        + id
        + ", queue="
        + queue
        + ", type="
        + type
        + ", state="
        + state
        + ", attempts="
        + attempts
        + ", lease="
        + lease
        + "}";
  }
}
