package io.antrean.coordinator.job;

import java.time.Instant;
import java.util.Objects;
import javax.annotation.Nullable;

/**
 * A validated job to be stored, with every default already applied.
 *
 * @param idempotencyKey null when the producer gave none
 * @param traceParent the producer's W3C {@code traceparent}; null for none
 * @param idempotencyExpiresAt how long the key is remembered; null exactly when the key is null
 * @param concurrencyKey the key its queue's per-key concurrency limit counts it under (a customer
 *     id, say); null for none
 * @param uniqueKey the unique-while-active key; null for none
 * @param dependsOn the jobs it waits for ({@link DependsOn#NONE} for none)
 */
public record NewJob(
    String queue,
    String type,
    byte[] payload,
    String contentType,
    int priority,
    Instant runAt,
    @Nullable String idempotencyKey,
    @Nullable Instant idempotencyExpiresAt,
    RetryPolicy retryPolicy,
    @Nullable String traceParent,
    @Nullable String concurrencyKey,
    @Nullable UniqueKey uniqueKey,
    DependsOn dependsOn) {

  /** A job that waits for no other job. */
  public NewJob(
      String queue,
      String type,
      byte[] payload,
      String contentType,
      int priority,
      Instant runAt,
      @Nullable String idempotencyKey,
      @Nullable Instant idempotencyExpiresAt,
      RetryPolicy retryPolicy,
      @Nullable String traceParent,
      @Nullable String concurrencyKey,
      @Nullable UniqueKey uniqueKey) {
    this(
        queue,
        type,
        payload,
        contentType,
        priority,
        runAt,
        idempotencyKey,
        idempotencyExpiresAt,
        retryPolicy,
        traceParent,
        concurrencyKey,
        uniqueKey,
        DependsOn.NONE);
  }

  /** A job without a concurrency key or a unique key. */
  public NewJob(
      String queue,
      String type,
      byte[] payload,
      String contentType,
      int priority,
      Instant runAt,
      @Nullable String idempotencyKey,
      @Nullable Instant idempotencyExpiresAt,
      RetryPolicy retryPolicy,
      @Nullable String traceParent) {
    this(
        queue,
        type,
        payload,
        contentType,
        priority,
        runAt,
        idempotencyKey,
        idempotencyExpiresAt,
        retryPolicy,
        traceParent,
        null,
        null);
  }

  public NewJob {
    Objects.requireNonNull(queue, "queue");
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(contentType, "contentType");
    Objects.requireNonNull(runAt, "runAt");
    Objects.requireNonNull(retryPolicy, "retryPolicy");
    Objects.requireNonNull(dependsOn, "dependsOn");
    if ((idempotencyKey == null) != (idempotencyExpiresAt == null)) {
      throw new IllegalArgumentException("idempotencyKey and idempotencyExpiresAt go together");
    }
    payload = payload.clone();
  }

  @Override
  public byte[] payload() {
    return payload.clone();
  }

  /** The payload's length in bytes, without copying it. */
  public int payloadSize() {
    return payload.length;
  }
}
