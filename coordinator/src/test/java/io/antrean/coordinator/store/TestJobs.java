package io.antrean.coordinator.store;

import io.antrean.coordinator.job.DependencyFailure;
import io.antrean.coordinator.job.DependsOn;
import io.antrean.coordinator.job.NewJob;
import io.antrean.coordinator.job.RetryPolicy;
import io.antrean.coordinator.job.UniqueKey;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Optional;
import java.util.Set;
import javax.annotation.Nullable;

/** New jobs, lease specs and retry planners for store tests, with readable defaults. */
public final class TestJobs {
  /** The fake clock's starting point in every store test. */
  public static final Instant T0 = Instant.parse("2026-03-01T12:00:00Z");

  public static final String QUEUE = "default";

  /** A planner that always dead-letters. */
  public static final RetryPlanner NEVER_RETRY = (job, failure, now) -> Optional.empty();

  private TestJobs() {}

  public static Builder job(String type) {
    return new Builder(type);
  }

  /** A planner that always retries at {@code runAt}. */
  public static RetryPlanner retryAt(Instant runAt) {
    return (job, failure, now) -> Optional.of(runAt);
  }

  public static LeaseSpec spec(String workerId, int maxJobs, Instant expiresAt) {
    return new LeaseSpec(workerId, QUEUE, Set.of(), maxJobs, expiresAt);
  }

  public static Instant at(long secondsAfterT0) {
    return T0.plusSeconds(secondsAfterT0);
  }

  public static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  /** Builds a {@link NewJob}; defaults: queue "default", JSON "{}", priority 0, run at T0. */
  public static final class Builder {
    private String queue = QUEUE;
    private final String type;
    private byte[] payload = utf8("{}");
    private String contentType = "application/json";
    private int priority;
    private Instant runAt = T0;
    @Nullable private String key;
    @Nullable private Instant keyExpiresAt;
    private RetryPolicy retryPolicy = RetryPolicy.DEFAULT;
    @Nullable private String traceParent;
    @Nullable private String concurrencyKey;
    @Nullable private UniqueKey uniqueKey;
    private DependsOn dependsOn = DependsOn.NONE;

    private Builder(String type) {
      this.type = type;
    }

    public Builder queue(String value) {
      queue = value;
      return this;
    }

    public Builder payload(String json) {
      payload = utf8(json);
      return this;
    }

    public Builder payload(byte[] bytes, String type) {
      payload = bytes.clone();
      contentType = type;
      return this;
    }

    public Builder priority(int value) {
      priority = value;
      return this;
    }

    public Builder runAt(Instant value) {
      runAt = value;
      return this;
    }

    /** An idempotency key remembered for an hour after T0. */
    public Builder key(String value) {
      return key(value, T0.plus(Duration.ofHours(1)));
    }

    public Builder key(String value, Instant expiresAt) {
      key = value;
      keyExpiresAt = expiresAt;
      return this;
    }

    public Builder maxLeaseExpiries(int value) {
      RetryPolicy p = retryPolicy;
      retryPolicy =
          new RetryPolicy(
              p.maxAttempts(), p.initialBackoff(), p.multiplier(), p.maxBackoff(), value);
      return this;
    }

    public Builder retryPolicy(RetryPolicy value) {
      retryPolicy = value;
      return this;
    }

    public Builder traceParent(String value) {
      traceParent = value;
      return this;
    }

    public Builder concurrencyKey(String value) {
      concurrencyKey = value;
      return this;
    }

    /** A unique-while-active key; a clash is refused unless {@code returnExisting}. */
    public Builder unique(String value, boolean returnExisting) {
      uniqueKey = new UniqueKey(value, returnExisting);
      return this;
    }

    /** Waits for these jobs; {@code policy} if one of them does not succeed. */
    public Builder dependsOn(DependencyFailure policy, long... jobIds) {
      dependsOn = new DependsOn(Arrays.stream(jobIds).boxed().toList(), policy);
      return this;
    }

    /** Waits for these jobs; cancelled if one of them does not succeed. */
    public Builder dependsOn(long... jobIds) {
      return dependsOn(DependencyFailure.CANCEL, jobIds);
    }

    public NewJob build() {
      return new NewJob(
          queue,
          type,
          payload,
          contentType,
          priority,
          runAt,
          key,
          keyExpiresAt,
          retryPolicy,
          traceParent,
          concurrencyKey,
          uniqueKey,
          dependsOn);
    }
  }
}
