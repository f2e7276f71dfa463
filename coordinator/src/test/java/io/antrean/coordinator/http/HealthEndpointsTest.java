package io.antrean.coordinator.http;

import static io.antrean.coordinator.http.HttpApiFixture.error;
import static io.antrean.coordinator.http.HttpApiFixture.struct;
import static org.assertj.core.api.Assertions.assertThat;

import io.antrean.coordinator.store.StoreUnavailableException;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code /healthz} answers while the process is up; {@code /readyz} follows the store. */
@Timeout(30)
class HealthEndpointsTest {
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
  void healthzAndReadyzAnswer200WhileTheStoreAnswers() throws Exception {
    HttpResponse<String> health = api.get("/healthz");
    assertThat(health.statusCode()).isEqualTo(200);
    assertThat(struct(health).getFieldsOrThrow("status").getStringValue()).isEqualTo("ok");

    HttpResponse<String> ready = api.get("/readyz");
    assertThat(ready.statusCode()).isEqualTo(200);
    assertThat(struct(ready).getFieldsOrThrow("status").getStringValue()).isEqualTo("ready");
  }

  @Test
  void readyzIs503WhenTheStoreIsClosedWhileHealthzStays200() throws Exception {
    api.realStore.close();

    error(api.get("/readyz"), 503, "STORE_UNAVAILABLE");
    assertThat(api.get("/healthz").statusCode()).isEqualTo(200);
  }

  @Test
  void readyzIs503WhileTheStoreKnowsItsWritesFailAndHealthzStays200() throws Exception {
    api.faults.failOn(
        "requireWritable",
        new StoreUnavailableException("the SQLite WAL could not be synced to disk", null));
    try {
      error(api.get("/readyz"), 503, "STORE_UNAVAILABLE");
      assertThat(api.get("/healthz").statusCode()).isEqualTo(200);
    } finally {
      api.faults.heal();
    }
    assertThat(api.get("/readyz").statusCode()).isEqualTo(200);
  }

  @Test
  void readyzIs503WhenTheStoreHangsPastTheTimeout() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    api.faults.hangOn("pausedQueues", release);
    try {
      long start = System.nanoTime();
      error(api.get("/readyz"), 503, "STORE_UNAVAILABLE");
      assertThat((System.nanoTime() - start) / 1_000_000).isBetween(900L, 5_000L);
    } finally {
      release.countDown();
      api.faults.heal();
    }
  }
}
