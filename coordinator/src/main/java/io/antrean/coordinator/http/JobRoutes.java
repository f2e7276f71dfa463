package io.antrean.coordinator.http;

import io.antrean.coordinator.grpc.JobServiceCalls;
import io.antrean.proto.v1.CancelJobRequest;
import io.antrean.proto.v1.EnqueueRequest;
import io.antrean.proto.v1.EnqueueResponse;
import io.antrean.proto.v1.GetJobRequest;
import io.antrean.proto.v1.GetStatsRequest;
import io.antrean.proto.v1.ListJobsRequest;
import java.io.IOException;
import java.util.Set;

/**
 * The producer routes, each answered by one {@link JobServiceCalls} call with the same request and
 * response messages as the gRPC JobService:
 *
 * <ul>
 *   <li>{@code POST /v1/jobs}: body EnqueueRequest; 201 with {@code Location: /v1/jobs/{id}} and
 *       the EnqueueResponse, or 200 with the existing job when the idempotency key deduplicated it
 *   <li>{@code GET /v1/jobs?queue=&type=&state=&page_size=&page_token=}: ListJobsResponse
 *   <li>{@code GET /v1/jobs/{id}}: GetJobResponse, the job with its attempt history
 *   <li>{@code POST /v1/jobs/{id}:cancel}: CancelJobResponse (the body, if any, is ignored)
 *   <li>{@code GET /v1/stats?queue=}: GetStatsResponse
 * </ul>
 */
final class JobRoutes {
  private static final Set<String> LIST_PARAMS =
      Set.of("queue", "type", "state", "page_size", "page_token");

  private final JobServiceCalls calls;

  JobRoutes(JobServiceCalls calls) {
    this.calls = calls;
  }

  void addTo(Router router) {
    router
        .add("POST", "/v1/jobs", this::enqueue)
        .add("GET", "/v1/jobs", this::list)
        .add("GET", "/v1/jobs/{id}", this::get)
        .add("POST", "/v1/jobs/{id}:cancel", this::cancel)
        .add("GET", "/v1/stats", this::stats);
  }

  private void enqueue(HttpCall call) throws IOException {
    call.query(Set.of()).check();
    EnqueueResponse response = calls.enqueue(call.json(EnqueueRequest.newBuilder()).build());
    if (response.getDeduplicated()) {
      call.respond(200, response);
    } else {
      call.created("/v1/jobs/" + response.getJob().getId(), response);
    }
  }

  private void list(HttpCall call) throws IOException {
    QueryParams q = call.query(LIST_PARAMS);
    ListJobsRequest request =
        ListJobsRequest.newBuilder()
            .setQueue(q.text("queue"))
            .setType(q.text("type"))
            .setState(q.state("state"))
            .setPageSize(q.integer("page_size"))
            .setPageToken(q.text("page_token"))
            .build();
    call.respond(200, q.checkedWith(() -> calls.listJobs(request)));
  }

  private void get(HttpCall call) throws IOException {
    call.query(Set.of()).check();
    call.respond(200, calls.getJob(GetJobRequest.newBuilder().setId(call.idParam()).build()));
  }

  private void cancel(HttpCall call) throws IOException {
    call.query(Set.of()).check();
    call.respond(200, calls.cancelJob(CancelJobRequest.newBuilder().setId(call.idParam()).build()));
  }

  private void stats(HttpCall call) throws IOException {
    QueryParams q = call.query(Set.of("queue"));
    GetStatsRequest request = GetStatsRequest.newBuilder().setQueue(q.text("queue")).build();
    call.respond(200, q.checkedWith(() -> calls.getStats(request)));
  }
}
