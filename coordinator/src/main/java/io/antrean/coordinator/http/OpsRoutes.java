package io.antrean.coordinator.http;

import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import io.antrean.coordinator.http.ErrorBodies.ErrorBody;
import io.antrean.coordinator.metrics.CoordinatorMetrics;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.List;
import java.util.Set;
import javax.annotation.Nullable;

/**
 * The operator routes outside the API's versioned paths:
 *
 * <ul>
 *   <li>{@code GET /metrics}: Prometheus text exposition
 *   <li>{@code GET /healthz}: 200 {@code {"status":"ok"}} while the process serves HTTP, with a
 *       {@code "warning"} when it runs exposed without TLS or authentication ({@code --insecure})
 *   <li>{@code GET /readyz}: 200 {@code {"status":"ready"}} when the store answered a cheap read
 *       (its paused queues, which reads no job) within the probe's timeout and does not know its
 *       writes to fail (SQLite after a failed fsync), else 503 {@code STORE_UNAVAILABLE}
 * </ul>
 */
final class OpsRoutes {
  private final CoordinatorMetrics metrics;
  private final ReadinessProbe readiness;
  @Nullable private final String warning;

  /**
   * @param warning what {@code /healthz} adds as {@code "warning"}, for a coordinator exposed
   *     without TLS or authentication; null for none
   */
  OpsRoutes(CoordinatorMetrics metrics, ReadinessProbe readiness, @Nullable String warning) {
    this.metrics = metrics;
    this.readiness = readiness;
    this.warning = warning;
  }

  void addTo(Router router) {
    router
        .add("GET", "/metrics", this::metrics)
        .add("GET", "/healthz", this::health)
        .add("GET", "/readyz", this::ready);
  }

  private void metrics(HttpCall call) throws IOException {
    call.query(Set.of()).check();
    ByteArrayOutputStream out = new ByteArrayOutputStream(16 * 1024);
    metrics.writeText(out);
    call.send(200, CoordinatorMetrics.TEXT_CONTENT_TYPE, out.toByteArray());
  }

  private void health(HttpCall call) throws IOException {
    Struct ok = status("ok");
    call.respond(
        200,
        warning == null
            ? ok
            : ok.toBuilder()
                .putFields("warning", Value.newBuilder().setStringValue(warning).build()));
  }

  private void ready(HttpCall call) throws IOException {
    if (readiness.ready()) {
      call.respond(200, status("ready"));
    } else {
      call.respondError(
          new ErrorBody(
              503,
              "STORE_UNAVAILABLE",
              "the store did not answer a read in time",
              List.of(),
              null,
              null));
    }
  }

  private static Struct status(String status) {
    return Struct.newBuilder()
        .putFields("status", Value.newBuilder().setStringValue(status).build())
        .build();
  }
}
