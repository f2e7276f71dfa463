package io.antrean.coordinator.store.jdbc;

import io.antrean.coordinator.store.RateLimit;

/**
 * The state of one token bucket as the stores keep it: the tokens it held at {@code
 * refilledAtMicros} (epoch microseconds). Pure and immutable; the refill is computed from the
 * {@code now} of the lease, never from a clock.
 */
public record TokenBucket(double tokens, long refilledAtMicros) {

  /** A full bucket as of {@code nowMicros}: what a bucket never used before holds. */
  public static TokenBucket full(RateLimit rate, long nowMicros) {
    return new TokenBucket(rate.starts(), nowMicros);
  }

  /**
   * The bucket as of {@code nowMicros}: refilled for the time since it was last written, at most
   * full. A {@code now} before the last write (another coordinator's clock, a lease that waited for
   * a lock) refills nothing and keeps the later time, so tokens are never granted twice.
   */
  public TokenBucket refill(RateLimit rate, long nowMicros) {
    long elapsed = Math.max(0, nowMicros - refilledAtMicros);
    double refilled = Math.min(rate.starts(), tokens + elapsed * rate.tokensPerMicro());
    return new TokenBucket(refilled, Math.max(refilledAtMicros, nowMicros));
  }

  /** How many starts the bucket allows now: its whole tokens. */
  public int whole() {
    return (int) Math.floor(tokens);
  }

  /**
   * When the bucket holds a whole token again, in epoch microseconds: now if it has one, else the
   * time the refill at {@code rate} makes up what is missing.
   */
  public long nextWholeAtMicros(RateLimit rate) {
    if (tokens >= 1) {
      return refilledAtMicros;
    }
    return refilledAtMicros + (long) Math.ceil((1 - tokens) / rate.tokensPerMicro());
  }

  /** The bucket after {@code starts} leases took a token each. */
  public TokenBucket take(int starts) {
    if (starts > whole()) {
      throw new IllegalArgumentException("only " + whole() + " tokens for " + starts + " starts");
    }
    return new TokenBucket(tokens - starts, refilledAtMicros);
  }
}
