package io.antrean.coordinator.http;

import com.google.protobuf.Timestamp;
import io.antrean.coordinator.api.AdminServiceCalls;
import io.antrean.proto.v1.DeadLetterFilter;
import io.antrean.proto.v1.GetDeadLetterRequest;
import io.antrean.proto.v1.ListDeadLettersRequest;
import io.antrean.proto.v1.PurgeDeadLettersRequest;
import io.antrean.proto.v1.RedriveDeadLettersRequest;
import java.io.IOException;
import java.util.Set;

/**
 * The dead-letter routes, each answered by one {@link AdminServiceCalls} call with the same request
 * and response messages as the gRPC AdminService:
 *
 * <ul>
 *   <li>{@code GET /v1/dead-letters?queue=&type=&error=&failed_after=&failed_before=&page_size=
 *       &page_token=} (times in RFC 3339): ListDeadLettersResponse
 *   <li>{@code GET /v1/dead-letters/{id}}: GetDeadLetterResponse, with the attempt history
 *   <li>{@code POST /v1/dead-letters:redrive}: body RedriveDeadLettersRequest
 *   <li>{@code POST /v1/dead-letters:purge}: body PurgeDeadLettersRequest
 * </ul>
 */
final class DeadLetterRoutes {
  private static final Set<String> LIST_PARAMS =
      Set.of("queue", "type", "error", "failed_after", "failed_before", "page_size", "page_token");

  private final AdminServiceCalls calls;

  DeadLetterRoutes(AdminServiceCalls calls) {
    this.calls = calls;
  }

  void addTo(Router router) {
    router
        .add("GET", "/v1/dead-letters", this::list)
        .add("GET", "/v1/dead-letters/{id}", this::get)
        .add("POST", "/v1/dead-letters:redrive", this::redrive)
        .add("POST", "/v1/dead-letters:purge", this::purge);
  }

  private void list(HttpCall call) throws IOException {
    QueryParams q = call.query(LIST_PARAMS);
    DeadLetterFilter.Builder filter =
        DeadLetterFilter.newBuilder()
            .setQueue(q.text("queue"))
            .setType(q.text("type"))
            .setErrorContains(q.text("error"));
    Timestamp after = q.timestamp("failed_after");
    if (after != null) {
      filter.setFailedAfter(after);
    }
    Timestamp before = q.timestamp("failed_before");
    if (before != null) {
      filter.setFailedBefore(before);
    }
    ListDeadLettersRequest request =
        ListDeadLettersRequest.newBuilder()
            .setFilter(filter)
            .setPageSize(q.integer("page_size"))
            .setPageToken(q.text("page_token"))
            .build();
    call.respond(200, q.checkedWith(() -> calls.listDeadLetters(request)));
  }

  private void get(HttpCall call) throws IOException {
    call.query(Set.of()).check();
    call.respond(
        200, calls.getDeadLetter(GetDeadLetterRequest.newBuilder().setId(call.idParam()).build()));
  }

  private void redrive(HttpCall call) throws IOException {
    call.query(Set.of()).check();
    call.respond(
        200, calls.redriveDeadLetters(call.json(RedriveDeadLettersRequest.newBuilder()).build()));
  }

  private void purge(HttpCall call) throws IOException {
    call.query(Set.of()).check();
    call.respond(
        200, calls.purgeDeadLetters(call.json(PurgeDeadLettersRequest.newBuilder()).build()));
  }
}
