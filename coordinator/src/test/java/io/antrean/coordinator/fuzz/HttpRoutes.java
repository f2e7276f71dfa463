package io.antrean.coordinator.fuzz;

import io.antrean.proto.v1.EnqueueRequest;
import io.antrean.proto.v1.PurgeDeadLettersRequest;
import io.antrean.proto.v1.RedriveDeadLettersRequest;
import java.util.List;

/** Every route the coordinator's HTTP server has, with its body message and query parameters. */
final class HttpRoutes {
  private static final List<String> JOB_LIST =
      List.of("queue", "type", "state", "page_size", "page_token");
  private static final List<String> DEAD_LIST =
      List.of("queue", "type", "error", "failed_after", "failed_before", "page_size", "page_token");

  static final List<HttpFuzzer.Route> ALL =
      List.of(
          route("/v1/jobs", JOB_LIST),
          route("/v1/jobs/{id}", List.of()),
          route("/v1/jobs/{id}:cancel", List.of()),
          route("/v1/jobs/{id}/dependencies", List.of()),
          route("/v1/stats", List.of("queue", "unfinished_only")),
          route("/v1/dead-letters", DEAD_LIST),
          route("/v1/dead-letters/{id}", List.of()),
          new HttpFuzzer.Route(
              "/v1/dead-letters:redrive", RedriveDeadLettersRequest.getDescriptor(), List.of()),
          new HttpFuzzer.Route(
              "/v1/dead-letters:purge", PurgeDeadLettersRequest.getDescriptor(), List.of()),
          route("/v1/queues", List.of()),
          route("/v1/queues/{queue}:pause", List.of()),
          route("/v1/queues/{queue}:resume", List.of()),
          route("/v1/workers", List.of()),
          route("/v1/rates", List.of("queue")),
          route("/metrics", List.of()),
          route("/healthz", List.of()),
          route("/readyz", List.of()),
          route("/", List.of()),
          route("/dashboard/{name}", List.of()),
          route("/v1/nothing/{id}", List.of()));

  private HttpRoutes() {}

  private static HttpFuzzer.Route route(String template, List<String> params) {
    return new HttpFuzzer.Route(template, EnqueueRequest.getDescriptor(), params);
  }
}
