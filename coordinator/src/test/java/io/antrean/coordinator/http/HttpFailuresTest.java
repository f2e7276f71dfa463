package io.antrean.coordinator.http;

import static io.antrean.coordinator.http.HttpApiFixture.emailBody;
import static io.antrean.coordinator.http.HttpApiFixture.error;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Struct;
import io.antrean.coordinator.store.LeaseLostException;
import io.antrean.coordinator.store.StoreUnavailableException;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.SQLException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Unknown paths, store outages, unexpected failures and the rest of the error table over HTTP. */
@Timeout(30)
class HttpFailuresTest {
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
  void unknownPathIs404EndpointNotFound() throws Exception {
    error(api.get("/v1/nothing"), 404, "ENDPOINT_NOT_FOUND");
    error(api.get("/v2"), 404, "ENDPOINT_NOT_FOUND");
    error(api.post("/v1/queues/default:drain", ""), 404, "ENDPOINT_NOT_FOUND");
  }

  @Test
  void unexpectedFailureIs500WithACorrelationIdAndNothingInternal() throws Exception {
    api.faults.failOn(
        "get",
        new IllegalStateException(
            "secret table jobs_v2 at /var/lib/antrean broke", new SQLException("disk")));

    HttpResponse<String> r = api.get("/v1/jobs/1");

    Struct error = error(r, 500, "INTERNAL");
    assertThat(error.getFieldsMap()).containsOnlyKeys("code", "message", "correlation_id");
    assertThat(error.getFieldsOrThrow("correlation_id").getStringValue()).matches("[0-9a-f-]{36}");
    assertThat(r.body())
        .doesNotContain(
            "Exception", "java.", "io.antrean", ".java", "\tat ", "secret", "jobs_v2", "disk");
  }

  @Test
  void storeOutageIs503() throws Exception {
    api.faults.failOn("enqueue", new StoreUnavailableException("database down", null));

    Struct error = error(api.post("/v1/jobs", emailBody("")), 503, "STORE_UNAVAILABLE");
    assertThat(error.getFieldsMap()).containsOnlyKeys("code", "message");
  }

  @Test
  void lostLeaseMapsTo409WithItsReason() {
    // No HTTP route presents a lease; the table is checked directly.
    ErrorBodies.ErrorBody body = HttpErrors.of(new LeaseLostException(4, 2));
    assertThat(body.status()).isEqualTo(409);
    assertThat(body.code()).isEqualTo("LEASE_LOST");
  }
}
