package io.antrean.coordinator.core;

import java.time.Duration;
import java.util.Objects;

/**
 * How much the coordinator holds in flight before it answers {@code RESOURCE_EXHAUSTED} (HTTP 429).
 * Immutable.
 *
 * @param maxBytes request bytes (serialized size, or an HTTP body's declared length) of the calls
 *     in flight, summed; one call larger than this alone is still taken when nothing else is in
 *     flight
 * @param maxCalls unary calls in flight (gRPC and the HTTP API), waiting Lease calls and WatchJob
 *     streams not included
 * @param maxLongPolls Lease calls open at once (each may wait for work)
 * @param maxWatchStreams WatchJob streams open at once
 * @param retryAfter the retry hint sent with a refusal
 */
public record InFlightLimits(
    long maxBytes, int maxCalls, int maxLongPolls, int maxWatchStreams, Duration retryAfter) {

  static final long MIN_BYTES = 16L << 20;
  static final long MAX_DEFAULT_BYTES = 256L << 20;

  public InFlightLimits {
    Objects.requireNonNull(retryAfter, "retryAfter");
    positive("maxBytes", maxBytes);
    positive("maxCalls", maxCalls);
    positive("maxLongPolls", maxLongPolls);
    positive("maxWatchStreams", maxWatchStreams);
    if (retryAfter.isNegative() || retryAfter.isZero()) {
      throw new IllegalArgumentException("retryAfter must be positive, got " + retryAfter);
    }
  }

  /**
   * The defaults for a heap of {@code maxHeapBytes}: an eighth of it for request bytes (a request
   * costs about three times its serialized size while it is parsed, mapped and written), at least
   * 16 MiB and at most 256 MiB; 512 calls, 4,096 long-polls, 4,096 watch streams, retry after 1 s.
   */
  public static InFlightLimits forHeap(long maxHeapBytes) {
    long bytes = Math.max(MIN_BYTES, Math.min(MAX_DEFAULT_BYTES, maxHeapBytes / 8));
    return new InFlightLimits(bytes, 512, 4096, 4096, Duration.ofSeconds(1));
  }

  /** {@link #forHeap} of this JVM's maximum heap. */
  public static InFlightLimits defaults() {
    return forHeap(Runtime.getRuntime().maxMemory());
  }

  private static void positive(String name, long value) {
    if (value < 1) {
      throw new IllegalArgumentException(name + " must be at least 1, got " + value);
    }
  }
}
