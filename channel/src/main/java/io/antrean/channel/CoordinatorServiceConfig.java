package io.antrean.channel;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The gRPC service config every coordinator channel starts with, in the JSON-like form {@code
 * ManagedChannelBuilder.defaultServiceConfig} takes (numbers are doubles).
 *
 * <ul>
 *   <li>{@code round_robin} over every resolved address: each call, and so each Lease long-poll,
 *       goes to the next healthy coordinator.
 *   <li>Client-side health checking on the {@code ""} service of {@code grpc.health.v1}: a
 *       coordinator that reports NOT_SERVING (it does while draining) gets no new calls. A server
 *       without the health service counts as healthy.
 *   <li>A retry policy for every method that retries only {@code UNAVAILABLE}, up to {@value
 *       #MAX_ATTEMPTS} attempts in all, backing off exponentially with jitter from 0.1 s up to 2 s.
 *       Each retry is picked anew, so it usually lands on another coordinator.
 * </ul>
 *
 * <p>The client's Produce stream repeats a request its broken stream left unanswered by the same
 * policy ({@link #MAX_ATTEMPTS}, {@link #backoffBefore}).
 */
public final class CoordinatorServiceConfig {
  /** Attempts per call, the first one included. */
  public static final int MAX_ATTEMPTS = 5;

  private static final Duration INITIAL_BACKOFF = Duration.ofMillis(100);
  private static final Duration MAX_BACKOFF = Duration.ofSeconds(2);
  private static final double BACKOFF_MULTIPLIER = 2.0;

  /** The only status code a call is retried on. */
  static final String RETRYABLE_CODE = "UNAVAILABLE";

  private CoordinatorServiceConfig() {}

  /** A new copy of the config; immutable. */
  static Map<String, Object> create() {
    Map<String, Object> retryPolicy =
        Map.of(
            "maxAttempts",
            (double) MAX_ATTEMPTS,
            "initialBackoff",
            seconds(INITIAL_BACKOFF),
            "maxBackoff",
            seconds(MAX_BACKOFF),
            "backoffMultiplier",
            BACKOFF_MULTIPLIER,
            "retryableStatusCodes",
            List.of(RETRYABLE_CODE));
    // An empty name entry makes this the default for every service and method.
    Map<String, Object> everyMethod = Map.of("name", List.of(Map.of()), "retryPolicy", retryPolicy);
    return Map.of(
        "loadBalancingConfig", List.of(Map.of("round_robin", Map.of())),
        "healthCheckConfig", Map.of("serviceName", ""),
        "methodConfig", List.of(everyMethod));
  }

  /**
   * The longest wait before attempt {@code attempt} (2 for the first retry), as gRPC's retry policy
   * reckons it; gRPC waits a random time up to this.
   */
  public static Duration backoffBefore(int attempt) {
    double nanos = INITIAL_BACKOFF.toNanos() * Math.pow(BACKOFF_MULTIPLIER, attempt - 2);
    return Duration.ofNanos((long) Math.min(nanos, MAX_BACKOFF.toNanos()));
  }

  private static String seconds(Duration d) {
    return d.toMillis() / 1000.0 + "s";
  }
}
