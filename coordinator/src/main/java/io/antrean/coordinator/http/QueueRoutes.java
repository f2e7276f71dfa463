package io.antrean.coordinator.http;

import io.antrean.coordinator.api.AdminServiceCalls;
import io.antrean.proto.v1.ListQueuesRequest;
import io.antrean.proto.v1.PauseQueueRequest;
import io.antrean.proto.v1.ResumeQueueRequest;
import java.io.IOException;
import java.util.Set;

/**
 * The queue-control routes, each answered by one {@link AdminServiceCalls} call with the same
 * messages as the gRPC AdminService:
 *
 * <ul>
 *   <li>{@code GET /v1/queues}: ListQueuesResponse, every queue with its pause state and counts
 *   <li>{@code POST /v1/queues/{queue}:pause}: PauseQueueResponse (the body, if any, is ignored)
 *   <li>{@code POST /v1/queues/{queue}:resume}: ResumeQueueResponse (the body, if any, is ignored)
 * </ul>
 */
final class QueueRoutes {
  private final AdminServiceCalls calls;

  QueueRoutes(AdminServiceCalls calls) {
    this.calls = calls;
  }

  void addTo(Router router) {
    router
        .add("GET", "/v1/queues", this::list)
        .add("POST", "/v1/queues/{queue}:pause", this::pause)
        .add("POST", "/v1/queues/{queue}:resume", this::resume);
  }

  private void list(HttpCall call) throws IOException {
    call.query(Set.of()).check();
    call.respond(200, calls.listQueues(ListQueuesRequest.getDefaultInstance()));
  }

  private void pause(HttpCall call) throws IOException {
    call.query(Set.of()).check();
    call.respond(
        200, calls.pauseQueue(PauseQueueRequest.newBuilder().setQueue(call.pathParam()).build()));
  }

  private void resume(HttpCall call) throws IOException {
    call.query(Set.of()).check();
    call.respond(
        200, calls.resumeQueue(ResumeQueueRequest.newBuilder().setQueue(call.pathParam()).build()));
  }
}
