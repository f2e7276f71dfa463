package io.antrean.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
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

/** A worker process stopped while its JVM is still starting exits cleanly. */
@Timeout(90)
class WorkerStartupIT {
  @RegisterExtension final Cluster cluster = new Cluster();
  @TempDir Path dir;

  @BeforeEach
  void setUp(TestInfo info) throws Exception {
    cluster.setUp(dir, info.getTestMethod().orElseThrow().getName());
  }

  /**
   * SIGTERM at the moment the worker starts loading its handlers, long before it has built its
   * channel or leased anything: the JVM's class-load log says when that is, and the signal goes out
   * as soon as the test sees it. Without a trap set first thing in main, the JVM exits with 143.
   */
  @Test
  void sigtermWhileTheJvmIsStillStartingExitsZero() throws Exception {
    Path classes = dir.resolve("classes.log");
    JvmProcess worker =
        cluster.startWorkerOn(
            "127.0.0.1:9", "early", List.of("-Xlog:class+load=info:file=" + classes));

    Awaitility.await()
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(2))
        .until(() -> loaded(classes, "io.antrean.worker.HandlerCatalog "));
    worker.terminate();

    assertThat(worker.awaitExit(Duration.ofSeconds(30))).as(worker.logText()).isZero();
  }

  private static boolean loaded(Path classLog, String className) throws IOException {
    return Files.exists(classLog)
        && Files.readString(classLog, StandardCharsets.ISO_8859_1).contains(className);
  }
}
