package io.antrean.coordinator.core;

import io.antrean.coordinator.job.DependencyFailure;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import javax.annotation.Nullable;

/**
 * A producer's request to enqueue one job, before validation. Empty strings mean "not given".
 *
 * @param runAt run no earlier than this; at most one of runAt and delay
 * @param delay run no earlier than now plus this
 * @param traceParent the producer's W3C {@code traceparent}, carried to the worker
 * @param concurrencyKey the key the queue's per-key concurrency limit counts the job under
 * @param uniqueKey the unique-while-active key; empty for none
 * @param uniqueReturnsExisting on a unique key clash, answer with the active job instead of
 *     refusing
 * @param dependsOn ids of the jobs this job waits for, as given (duplicates allowed); empty for
 *     none
 * @param onDependencyFailure what becomes of the job if one of them does not succeed
 */
public record EnqueueCommand(
    String queue,
    String type,
    byte[] payload,
    String contentType,
    int priority,
    @Nullable Instant runAt,
    @Nullable Duration delay,
    String idempotencyKey,
    RetryOverride retry,
    String traceParent,
    String concurrencyKey,
    String uniqueKey,
    boolean uniqueReturnsExisting,
    List<Long> dependsOn,
    DependencyFailure onDependencyFailure) {

  /** A command without dependencies. */
  public EnqueueCommand(
      String queue,
      String type,
      byte[] payload,
      String contentType,
      int priority,
      @Nullable Instant runAt,
      @Nullable Duration delay,
      String idempotencyKey,
      RetryOverride retry,
      String traceParent,
      String concurrencyKey,
      String uniqueKey,
      boolean uniqueReturnsExisting) {
    this(
        queue,
        type,
        payload,
        contentType,
        priority,
        runAt,
        delay,
        idempotencyKey,
        retry,
        traceParent,
        concurrencyKey,
        uniqueKey,
        uniqueReturnsExisting,
        List.of(),
        DependencyFailure.CANCEL);
  }

  /** A command without a concurrency key or a unique key. */
  public EnqueueCommand(
      String queue,
      String type,
      byte[] payload,
      String contentType,
      int priority,
      @Nullable Instant runAt,
      @Nullable Duration delay,
      String idempotencyKey,
      RetryOverride retry,
      String traceParent) {
    this(
        queue,
        type,
        payload,
        contentType,
        priority,
        runAt,
        delay,
        idempotencyKey,
        retry,
        traceParent,
        "",
        "",
        false);
  }

  public EnqueueCommand {
    Objects.requireNonNull(queue, "queue");
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(payload, "payload");
    Objects.requireNonNull(contentType, "contentType");
    Objects.requireNonNull(idempotencyKey, "idempotencyKey");
    Objects.requireNonNull(retry, "retry");
    Objects.requireNonNull(traceParent, "traceParent");
    Objects.requireNonNull(concurrencyKey, "concurrencyKey");
    Objects.requireNonNull(uniqueKey, "uniqueKey");
    Objects.requireNonNull(onDependencyFailure, "onDependencyFailure");
    dependsOn = List.copyOf(dependsOn);
  }

  /** A plain job of this type in the default queue, for tests and samples. */
  public static EnqueueCommand of(String queue, String type, byte[] payload) {
    return new EnqueueCommand(queue, type, payload, "", 0, null, null, "", RetryOverride.NONE, "");
  }
}
