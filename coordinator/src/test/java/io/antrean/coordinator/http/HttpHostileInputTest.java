package io.antrean.coordinator.http;

import static io.antrean.coordinator.http.HttpApiFixture.details;
import static io.antrean.coordinator.http.HttpApiFixture.emailBody;
import static io.antrean.coordinator.http.HttpApiFixture.error;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue F2 defects 1, 2 and 7 over HTTP: out-of-range and malformed values are 422 naming the
 * field, nothing unreadable is stored, bad query parameters come in one answer, HEAD works where
 * GET does.
 */
@Timeout(60)
class HttpHostileInputTest {
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

  private List<String> fieldsOf422(HttpResponse<String> response) throws Exception {
    return details(error(response, 422, "VALIDATION_FAILED")).stream()
        .map(d -> d.substring(0, d.indexOf(':')))
        .toList();
  }

  @Test
  void aDelayTooLongToPrintIsRejectedAndTheListStaysReadable() throws Exception {
    assertThat(fieldsOf422(api.post("/v1/jobs", emailBody("\"delay\":\"315576000000s\""))))
        .containsExactly("delay");
    assertThat(fieldsOf422(api.post("/v1/jobs", emailBody("\"delay\":\"315576000001s\""))))
        .containsExactly("delay");
    assertThat(api.get("/v1/jobs?queue=default").statusCode()).isEqualTo(200);
    assertThat(api.get("/v1/jobs/1").statusCode()).isEqualTo(404);
  }

  @Test
  void runAtIsParsedStrictlyAndMustLieNearNow() throws Exception {
    for (String runAt :
        List.of(
            "2026-13-45T99:00:00Z",
            "2026-02-30T10:00:00Z",
            "0001-01-01T00:00:00Z",
            "9999-12-31T23:59:59Z",
            "10000-01-01T00:00:00Z",
            "yesterday")) {
      assertThat(fieldsOf422(api.post("/v1/jobs", emailBody("\"run_at\":\"" + runAt + "\""))))
          .as(runAt)
          .containsExactly("run_at");
    }
    assertThat(api.get("/v1/jobs?queue=default").body()).doesNotContain("\"id\"");
  }

  @Test
  void malformedValuesAreNamedByTheirField() throws Exception {
    String body =
        "{\"type\":\"email.send\",\"payload\":\"not base64!\",\"priority\":99999999999,"
            + "\"retry_policy\":{\"max_attempts\":1.5,\"initial_backoff\":\"soon\"}}";
    assertThat(fieldsOf422(api.post("/v1/jobs", body)))
        .containsExactlyInAnyOrder(
            "payload", "priority", "retry_policy.max_attempts", "retry_policy.initial_backoff");
    String purge = "{\"filter\":{\"failed_after\":\"2026-13-45T99:00:00Z\"},\"ids\":[\"x\"]}";
    assertThat(fieldsOf422(api.post("/v1/dead-letters:purge", purge)))
        .containsExactlyInAnyOrder("filter.failed_after", "ids[0]");
  }

  @Test
  void everyBadQueryParameterIsReportedInOneAnswer() throws Exception {
    assertThat(fieldsOf422(api.get("/v1/jobs?state=bogus&page_size=5000&color=red")))
        .containsExactlyInAnyOrder("state", "page_size", "color");
    assertThat(
            fieldsOf422(
                api.get(
                    "/v1/dead-letters?failed_after=2026-13-45T99:00:00Z&page_size=x&page_token=%21")))
        .contains("failed_after", "page_size");
  }

  @Test
  void headIsServedWhereverGetIs() throws Exception {
    for (String path : List.of("/healthz", "/readyz", "/metrics", "/v1/jobs", "/v1/stats", "/")) {
      HttpResponse<String> head =
          api.send(
              HttpRequest.newBuilder(api.uri(path))
                  .method("HEAD", HttpRequest.BodyPublishers.noBody()));
      assertThat(head.statusCode()).as(path).isEqualTo(200);
      assertThat(head.body()).as(path).isEmpty();
    }
    HttpResponse<String> notAllowed = api.send("DELETE", "/healthz", "");
    error(notAllowed, 405, "METHOD_NOT_ALLOWED");
    assertThat(notAllowed.headers().firstValue("Allow")).hasValue("GET, HEAD");
    HttpResponse<String> headOfPost =
        api.send(
            HttpRequest.newBuilder(api.uri("/v1/dead-letters:purge"))
                .method("HEAD", HttpRequest.BodyPublishers.noBody()));
    assertThat(headOfPost.statusCode()).isEqualTo(405);
  }
}
