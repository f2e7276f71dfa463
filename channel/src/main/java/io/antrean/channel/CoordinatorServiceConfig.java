package io.antrean.channel;

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
 */
final class CoordinatorServiceConfig {
  /** Attempts per call, the first one included. */
  static final int MAX_ATTEMPTS = 5;

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
            "0.1s",
            "maxBackoff",
            "2s",
            "backoffMultiplier",
            2.0,
            "retryableStatusCodes",
            List.of(RETRYABLE_CODE));
    // An empty name entry makes this the default for every service and method.
    Map<String, Object> everyMethod = Map.of("name", List.of(Map.of()), "retryPolicy", retryPolicy);
    return Map.of(
        "loadBalancingConfig", List.of(Map.of("round_robin", Map.of())),
        "healthCheckConfig", Map.of("serviceName", ""),
        "methodConfig", List.of(everyMethod));
  }
}
