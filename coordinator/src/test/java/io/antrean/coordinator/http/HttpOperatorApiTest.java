package io.antrean.coordinator.http;

import static io.antrean.coordinator.http.HttpApiFixture.details;
import static io.antrean.coordinator.http.HttpApiFixture.error;
import static io.antrean.coordinator.http.HttpApiFixture.parse;
import static org.assertj.core.api.Assertions.assertThat;

import io.antrean.proto.v1.GetQueueRatesResponse;
import io.antrean.proto.v1.ListWorkersResponse;
import io.antrean.proto.v1.RateMinute;
import io.antrean.proto.v1.WorkerLiveness;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** GET /v1/workers and GET /v1/rates. */
@Timeout(30)
class HttpOperatorApiTest {
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
  void workersListsTheWorkerThatLeased() throws Exception {
    api.post("/v1/jobs", HttpApiFixture.emailBody(""));
    api.lease(1);

    HttpResponse<String> r = api.get("/v1/workers");
    assertThat(r.statusCode()).isEqualTo(200);
    ListWorkersResponse workers = parse(r.body(), ListWorkersResponse.newBuilder()).build();
    assertThat(workers.getWorkersList())
        .singleElement()
        .satisfies(
            w -> {
              assertThat(w.getWorkerId()).isEqualTo("w1");
              assertThat(w.getJobsHeld()).isEqualTo(1);
              assertThat(w.getLiveness()).isEqualTo(WorkerLiveness.WORKER_LIVENESS_LIVE);
              assertThat(w.getInfo().getQueuesList()).containsExactly("default");
            });
  }

  @Test
  void ratesCountEnqueuedJobsPerQueue() throws Exception {
    api.post("/v1/jobs", HttpApiFixture.emailBody(""));

    HttpResponse<String> r = api.get("/v1/rates?queue=default");
    assertThat(r.statusCode()).isEqualTo(200);
    GetQueueRatesResponse rates = parse(r.body(), GetQueueRatesResponse.newBuilder()).build();
    assertThat(
            rates.getQueues(0).getMinutesList().stream().mapToLong(RateMinute::getEnqueued).sum())
        .isEqualTo(1);
  }

  @Test
  void badQueueOrUnknownParameterIs4xxNamingIt() throws Exception {
    assertThat(details(error(api.get("/v1/rates?queue=a%20b"), 422, "VALIDATION_FAILED")))
        .singleElement()
        .satisfies(d -> assertThat(d).startsWith("queue: "));
    assertThat(api.get("/v1/workers?x=1").statusCode()).isEqualTo(422);
  }

  @Test
  void theDashboardUrlNamesAnAddressABrowserCanOpen() {
    assertThat(HttpApiServer.dashboardUrl("127.0.0.1", 7401)).isEqualTo("http://127.0.0.1:7401/");
    assertThat(HttpApiServer.dashboardUrl("0.0.0.0", 7401)).isEqualTo("http://localhost:7401/");
    assertThat(HttpApiServer.dashboardUrl("::1", 80)).isEqualTo("http://[::1]:80/");
  }
}
