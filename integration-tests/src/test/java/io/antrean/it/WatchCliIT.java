package io.antrean.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** {@code antrean watch} as a process, following a job that a worker process runs. */
@Timeout(180)
class WatchCliIT {
  @RegisterExtension final Cluster cluster = new Cluster();
  @TempDir Path dir;
  private Path logDir;

  @BeforeEach
  void setUp(TestInfo info) throws Exception {
    String name = info.getTestMethod().orElseThrow().getName();
    cluster.setUp(dir, name);
    logDir = Path.of("target", "it-logs", name).toAbsolutePath();
  }

  @Test
  void watchPrintsTheTransitionsOfAJobFromPendingToSucceeded() throws Exception {
    cluster.startCoordinator();
    long id = Jobs.enqueue(cluster.jobs(), "report.build", "{\"pages\":4,\"msPerPage\":250}");
    Path clientJar = Path.of(System.getProperty("antrean.client.jar"));

    try (JvmProcess watch =
        JvmProcess.start(
            "antrean-watch",
            clientJar,
            logDir,
            List.of("--coordinator", cluster.target(), "watch", Long.toString(id)))) {
      // The worker starts only once the watch has shown the job pending, so RUNNING is a change.
      Awaitility.await("antrean watch shows the pending job")
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofMillis(50))
          .until(() -> watch.logText().contains(": PENDING") || !watch.isAlive());
      cluster.startWorker("w1");

      assertThat(watch.awaitExit(Duration.ofSeconds(90))).as(watch.logText()).isZero();
      assertThat(watch.logText().lines().filter(l -> l.startsWith("job ")))
          .containsExactly(
              "job " + id + " report.build: PENDING",
              "job " + id + " report.build: PENDING -> RUNNING (attempt 1, worker w1)",
              "job " + id + " report.build: RUNNING -> SUCCEEDED (attempt 1)");
    }
  }
}
