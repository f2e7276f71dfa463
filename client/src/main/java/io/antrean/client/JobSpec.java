package io.antrean.client;

import com.google.protobuf.ByteString;
import io.antrean.client.internal.ProtoTime;
import io.antrean.proto.v1.DependencyFailure;
import io.antrean.proto.v1.EnqueueRequest;
import io.antrean.proto.v1.RetryPolicy;
import io.antrean.proto.v1.UniqueConflict;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * A job to enqueue, built with {@code java.time} types instead of protobuf ones: a friendlier front
 * for {@link EnqueueRequest}.
 *
 * <pre>{@code
 * JobSpec spec = JobSpec.builder("email.send")
 *     .jsonPayload("{\"to\":\"ada@example.com\"}")
 *     .queue("mail")
 *     .delay(Duration.ofSeconds(5))
 *     .idempotencyKey("welcome-ada")
 *     .maxAttempts(5)
 *     .build();
 * client.enqueue(spec);
 * }</pre>
 *
 * <p>Fields left unset keep the coordinator's defaults (queue {@code default}, priority 0, run at
 * once, the queue's and the type's retry policy). Instances are immutable and thread-safe; a {@link
 * Builder} is not thread-safe.
 */
public final class JobSpec {
  private final EnqueueRequest request;

  private JobSpec(EnqueueRequest request) {
    this.request = request;
  }

  /**
   * Starts a spec for a job of the given type.
   *
   * @param type the job type, which selects the worker's handler; not blank
   * @throws IllegalArgumentException if {@code type} is blank
   */
  public static Builder builder(String type) {
    return new Builder(type);
  }

  /** The request this spec stands for. */
  public EnqueueRequest toRequest() {
    return request;
  }

  @Override
  public String toString() {
    return "JobSpec{" + request.getType() + " in " + request.getQueue() + "}";
  }

  /**
   * Collects the fields of a {@link JobSpec}. Not thread-safe; every setter returns {@code this}.
   */
  public static final class Builder {
    private final EnqueueRequest.Builder request = EnqueueRequest.newBuilder();
    private final RetryPolicy.Builder retry = RetryPolicy.newBuilder();

    private Builder(String type) {
      requireNotBlank(type, "type");
      request.setType(type);
    }

    /** The queue to put the job in; the coordinator uses {@code default} when this is not set. */
    public Builder queue(String queue) {
      requireNotBlank(queue, "queue");
      request.setQueue(queue);
      return this;
    }

    /** A JSON payload, sent as UTF-8 with content type {@code application/json}. */
    public Builder jsonPayload(String json) {
      Objects.requireNonNull(json, "json");
      return payload(json.getBytes(StandardCharsets.UTF_8), "application/json");
    }

    /**
     * A payload of any content type. The bytes are copied.
     *
     * @param payload the bytes the handler receives
     * @param contentType their MIME type, for example {@code application/json}; not blank
     */
    public Builder payload(byte[] payload, String contentType) {
      Objects.requireNonNull(payload, "payload");
      requireNotBlank(contentType, "contentType");
      request.setPayload(ByteString.copyFrom(payload)).setContentType(contentType);
      return this;
    }

    /** Higher runs first; jobs of equal priority run in order. May be negative. */
    public Builder priority(int priority) {
      request.setPriority(priority);
      return this;
    }

    /**
     * Run no earlier than this long after the coordinator stores the job. Replaces any {@link
     * #runAt}.
     *
     * @throws IllegalArgumentException if {@code delay} is negative
     */
    public Builder delay(Duration delay) {
      if (delay.isNegative()) {
        throw new IllegalArgumentException("delay must not be negative: " + delay);
      }
      request.clearRunAt().setDelay(ProtoTime.toProto(delay));
      return this;
    }

    /** Run no earlier than this instant. Replaces any {@link #delay}. */
    public Builder runAt(Instant runAt) {
      request.clearDelay().setRunAt(ProtoTime.toProto(Objects.requireNonNull(runAt, "runAt")));
      return this;
    }

    /**
     * Makes the enqueue idempotent: while the coordinator remembers the key, enqueueing the same
     * key in the same queue again returns the first job instead of storing a new one.
     */
    public Builder idempotencyKey(String key) {
      requireNotBlank(key, "idempotency key");
      request.setIdempotencyKey(key);
      return this;
    }

    /**
     * The key the queue's per-key concurrency limit counts the job under (a customer id, say):
     * while the queue's limit of RUNNING jobs for this key is reached, the job waits PENDING
     * without spending an attempt. At most 256 characters.
     */
    public Builder concurrencyKey(String key) {
      requireNotBlank(key, "concurrency key");
      request.setConcurrencyKey(key);
      return this;
    }

    /**
     * Makes the job unique while active: while a job of the same queue with this key is pending or
     * running, this one is not stored and the enqueue fails with {@link AlreadyExistsException}
     * (the active job's id in its details), or, with {@code returnExisting}, answers with the
     * active job flagged deduplicated. Not together with an idempotency key.
     */
    public Builder uniqueKey(String key, boolean returnExisting) {
      requireNotBlank(key, "unique key");
      request
          .setUniqueKey(key)
          .setOnUniqueConflict(
              returnExisting
                  ? UniqueConflict.UNIQUE_CONFLICT_RETURN_EXISTING
                  : UniqueConflict.UNIQUE_CONFLICT_REJECT);
      return this;
    }

    /**
     * Makes the job wait for these jobs (of any queue the caller may use): it is stored {@code
     * WAITING}, never leased, until all of them {@code SUCCEEDED}, then {@code PENDING}. If one of
     * them ends {@code FAILED} or {@code CANCELLED}, the job is cancelled, or dead-lettered with
     * {@link #onDependencyFailure}. At most 100 ids; duplicates count once. An unknown id fails the
     * enqueue with {@link JobNotFoundException}. Its handler reads their results with {@code
     * JobContext.dependencies()} (or {@link AntreanClient#listDependencies}).
     */
    public Builder dependsOn(long... jobIds) {
      for (long id : jobIds) {
        request.addDependsOn(id);
      }
      return this;
    }

    /**
     * What becomes of the job when a job it depends on ends {@code FAILED} or {@code CANCELLED}:
     * {@code DEPENDENCY_FAILURE_CANCEL} (the default) or {@code DEPENDENCY_FAILURE_DEAD_LETTER}.
     */
    public Builder onDependencyFailure(DependencyFailure policy) {
      request.setOnDependencyFailure(policy);
      return this;
    }

    /**
     * Leases the job may use in all, the first one included; 1 means no retry.
     *
     * @throws IllegalArgumentException if {@code maxAttempts} is below 1
     */
    public Builder maxAttempts(int maxAttempts) {
      if (maxAttempts < 1) {
        throw new IllegalArgumentException("maxAttempts must be at least 1: " + maxAttempts);
      }
      retry.setMaxAttempts(maxAttempts);
      return this;
    }

    /**
     * The backoff before retries: the first waits up to {@code initial}, each later one grows by
     * the policy's multiplier up to {@code max}.
     *
     * @throws IllegalArgumentException if either is negative or {@code max} is below {@code
     *     initial}
     */
    public Builder backoff(Duration initial, Duration max) {
      if (initial.isNegative() || max.compareTo(initial) < 0) {
        throw new IllegalArgumentException(
            "backoff needs 0 <= initial <= max, got " + initial + " and " + max);
      }
      retry.setInitialBackoff(ProtoTime.toProto(initial)).setMaxBackoff(ProtoTime.toProto(max));
      return this;
    }

    /**
     * How fast the backoff grows from one retry to the next.
     *
     * @throws IllegalArgumentException if {@code multiplier} is below 1
     */
    public Builder backoffMultiplier(double multiplier) {
      if (!(multiplier >= 1.0)) {
        throw new IllegalArgumentException("backoff multiplier must be >= 1: " + multiplier);
      }
      retry.setBackoffMultiplier(multiplier);
      return this;
    }

    /**
     * Replaces the whole retry policy with a protobuf one, for fields this builder has no setter
     * for. Zero fields keep the coordinator's defaults.
     */
    public Builder retryPolicy(RetryPolicy policy) {
      retry.clear().mergeFrom(Objects.requireNonNull(policy, "policy"));
      return this;
    }

    /** Builds the spec. The builder may be used again afterwards. */
    public JobSpec build() {
      EnqueueRequest.Builder copy = request.clone();
      if (!retry.build().equals(RetryPolicy.getDefaultInstance())) {
        copy.setRetryPolicy(retry.build());
      }
      return new JobSpec(copy.build());
    }

    private static void requireNotBlank(String value, String what) {
      if (value == null || value.isBlank()) {
        throw new IllegalArgumentException(what + " must not be blank");
      }
    }
  }
}
