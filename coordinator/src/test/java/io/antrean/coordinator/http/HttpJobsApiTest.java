package io.antrean.coordinator.http;

import static io.antrean.coordinator.http.HttpApiFixture.details;
import static io.antrean.coordinator.http.HttpApiFixture.emailBody;
import static io.antrean.coordinator.http.HttpApiFixture.error;
import static io.antrean.coordinator.http.HttpApiFixture.parse;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Struct;
import io.antrean.proto.v1.CancelJobResponse;
import io.antrean.proto.v1.EnqueueResponse;
import io.antrean.proto.v1.GetJobResponse;
import io.antrean.proto.v1.GetStatsResponse;
import io.antrean.proto.v1.Job;
import io.antrean.proto.v1.JobState;
import io.antrean.proto.v1.ListJobsResponse;
import io.antrean.proto.v1.ListQueuesResponse;
import io.antrean.proto.v1.QueueStats;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The producer routes over real HTTP: status codes, headers and JSON bodies. */
@Timeout(30)
class HttpJobsApiTest {
  @TempDir Path dir;
  private HttpApiFixture api;

  @BeforeEach
  void start() throws Exception {
    api = new HttpApiFixture(dir);
  }

  @AfterEach
  void stop() {
    api.close();
  }

  @Test
  void enqueueAnswers201WithLocationAndTheStoredJob() throws Exception {
    HttpResponse<String> r = api.post("/v1/jobs", emailBody("\"priority\":7"));

    assertThat(r.statusCode()).isEqualTo(201);
    EnqueueResponse body = parse(r.body(), EnqueueResponse.newBuilder()).build();
    assertThat(r.headers().firstValue("Location")).hasValue("/v1/jobs/" + body.getJob().getId());
    assertThat(body.getDeduplicated()).isFalse();
    assertThat(body.getJob().getState()).isEqualTo(JobState.JOB_STATE_PENDING);
    assertThat(body.getJob().getPriority()).isEqualTo(7);
    assertThat(body.getJob().getPayload().toStringUtf8()).isEqualTo("{\"to\":\"a@example.com\"}");
    // Proto field names, zero values printed, int64 as strings.
    assertThat(r.body()).contains("\"run_at\":", "\"deduplicated\":false", "\"id\":\"");
  }

  @Test
  void deduplicatedEnqueueAnswers200WithTheExistingJob() throws Exception {
    String body = emailBody("\"idempotency_key\":\"order-1\"");
    HttpResponse<String> first = api.post("/v1/jobs", body);
    HttpResponse<String> again = api.post("/v1/jobs", body);

    assertThat(first.statusCode()).isEqualTo(201);
    assertThat(again.statusCode()).isEqualTo(200);
    assertThat(again.headers().firstValue("Location")).isEmpty();
    EnqueueResponse existing = parse(again.body(), EnqueueResponse.newBuilder()).build();
    assertThat(existing.getDeduplicated()).isTrue();
    assertThat(existing.getJob().getId())
        .isEqualTo(parse(first.body(), EnqueueResponse.newBuilder()).getJob().getId());
  }

  @Test
  void unknownJobTypeIs422WithTheFieldViolation() throws Exception {
    HttpResponse<String> r = api.post("/v1/jobs", "{\"type\":\"send-fax\"}");

    Struct error = error(r, 422, "VALIDATION_FAILED");
    assertThat(error.getFieldsMap()).containsOnlyKeys("code", "message", "details");
    assertThat(details(error)).containsExactly("type: unknown job type: send-fax");
  }

  @Test
  void bodyThatIsNotJsonIs400() throws Exception {
    Struct error = error(api.post("/v1/jobs", "type=email.send"), 400, "INVALID_JSON");
    assertThat(error.getFieldsMap()).containsOnlyKeys("code", "message");
    error(api.post("/v1/jobs", ""), 400, "INVALID_JSON");
    error(api.post("/v1/jobs", "[1,2]"), 400, "INVALID_JSON");
    // A value of the wrong kind is a field violation naming the field (issue F2, defect 7).
    assertThat(
            details(
                error(api.post("/v1/jobs", "{\"priority\":\"high\"}"), 422, "VALIDATION_FAILED")))
        .containsExactly("priority: must be an integer from -2147483648 to 2147483647");
  }

  @Test
  void unknownFieldIs400NamingTheField() throws Exception {
    Struct error =
        error(api.post("/v1/jobs", emailBody("\"colour\":\"red\"")), 400, "INVALID_JSON");
    assertThat(details(error)).containsExactly("colour: unknown field");
  }

  @Test
  void bodyOverTheLimitIs413() throws Exception {
    // The payload limit is 1 MiB: its base64 plus 64 KiB is the most a body may be.
    String huge = "{\"type\":\"email.send\",\"payload\":\"" + "A".repeat(1_500_000) + "\"}";
    error(api.post("/v1/jobs", huge), 413, "PAYLOAD_TOO_LARGE");
  }

  @Test
  void getAnswersTheJobWithItsHistory() throws Exception {
    long id = enqueue();
    Job leased = api.lease(1).get(0);
    api.complete(leased);

    HttpResponse<String> r = api.get("/v1/jobs/" + id);

    assertThat(r.statusCode()).isEqualTo(200);
    Job job = parse(r.body(), GetJobResponse.newBuilder()).getJob();
    assertThat(job.getState()).isEqualTo(JobState.JOB_STATE_SUCCEEDED);
    assertThat(job.getHistoryList()).hasSize(1);
  }

  @Test
  void unknownJobIs404() throws Exception {
    Struct error = error(api.get("/v1/jobs/999"), 404, "JOB_NOT_FOUND");
    assertThat(error.getFieldsMap()).containsOnlyKeys("code", "message");
  }

  @Test
  void idThatIsNotAPositiveNumberIs422() throws Exception {
    assertThat(details(error(api.get("/v1/jobs/abc"), 422, "VALIDATION_FAILED")))
        .containsExactly("id: must be a positive integer");
    assertThat(details(error(api.get("/v1/jobs/0"), 422, "VALIDATION_FAILED")))
        .containsExactly("id: must be a positive integer");
  }

  @Test
  void listFiltersByStateAndPages() throws Exception {
    long first = enqueue();
    long second = enqueue();
    long third = enqueue();
    api.complete(api.lease(1).get(0));

    ListJobsResponse pending =
        parse(api.get("/v1/jobs?state=pending&page_size=1").body(), ListJobsResponse.newBuilder())
            .build();
    assertThat(pending.getJobsList()).extracting(Job::getId).containsExactly(third);
    ListJobsResponse next =
        parse(
                api.get(
                        "/v1/jobs?state=PENDING&page_size=1&page_token="
                            + pending.getNextPageToken())
                    .body(),
                ListJobsResponse.newBuilder())
            .build();
    assertThat(next.getJobsList()).extracting(Job::getId).containsExactly(second);
    ListJobsResponse succeeded =
        parse(
                api.get("/v1/jobs?state=succeeded&queue=default").body(),
                ListJobsResponse.newBuilder())
            .build();
    assertThat(succeeded.getJobsList()).extracting(Job::getId).containsExactly(first);
  }

  @Test
  void badQueryParametersAre422NamingEachOne() throws Exception {
    Struct error =
        error(
            api.get("/v1/jobs?state=sleeping&page_size=ten&colour=red"), 422, "VALIDATION_FAILED");
    assertThat(details(error))
        .containsExactlyInAnyOrder(
            "colour: unknown parameter; accepted: created_after, created_before, error, key, order,"
                + " page_size, page_token, queue, state, type",
            "state: must be one of pending, running, succeeded, failed, cancelled",
            "page_size: must be an integer");
    assertThat(details(error(api.get("/v1/jobs?page_size=5000"), 422, "VALIDATION_FAILED")))
        .containsExactly("page_size: must be between 0 and 1000, got 5000");
    assertThat(details(error(api.get("/v1/jobs?order=random"), 422, "VALIDATION_FAILED")))
        .containsExactly("order: must be newest or oldest");
    assertThat(
            details(
                error(
                    api.get(
                        "/v1/jobs?created_after=2026-12-02T00:00:00Z"
                            + "&created_before=2026-12-01T00:00:00Z"),
                    422,
                    "VALIDATION_FAILED")))
        .containsExactly("created_before: must be after created_after");
  }

  @Test
  void listFiltersByErrorKeyAndTimeAndSortsOldestFirst() throws Exception {
    long keyed =
        enqueued(api.post("/v1/jobs", HttpApiFixture.emailBody("\"idempotency_key\":\"k-1\"")));
    long plain = enqueued(api.post("/v1/jobs", HttpApiFixture.emailBody("")));
    api.failPermanently(api.lease(1).get(0));

    assertThat(ids("/v1/jobs?error=RECIPIENT")).containsExactly(keyed);
    assertThat(ids("/v1/jobs?key=k-1")).containsExactly(keyed);
    assertThat(ids("/v1/jobs?order=oldest")).containsExactly(keyed, plain);
    assertThat(ids("/v1/jobs?order=newest")).containsExactly(plain, keyed);
    String hourAgo = java.time.Instant.now().minusSeconds(3600).toString();
    assertThat(ids("/v1/jobs?created_before=" + hourAgo)).isEmpty();
    assertThat(ids("/v1/jobs?created_after=" + hourAgo)).containsExactly(plain, keyed);
  }

  private List<Long> ids(String path) throws Exception {
    HttpResponse<String> r = api.get(path);
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    return parse(r.body(), ListJobsResponse.newBuilder()).build().getJobsList().stream()
        .map(Job::getId)
        .toList();
  }

  private static long enqueued(HttpResponse<String> r) throws Exception {
    assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
    return parse(r.body(), EnqueueResponse.newBuilder()).getJob().getId();
  }

  @Test
  void cancelAnswersTheCancelledJob() throws Exception {
    long id = enqueue();

    HttpResponse<String> r = api.post("/v1/jobs/" + id + ":cancel", "");

    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(parse(r.body(), CancelJobResponse.newBuilder()).getJob().getState())
        .isEqualTo(JobState.JOB_STATE_CANCELLED);
  }

  @Test
  void cancellingAFinishedJobIs409JobFinished() throws Exception {
    long id = enqueue();
    api.complete(api.lease(1).get(0));

    error(api.post("/v1/jobs/" + id + ":cancel", ""), 409, "JOB_FINISHED");
  }

  @Test
  void cancellingACancelledJobAgainIs409JobFinished() throws Exception {
    long id = enqueue();
    assertThat(api.post("/v1/jobs/" + id + ":cancel", "").statusCode()).isEqualTo(200);

    error(api.post("/v1/jobs/" + id + ":cancel", ""), 409, "JOB_FINISHED");
  }

  @Test
  void reusedIdempotencyKeyWithAnotherPayloadIs409() throws Exception {
    api.post("/v1/jobs", emailBody("\"idempotency_key\":\"k\""));
    String other =
        "{\"type\":\"email.send\",\"idempotency_key\":\"k\",\"payload\":\""
            + HttpApiFixture.base64("{\"to\":\"b@example.com\"}")
            + "\"}";

    error(api.post("/v1/jobs", other), 409, "IDEMPOTENCY_KEY_CONFLICT");
  }

  @Test
  void statsAndQueuesAnswerCountsPerQueue() throws Exception {
    enqueue();
    api.post("/v1/jobs", emailBody("\"queue\":\"bulk\""));

    GetStatsResponse stats =
        parse(api.get("/v1/stats?queue=bulk").body(), GetStatsResponse.newBuilder()).build();
    assertThat(stats.getQueuesList()).extracting(QueueStats::getQueue).containsExactly("bulk");
    assertThat(stats.hasAsOf()).isTrue();

    HttpResponse<String> queues = api.get("/v1/queues");
    assertThat(queues.statusCode()).isEqualTo(200);
    ListQueuesResponse all = parse(queues.body(), ListQueuesResponse.newBuilder()).build();
    assertThat(all.getQueuesList())
        .extracting(q -> q.getName() + "=" + q.getStats().getPending())
        .containsExactly("bulk=1", "default=1");
  }

  @Test
  void statsOfUnfinishedJobsOnlyLeaveTheFinishedOut() throws Exception {
    api.post("/v1/jobs", emailBody("\"queue\":\"bulk\""));
    HttpResponse<String> second = api.post("/v1/jobs", emailBody("\"queue\":\"bulk\""));
    long cancelled = parse(second.body(), EnqueueResponse.newBuilder()).getJob().getId();
    assertThat(api.post("/v1/jobs/" + cancelled + ":cancel", "").statusCode()).isEqualTo(200);

    QueueStats all =
        parse(api.get("/v1/stats?queue=bulk").body(), GetStatsResponse.newBuilder()).getQueues(0);
    GetStatsResponse unfinishedStats =
        parse(
                api.get("/v1/stats?queue=bulk&unfinished_only=TRUE").body(),
                GetStatsResponse.newBuilder())
            .build();
    QueueStats unfinished = unfinishedStats.getQueues(0);
    assertThat(unfinishedStats.hasDeadLetterWindow()).isFalse();

    assertThat(List.of(all.getPending(), all.getCancelled())).containsExactly(1L, 1L);
    assertThat(List.of(unfinished.getPending(), unfinished.getCancelled())).containsExactly(1L, 0L);
    assertThat(details(error(api.get("/v1/stats?unfinished_only=yes"), 422, "VALIDATION_FAILED")))
        .containsExactly("unfinished_only: must be true or false");
  }

  @Test
  void unsupportedMethodOnAKnownPathIs405WithAllow() throws Exception {
    HttpResponse<String> r = api.send("DELETE", "/v1/jobs", "");
    error(r, 405, "METHOD_NOT_ALLOWED");
    assertThat(r.headers().firstValue("Allow")).hasValue("POST, GET, HEAD");

    HttpResponse<String> cancel =
        api.send(HttpRequest.newBuilder(api.uri("/v1/jobs/1:cancel")).GET());
    error(cancel, 405, "METHOD_NOT_ALLOWED");
    assertThat(cancel.headers().firstValue("Allow")).hasValue("POST");
  }

  private long enqueue() throws Exception {
    HttpResponse<String> r = api.post("/v1/jobs", emailBody(""));
    assertThat(r.statusCode()).isEqualTo(201);
    return parse(r.body(), EnqueueResponse.newBuilder()).getJob().getId();
  }
}
