package io.antrean.coordinator.metrics;

import static io.antrean.coordinator.http.HttpApiFixture.emailBody;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.antrean.coordinator.grpc.TestWorkStream;
import io.antrean.coordinator.http.HttpApiFixture;
import io.antrean.proto.v1.CompleteBatchRequest;
import io.antrean.proto.v1.CompleteItem;
import io.antrean.proto.v1.CompleteRequest;
import io.antrean.proto.v1.Job;
import io.antrean.proto.v1.LeaseRequest;
import io.antrean.proto.v1.WorkRequest;
import io.grpc.StatusRuntimeException;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code /metrics} scraped over HTTP and parsed as Prometheus text after real traffic. */
@Timeout(30)
class MetricsEndpointTest {
  private static final String Q = "default";

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
  void countersGaugesAndHistogramsMatchTheJobsRun() throws Exception {
    for (int i = 0; i < 5; i++) {
      assertThat(api.post("/v1/jobs", emailBody("\"idempotency_key\":\"k" + i + "\"")).statusCode())
          .isEqualTo(201);
    }
    assertThat(api.post("/v1/jobs", emailBody("\"idempotency_key\":\"k0\"")).statusCode())
        .isEqualTo(200);
    List<Job> leased = api.lease(5);
    assertThat(leased).hasSize(5);
    leased.subList(0, 3).forEach(api::complete);
    leased.subList(3, 5).forEach(api::failPermanently);

    PrometheusText m = scrape();

    assertThat(m.type("antrean_jobs_enqueued_total")).isEqualTo("counter");
    assertThat(m.value("antrean_jobs_enqueued_total", "queue", Q)).isEqualTo(5);
    assertThat(m.value("antrean_jobs_leased_total", "queue", Q)).isEqualTo(5);
    assertThat(m.value("antrean_jobs_completed_total", "queue", Q)).isEqualTo(3);
    assertThat(m.value("antrean_jobs_failed_total", "queue", Q, "kind", "permanent")).isEqualTo(2);
    assertThat(m.value("antrean_jobs_failed_total", "queue", Q, "kind", "retryable")).isEqualTo(0);
    assertThat(m.value("antrean_jobs_dead_lettered_total", "queue", Q)).isEqualTo(2);
    assertThat(m.value("antrean_stale_completions_rejected_total")).isEqualTo(0);
    assertThat(m.value("antrean_leases_expired_total", "path", "timer")).isEqualTo(0);
    assertThat(m.value("antrean_leases_expired_total", "path", "sweep")).isEqualTo(0);

    assertThat(m.type("antrean_queue_depth")).isEqualTo("gauge");
    assertThat(m.value("antrean_queue_depth", "queue", Q, "state", "succeeded")).isEqualTo(3);
    assertThat(m.value("antrean_queue_depth", "queue", Q, "state", "failed")).isEqualTo(2);
    assertThat(m.value("antrean_queue_depth", "queue", Q, "state", "pending")).isEqualTo(0);
    assertThat(m.value("antrean_queue_depth", "queue", Q, "state", "running")).isEqualTo(0);
    assertThat(m.value("antrean_dead_letter_depth", "queue", Q)).isEqualTo(2);
    assertThat(m.value("antrean_oldest_pending_age_seconds", "queue", Q)).isEqualTo(0);

    assertThat(m.type("antrean_enqueue_to_start_seconds")).isEqualTo("histogram");
    assertThat(m.value("antrean_enqueue_to_start_seconds_count", "queue", Q)).isEqualTo(5);
    assertThat(m.value("antrean_enqueue_to_start_seconds_bucket", "queue", Q, "le", "+Inf"))
        .isEqualTo(5);
    assertThat(m.value("antrean_job_run_seconds_count", "queue", Q, "outcome", "succeeded"))
        .isEqualTo(3);
    assertThat(m.value("antrean_job_run_seconds_count", "queue", Q, "outcome", "failed_permanent"))
        .isEqualTo(2);

    assertThat(rpcCount(m, "antrean.v1.WorkerService/Lease", "OK")).isEqualTo(1);
    assertThat(rpcCount(m, "antrean.v1.WorkerService/Complete", "OK")).isEqualTo(3);
    assertThat(rpcCount(m, "antrean.v1.WorkerService/Fail", "OK")).isEqualTo(2);
    assertThat(rpcCount(m, "POST /v1/jobs", "201")).isEqualTo(5);
    assertThat(rpcCount(m, "POST /v1/jobs", "200")).isEqualTo(1);
  }

  @Test
  void staleCompletionIsCountedAndTimedWithItsCode() throws Exception {
    api.post("/v1/jobs", emailBody(""));
    Job job = api.lease(1).get(0);
    CompleteRequest stale =
        CompleteRequest.newBuilder()
            .setJobId(job.getId())
            .setFencingToken(job.getLease().getFencingToken() + 1)
            .setWorkerId("w1")
            .build();
    assertThatThrownBy(() -> api.workers.complete(stale))
        .isInstanceOf(StatusRuntimeException.class);
    api.get("/v1/nowhere");

    PrometheusText m = scrape();

    assertThat(m.value("antrean_stale_completions_rejected_total")).isEqualTo(1);
    assertThat(rpcCount(m, "antrean.v1.WorkerService/Complete", "FAILED_PRECONDITION"))
        .isEqualTo(1);
    assertThat(rpcCount(m, "unmatched", "404")).isEqualTo(1);
  }

  @Test
  void expiredLeaseIsCountedOnTheTimerPath() throws Exception {
    api.post("/v1/jobs", emailBody(""));
    api.workers.lease(
        LeaseRequest.newBuilder()
            .setWorkerId("w1")
            .setLeaseTtl(com.google.protobuf.Duration.newBuilder().setNanos(200_000_000))
            .build());

    Double expired =
        Awaitility.await("lease expired by its timer")
            .atMost(Duration.ofSeconds(10))
            .pollInterval(Duration.ofMillis(50))
            .until(
                () -> scrape().value("antrean_leases_expired_total", "path", "timer"),
                v -> v != null && v > 0);

    assertThat(expired).isEqualTo(1);
    assertThat(scrape().value("antrean_jobs_leased_total", "queue", Q)).isEqualTo(1);
  }

  @Test
  void theRequestsOfAWorkStreamAreTimedAsTheCallsTheyStandFor() throws Exception {
    api.post("/v1/jobs", emailBody(""));
    TestWorkStream stream = new TestWorkStream(api.workers.getChannel());
    stream.lease(1, LeaseRequest.newBuilder().setWorkerId("w1").setWait(TestWorkStream.NO_WAIT));
    Job job = stream.next().getLease().getJobs(0);
    stream.requests.onNext(
        WorkRequest.newBuilder()
            .setRequestId(2)
            .setCompleteBatch(
                CompleteBatchRequest.newBuilder()
                    .setWorkerId("w1")
                    .addItems(
                        CompleteItem.newBuilder()
                            .setJobId(job.getId())
                            .setFencingToken(job.getLease().getFencingToken())
                            .setLeaseId(job.getLease().getLeaseId())))
            .build());
    stream.completeBatch(3);
    assertThat(stream.next().getRequestId()).isEqualTo(2);
    assertThat(stream.next().getRequestId()).isEqualTo(3);

    PrometheusText m = scrape();

    assertThat(rpcCount(m, "antrean.v1.WorkerService/Lease", "OK")).isEqualTo(1);
    assertThat(rpcCount(m, "antrean.v1.WorkerService/CompleteBatch", "OK")).isEqualTo(1);
    assertThat(rpcCount(m, "antrean.v1.WorkerService/CompleteBatch", "INVALID_ARGUMENT"))
        .isEqualTo(1);
    assertThat(m.value("antrean_jobs_completed_total", "queue", Q)).isEqualTo(1);
    stream.requests.onCompleted();
  }

  private PrometheusText scrape() throws Exception {
    HttpResponse<String> r = api.get("/metrics");
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.headers().firstValue("Content-Type"))
        .hasValue("text/plain; version=0.0.4; charset=utf-8");
    return PrometheusText.parse(r.body());
  }

  private static Double rpcCount(PrometheusText m, String method, String code) {
    return m.value("antrean_rpc_duration_seconds_count", "method", method, "code", code);
  }
}
