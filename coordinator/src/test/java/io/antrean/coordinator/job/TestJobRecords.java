package io.antrean.coordinator.job;

import java.time.Instant;
import java.util.List;
import javax.annotation.Nullable;

/**
 * Job records as a store would answer them, for tests that care about a few fields: by default a
 * job of queue "default" and type "t", an empty JSON payload, no attempts yet, RUNNING without a
 * lease, created, updated and run at one instant.
 */
public final class TestJobRecords {
  private TestJobRecords() {}

  public static Builder job(long id, Instant at) {
    return new Builder(id, at);
  }

  /** Builds a {@link Job}; each setter replaces one default. */
  public static final class Builder {
    private final long id;
    private final Instant at;
    private String queue = "default";
    private String type = "t";
    private byte[] payload = new byte[0];
    private RetryPolicy retryPolicy = RetryPolicy.DEFAULT;
    private int attempts;
    private int leaseExpiries;
    private JobState state = JobState.RUNNING;
    @Nullable private String lastError;
    @Nullable private Instant finishedAt;

    private Builder(long id, Instant at) {
      this.id = id;
      this.at = at;
    }

    public Builder queue(String queue) {
      this.queue = queue;
      return this;
    }

    public Builder type(String type) {
      this.type = type;
      return this;
    }

    public Builder payload(byte[] payload) {
      this.payload = payload;
      return this;
    }

    public Builder retryPolicy(RetryPolicy retryPolicy) {
      this.retryPolicy = retryPolicy;
      return this;
    }

    public Builder attempts(int attempts, int leaseExpiries) {
      this.attempts = attempts;
      this.leaseExpiries = leaseExpiries;
      return this;
    }

    /** FAILED with the error, finished at the builder's instant. */
    public Builder failed(String lastError) {
      this.state = JobState.FAILED;
      this.lastError = lastError;
      this.finishedAt = at;
      return this;
    }

    public Job build() {
      return new Job(
          id,
          queue,
          type,
          payload,
          "application/json",
          0,
          at,
          null,
          retryPolicy,
          attempts,
          leaseExpiries,
          0,
          state,
          null,
          null,
          lastError,
          at,
          at,
          finishedAt,
          null,
          null,
          false,
          List.of(),
          0,
          null,
          null);
    }
  }
}
