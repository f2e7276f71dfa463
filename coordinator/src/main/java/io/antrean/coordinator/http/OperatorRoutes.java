package io.antrean.coordinator.http;

import io.antrean.coordinator.api.AdminServiceCalls;
import io.antrean.proto.v1.GetQueueRatesRequest;
import io.antrean.proto.v1.ListWorkersRequest;
import java.io.IOException;
import java.util.Set;

/**
 * What an operator watches, each answered by one {@link AdminServiceCalls} call with the same
 * messages as the gRPC AdminService:
 *
 * <ul>
 *   <li>{@code GET /v1/workers}: ListWorkersResponse, the workers this coordinator has heard from
 *   <li>{@code GET /v1/rates?queue=}: GetQueueRatesResponse, per queue and minute over the last
 *       hour
 * </ul>
 */
final class OperatorRoutes {
  private final AdminServiceCalls calls;

  OperatorRoutes(AdminServiceCalls calls) {
    this.calls = calls;
  }

  void addTo(Router router) {
    router.add("GET", "/v1/workers", this::workers).add("GET", "/v1/rates", this::rates);
  }

  private void workers(HttpCall call) throws IOException {
    call.query(Set.of()).check();
    call.respond(200, calls.listWorkers(ListWorkersRequest.getDefaultInstance()));
  }

  private void rates(HttpCall call) throws IOException {
    QueryParams q = call.query(Set.of("queue"));
    q.check();
    call.respond(
        200,
        calls.getQueueRates(GetQueueRatesRequest.newBuilder().setQueue(q.text("queue")).build()));
  }
}
