package io.antrean.coordinator.http;

import static io.antrean.coordinator.http.HttpApiFixture.details;
import static io.antrean.coordinator.http.HttpApiFixture.emailBody;
import static io.antrean.coordinator.http.HttpApiFixture.error;
import static io.antrean.coordinator.http.HttpApiFixture.parse;
import static org.assertj.core.api.Assertions.assertThat;

import io.antrean.proto.v1.EnqueueResponse;
import io.antrean.proto.v1.GetDeadLetterResponse;
import io.antrean.proto.v1.Job;
import io.antrean.proto.v1.JobState;
import io.antrean.proto.v1.ListDeadLettersResponse;
import io.antrean.proto.v1.PurgeDeadLettersResponse;
import io.antrean.proto.v1.RedriveDeadLettersResponse;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The dead-letter routes over real HTTP. */
@Timeout(30)
class HttpDeadLettersApiTest {
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
  void listFiltersByErrorAndTimeAndGetShowsTheHistory() throws Exception {
    long dead = deadLetter();
    Instant before = Instant.now().minusSeconds(60);

    ListDeadLettersResponse list =
        parse(
                api.get("/v1/dead-letters?error=RECIPIENT&failed_after=" + enc(before.toString()))
                    .body(),
                ListDeadLettersResponse.newBuilder())
            .build();
    assertThat(list.getJobsList()).extracting(Job::getId).containsExactly(dead);
    ListDeadLettersResponse none =
        parse(
                api.get("/v1/dead-letters?failed_before=" + enc(before.toString())).body(),
                ListDeadLettersResponse.newBuilder())
            .build();
    assertThat(none.getJobsList()).isEmpty();

    HttpResponse<String> one = api.get("/v1/dead-letters/" + dead);
    assertThat(one.statusCode()).isEqualTo(200);
    Job job = parse(one.body(), GetDeadLetterResponse.newBuilder()).getJob();
    assertThat(job.getState()).isEqualTo(JobState.JOB_STATE_FAILED);
    assertThat(job.getHistory(0).getErrorMessage()).isEqualTo("no recipient");
  }

  @Test
  void badTimeFilterIs422NamingTheParameter() throws Exception {
    assertThat(
            details(
                error(
                    api.get("/v1/dead-letters?failed_after=yesterday"), 422, "VALIDATION_FAILED")))
        .containsExactly("failed_after: must be an RFC 3339 time such as 2026-11-30T10:00:00Z");
  }

  @Test
  void jobThatIsNotDeadLetteredIs409AndUnknownIs404() throws Exception {
    HttpResponse<String> enqueued = api.post("/v1/jobs", emailBody(""));
    long id = parse(enqueued.body(), EnqueueResponse.newBuilder()).getJob().getId();

    error(api.get("/v1/dead-letters/" + id), 409, "NOT_DEAD_LETTERED");
    error(api.get("/v1/dead-letters/777"), 404, "JOB_NOT_FOUND");
  }

  @Test
  void redriveAndPurgeTakeTheirRequestBodies() throws Exception {
    long first = deadLetter();
    long second = deadLetter();

    HttpResponse<String> redrive =
        api.post(
            "/v1/dead-letters:redrive", "{\"ids\":[\"" + first + "\"],\"rate_per_second\":50}");
    assertThat(redrive.statusCode()).isEqualTo(200);
    assertThat(parse(redrive.body(), RedriveDeadLettersResponse.newBuilder()).getRedrivenIdsList())
        .containsExactly(first);

    HttpResponse<String> purge = api.post("/v1/dead-letters:purge", "{\"all\":true}");
    assertThat(purge.statusCode()).isEqualTo(200);
    assertThat(parse(purge.body(), PurgeDeadLettersResponse.newBuilder()).getPurged()).isEqualTo(1);
    error(api.get("/v1/dead-letters/" + second), 404, "JOB_NOT_FOUND");
  }

  @Test
  void redriveWithoutASelectionIs422AndWithABadBodyIs400() throws Exception {
    assertThat(details(error(api.post("/v1/dead-letters:redrive", "{}"), 422, "VALIDATION_FAILED")))
        .containsExactly("ids: give job ids, a filter, or all=true to select every dead letter");
    error(api.post("/v1/dead-letters:purge", "{\"all\":\"yes please\"}"), 400, "INVALID_JSON");
  }

  private long deadLetter() throws Exception {
    HttpResponse<String> r = api.post("/v1/jobs", emailBody(""));
    long id = parse(r.body(), EnqueueResponse.newBuilder()).getJob().getId();
    Job leased = api.lease(1).get(0);
    assertThat(leased.getId()).isEqualTo(id);
    api.failPermanently(leased);
    return id;
  }

  private static String enc(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8);
  }
}
