package io.antrean.coordinator.http;

import static io.antrean.coordinator.http.HttpApiFixture.details;
import static io.antrean.coordinator.http.HttpApiFixture.emailBody;
import static io.antrean.coordinator.http.HttpApiFixture.error;
import static io.antrean.coordinator.http.HttpApiFixture.parse;
import static org.assertj.core.api.Assertions.assertThat;

import io.antrean.proto.v1.Job;
import io.antrean.proto.v1.ListQueuesResponse;
import io.antrean.proto.v1.PauseQueueResponse;
import io.antrean.proto.v1.QueueInfo;
import io.antrean.proto.v1.ResumeQueueResponse;
import io.antrean.proto.v1.SetQueueLimitsResponse;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The queue-control routes over real HTTP. */
@Timeout(30)
class HttpQueuesApiTest {
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
  void pauseStopsLeasesAndResumeRestartsThem() throws Exception {
    assertThat(api.post("/v1/jobs", emailBody("")).statusCode()).isEqualTo(201);

    HttpResponse<String> pause = api.post("/v1/queues/default:pause", "");

    assertThat(pause.statusCode()).as(pause.body()).isEqualTo(200);
    PauseQueueResponse paused = parse(pause.body(), PauseQueueResponse.newBuilder()).build();
    assertThat(paused.getQueue().getName()).isEqualTo("default");
    assertThat(paused.getQueue().getPaused()).isTrue();
    assertThat(paused.getQueue().getStats().getPending()).isEqualTo(1);
    assertThat(api.lease(10)).isEmpty();

    HttpResponse<String> resume = api.post("/v1/queues/default:resume", "");

    assertThat(resume.statusCode()).as(resume.body()).isEqualTo(200);
    assertThat(
            parse(resume.body(), ResumeQueueResponse.newBuilder()).build().getQueue().getPaused())
        .isFalse();
    assertThat(api.lease(10)).hasSize(1);
  }

  @Test
  void queuesListsPauseStateAndCounts() throws Exception {
    api.post("/v1/jobs", emailBody("\"queue\":\"bulk\""));
    api.post("/v1/queues/reports:pause", "");

    HttpResponse<String> r = api.get("/v1/queues");

    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(parse(r.body(), ListQueuesResponse.newBuilder()).build().getQueuesList())
        .extracting(q -> q.getName() + " " + q.getPaused() + " " + q.getStats().getPending())
        .containsExactly("bulk false 1", "reports true 0");
  }

  @Test
  void limitsRouteSetsPerKeyCapThatLeasesHonourAndClearsIt() throws Exception {
    for (int i = 0; i < 3; i++) {
      String key = i < 2 ? "tenant-a" : "tenant-b";
      HttpResponse<String> enqueued =
          api.post("/v1/jobs", emailBody("\"concurrencyKey\":\"" + key + "\""));
      assertThat(enqueued.statusCode()).as(enqueued.body()).isEqualTo(201);
    }

    // The body's queue, if any, is replaced by the path's.
    HttpResponse<String> set =
        api.post(
            "/v1/queues/default:limits",
            "{\"queue\":\"other\",\"maxRunningPerKey\":1,"
                + "\"ratePerKey\":{\"starts\":100,\"interval\":\"1s\"}}");

    assertThat(set.statusCode()).as(set.body()).isEqualTo(200);
    QueueInfo limited = parse(set.body(), SetQueueLimitsResponse.newBuilder()).build().getQueue();
    assertThat(limited.getName()).isEqualTo("default");
    assertThat(limited.getLimits().getMaxRunningPerKey()).isEqualTo(1);
    assertThat(limited.getLimits().getMaxRunning()).isZero();
    assertThat(limited.getLimits().getRatePerKey().getStarts()).isEqualTo(100);
    assertThat(limited.getLimits().getRatePerKey().getInterval().getSeconds()).isEqualTo(1);
    List<Job> leased = api.lease(10);
    assertThat(leased).extracting(Job::getConcurrencyKey).containsExactly("tenant-a", "tenant-b");
    assertThat(
            parse(api.get("/v1/queues").body(), ListQueuesResponse.newBuilder())
                .build()
                .getQueues(0)
                .getLimits()
                .getMaxRunningPerKey())
        .isEqualTo(1);

    HttpResponse<String> cleared = api.post("/v1/queues/default:limits", "{}");

    assertThat(cleared.statusCode()).as(cleared.body()).isEqualTo(200);
    assertThat(
            parse(cleared.body(), SetQueueLimitsResponse.newBuilder())
                .build()
                .getQueue()
                .hasLimits())
        .isFalse();
    assertThat(api.lease(10)).extracting(Job::getConcurrencyKey).containsExactly("tenant-a");
  }

  @Test
  void badLimitsAre422NamingTheirFields() throws Exception {
    HttpResponse<String> r =
        api.post(
            "/v1/queues/default:limits",
            "{\"maxRunning\":-1,\"rate\":{\"starts\":0,\"interval\":\"1s\"}}");

    assertThat(details(error(r, 422, "VALIDATION_FAILED")))
        .anySatisfy(d -> assertThat(d).startsWith("max_running"))
        .anySatisfy(d -> assertThat(d).startsWith("rate.starts"));
    assertThat(
            details(error(api.post("/v1/queues/bad!name:limits", "{}"), 422, "VALIDATION_FAILED")))
        .singleElement()
        .asString()
        .startsWith("queue: ");
    assertThat(
            details(
                error(
                    api.post("/v1/queues/default:limits", "{\"maxRunning\":\"many\"}"),
                    422,
                    "VALIDATION_FAILED")))
        .singleElement()
        .asString()
        .startsWith("max_running: ");
    error(api.get("/v1/queues/default:limits"), 405, "METHOD_NOT_ALLOWED");
  }

  @Test
  void getOnPauseIs405WithAllow() throws Exception {
    HttpResponse<String> r = api.get("/v1/queues/default:pause");

    error(r, 405, "METHOD_NOT_ALLOWED");
    assertThat(r.headers().firstValue("Allow")).hasValue("POST");
    assertThat(api.send("DELETE", "/v1/queues", "").headers().firstValue("Allow"))
        .hasValue("GET, HEAD");
  }

  @Test
  void badQueueNameIs422NamingTheQueue() throws Exception {
    assertThat(details(error(api.post("/v1/queues/bad!name:pause", ""), 422, "VALIDATION_FAILED")))
        .singleElement()
        .asString()
        .startsWith("queue: ");
    error(api.post("/v1/queues/bad!name:resume", ""), 422, "VALIDATION_FAILED");
  }
}
