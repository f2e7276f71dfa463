package io.antrean.coordinator.http;

import com.google.protobuf.Timestamp;
import io.antrean.coordinator.api.JobServiceCalls;
import io.antrean.proto.v1.CancelJobRequest;
import io.antrean.proto.v1.EnqueueRequest;
import io.antrean.proto.v1.EnqueueResponse;
import io.antrean.proto.v1.GetJobRequest;
import io.antrean.proto.v1.GetStatsRequest;
import io.antrean.proto.v1.ListDependenciesRequest;
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
 *   <li>{@code GET /v1/jobs?queue=&type=&state=&error=&created_after=&created_before=&key=
 *       &order=newest|oldest&page_size=&page_token=} (times in RFC 3339, {@code key} the
 *       idempotency key): ListJobsResponse
 *   <li>{@code GET /v1/jobs/{id}}: GetJobResponse, the job with its attempt history
 *   <li>{@code GET /v1/jobs/{id}/dependencies}: ListDependenciesResponse, the jobs it depends on
 *       with their states and results
 *   <li>{@code POST /v1/jobs/{id}:cancel}: CancelJobResponse (the body, if any, is ignored)
 *   <li>{@code GET /v1/stats?queue=&unfinished_only=true|false}: GetStatsResponse
 * </ul>
 */
final class JobRoutes {
  private static final Set<String> LIST_PARAMS =
      Set.of(
          "queue",
          "type",
          "state",
          "error",
          "created_after",
          "created_before",
          "key",
          "order",
          "page_size",
          "page_token");

  private final JobServiceCalls calls;

  JobRoutes(JobServiceCalls calls) {
    this.calls = calls;
  }

  void addTo(Router router) {
    router
        .add("POST", "/v1/jobs", this::enqueue)
        .add("GET", "/v1/jobs", this::list)
        .add("GET", "/v1/jobs/{id}", this::get)
        .add("GET", "/v1/jobs/{id}/dependencies", this::dependencies)
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
    ListJobsRequest.Builder request =
        ListJobsRequest.newBuilder()
            .setQueue(q.text("queue"))
            .setType(q.text("type"))
            .setState(q.state("state"))
            .setErrorContains(q.text("error"))
            .setIdempotencyKey(q.text("key"))
            .setOldestFirst(oldestFirst(q))
            .setPageSize(q.integer("page_size"))
            .setPageToken(q.text("page_token"));
    Timestamp after = q.timestamp("created_after");
    if (after != null) {
      request.setCreatedAfter(after);
    }
    Timestamp before = q.timestamp("created_before");
    if (before != null) {
      request.setCreatedBefore(before);
    }
    call.respond(200, q.checkedWith(() -> calls.listJobs(request.build())));
  }

  /** {@code order=oldest} or {@code newest} (the default). */
  private static boolean oldestFirst(QueryParams q) {
    String order = q.text("order");
    if (!order.isEmpty() && !order.equals("oldest") && !order.equals("newest")) {
      q.invalid("order", "must be newest or oldest");
    }
    return order.equals("oldest");
  }

  private void get(HttpCall call) throws IOException {
    call.query(Set.of()).check();
    call.respond(200, calls.getJob(GetJobRequest.newBuilder().setId(call.idParam()).build()));
  }

  private void dependencies(HttpCall call) throws IOException {
    call.query(Set.of()).check();
    call.respond(
        200,
        calls.listDependencies(ListDependenciesRequest.newBuilder().setId(call.idParam()).build()));
  }

  private void cancel(HttpCall call) throws IOException {
    call.query(Set.of()).check();
    call.respond(200, calls.cancelJob(CancelJobRequest.newBuilder().setId(call.idParam()).build()));
  }

  private void stats(HttpCall call) throws IOException {
    QueryParams q = call.query(Set.of("queue", "unfinished_only"));
    GetStatsRequest request =
        GetStatsRequest.newBuilder()
            .setQueue(q.text("queue"))
            .setUnfinishedOnly(q.flag("unfinished_only"))
            .build();
    call.respond(200, q.checkedWith(() -> calls.getStats(request)));
  }
}
