package io.antrean.coordinator.metrics;

import io.prometheus.metrics.core.datapoints.DistributionDataPoint;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * {@code antrean_rpc_duration_seconds{method,code}}: how long each call took and how it ended. gRPC
 * calls use the full method name and the status code name ({@code antrean.v1.JobService/Enqueue},
 * {@code OK}); HTTP calls use the route and the status ({@code POST /v1/jobs}, {@code 201}).
 *
 * <p>Each (method, code) series is looked up once and kept, so recording a call is two map reads.
 * Callers pass constant strings (method descriptors, route templates), which keeps the number of
 * series bounded. Thread-safe.
 */
public final class RpcDurations {
  private static final double[] BUCKETS = {
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60
  };

  private final Histogram histogram;
  private final ConcurrentMap<String, ConcurrentMap<String, DistributionDataPoint>> series =
      new ConcurrentHashMap<>();

  /** Registers the histogram in {@code registry}. */
  public RpcDurations(PrometheusRegistry registry) {
    this.histogram =
        Histogram.builder()
            .name("antrean_rpc_duration_seconds")
            .help("Duration of gRPC and HTTP calls by method (or route) and status code")
            .labelNames("method", "code")
            .classicOnly()
            .classicUpperBounds(BUCKETS)
            .withoutExemplars()
            .register(registry);
  }

  /**
   * Records one finished call.
   *
   * @param method the gRPC full method name or the HTTP route
   * @param code the gRPC status code name or the HTTP status
   * @param durationNanos from the call's start to its answer
   */
  public void record(String method, String code, long durationNanos) {
    ConcurrentMap<String, DistributionDataPoint> byCode = series.get(method);
    if (byCode == null) {
      byCode = series.computeIfAbsent(method, m -> new ConcurrentHashMap<>());
    }
    DistributionDataPoint point = byCode.get(code);
    if (point == null) {
      point = byCode.computeIfAbsent(code, c -> histogram.labelValues(method, c));
    }
    point.observe(Math.max(0, durationNanos) / 1e9);
  }
}
