package io.antrean.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/antrean coordinator} and {@code bin/antrean worker} give their JVM a
 * class-data-sharing archive: the first run dumps the classes it loaded into a file of its own when
 * it stops, and the next run promotes that dump and loads its classes from it (start-up is mostly
 * class loading). The launcher and the jars are copied into a temporary tree, so the checkout's own
 * archives are left alone.
 */
@Timeout(300)
final class ClassArchiveIT {
  private static final Path LAUNCHER =
      Path.of("").toAbsolutePath().getParent().resolve("bin").resolve("antrean");
  private static final Path COORDINATOR_JAR =
      Path.of(System.getProperty("antrean.coordinator.jar"));
  private static final Path WORKER_JAR = Path.of(System.getProperty("antrean.worker.jar"));
  private static final String CHEAP_JVM = "-Xmx256m -XX:+UseSerialGC -XX:TieredStopAtLevel=1";

  @TempDir Path home;

  @Test
  void secondStartLoadsTheCoordinatorsClassesFromTheArchiveTheFirstLeft() throws Exception {
    Path target = home.resolve("coordinator").resolve("target");
    Path launcher = install();
    Path archive = target.resolve("antrean-coordinator.jsa");

    long firstPid = runUntilReadyThenStop(launcher, "first", CHEAP_JVM);
    assertThat(target.resolve("antrean-coordinator.jsa." + firstPid))
        .as("the first run's dump, named by its pid")
        .isNotEmptyFile();
    assertThat(archive).doesNotExist();

    Path classLoads = home.resolve("class-loads.log");
    runUntilReadyThenStop(
        launcher, "second", CHEAP_JVM + " -Xlog:class+load=info:file=" + classLoads);
    assertThat(archive).as("the promoted archive").isNotEmptyFile();
    try (Stream<Path> files = Files.list(target)) {
      assertThat(files.map(f -> f.getFileName().toString()))
          .as("no dump left beside the archive")
          .containsExactlyInAnyOrder("antrean-coordinator.jar", "antrean-coordinator.jsa");
    }
    assertThat(Files.readString(classLoads, StandardCharsets.UTF_8))
        .contains("io.antrean.coordinator.CoordinatorMain source: shared objects file (top)")
        .contains("io.antrean.coordinator.Coordinator source: shared objects file (top)");
  }

  @Test
  void classSharingOptionsOfTheUserWinAndTheCoordinatorStillStarts() throws Exception {
    Path launcher = install();
    // With class sharing off a JVM refuses to dump an archive, and would refuse to start if asked.
    runUntilReadyThenStop(launcher, "sharing-off", CHEAP_JVM + " -Xshare:off");
    try (Stream<Path> files = Files.list(home.resolve("coordinator").resolve("target"))) {
      assertThat(files.map(f -> f.getFileName().toString()))
          .containsExactly("antrean-coordinator.jar");
    }
  }

  @Test
  void aWorkersSecondStartLoadsItsClassesFromTheArchiveItsFirstLeft() throws Exception {
    Path launcher = install();
    Path target = home.resolve("worker-runner").resolve("target");
    Path archive = target.resolve("antrean-worker-runner.jsa");

    long firstPid = runWorkerUntilStartedThenStop(launcher, "first-worker", CHEAP_JVM);
    assertThat(target.resolve("antrean-worker-runner.jsa." + firstPid))
        .as("the first run's dump, named by its pid")
        .isNotEmptyFile();

    Path classLoads = home.resolve("worker-class-loads.log");
    runWorkerUntilStartedThenStop(
        launcher, "second-worker", CHEAP_JVM + " -Xlog:class+load=info:file=" + classLoads);
    assertThat(archive).as("the promoted archive").isNotEmptyFile();
    assertThat(Files.readString(classLoads, StandardCharsets.UTF_8))
        .contains("io.antrean.worker.WorkerMain source: shared objects file (top)");
  }

  /** Copies the launcher, the coordinator jar and the worker jar into {@link #home}. */
  private Path install() throws IOException {
    Path workerTarget = Files.createDirectories(home.resolve("worker-runner").resolve("target"));
    Files.copy(WORKER_JAR, workerTarget.resolve("antrean-worker-runner.jar"));
    Path target = Files.createDirectories(home.resolve("coordinator").resolve("target"));
    Files.copy(COORDINATOR_JAR, target.resolve("antrean-coordinator.jar"));
    Path launcher = Files.createDirectories(home.resolve("bin")).resolve("antrean");
    Files.copy(LAUNCHER, launcher);
    Files.setPosixFilePermissions(launcher, PosixFilePermissions.fromString("rwxr-xr-x"));
    return launcher;
  }

  /** Starts {@code bin/antrean coordinator}, waits for its ready file, stops it with SIGTERM. */
  private long runUntilReadyThenStop(Path launcher, String name, String javaOptions)
      throws IOException, InterruptedException {
    Path ready = home.resolve(name + ".ready");
    List<String> command =
        List.of(
            launcher.toString(),
            "coordinator",
            "--data-dir",
            home.resolve("data").toString(),
            "--grpc-port",
            "0",
            "--http-port",
            "-1",
            "--ready-file",
            ready.toString());
    return runUntilThenStop(command, name, javaOptions, log -> Files.isRegularFile(ready));
  }

  /**
   * Starts {@code bin/antrean worker} (its coordinator is not there: it starts all the same and
   * retries), waits until it says it started, stops it with SIGTERM.
   */
  private long runWorkerUntilStartedThenStop(Path launcher, String name, String javaOptions)
      throws IOException, InterruptedException {
    List<String> command =
        List.of(
            launcher.toString(),
            "worker",
            "--coordinator",
            "127.0.0.1:1",
            "--queue",
            "q",
            "--types",
            "bench.noop");
    return runUntilThenStop(
        command, name, javaOptions, log -> read(log).contains("worker started"));
  }

  private long runUntilThenStop(
      List<String> command, String name, String javaOptions, Predicate<Path> ready)
      throws IOException, InterruptedException {
    Path log = home.resolve(name + ".log");
    ProcessBuilder builder =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
    Map<String, String> env = builder.environment();
    env.put("ANTREAN_JAVA_OPTS", javaOptions);
    env.remove("ANTREAN_CDS");
    env.put("JAVA", Path.of(System.getProperty("java.home"), "bin", "java").toString());
    Process process = builder.start();
    try {
      Awaitility.await(name + " ready")
          .atMost(Duration.ofMinutes(2))
          .pollInterval(Duration.ofMillis(100))
          .until(() -> ready.test(log) || !process.isAlive());
      assertThat(process.isAlive()).as(() -> name + " runs; its output:\n" + read(log)).isTrue();
      process.destroy();
      assertThat(process.waitFor(2, TimeUnit.MINUTES)).as(name + " stops on SIGTERM").isTrue();
      return process.pid();
    } finally {
      process.destroyForcibly();
    }
  }

  private static String read(Path log) {
    try {
      return Files.readString(log, StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "(unreadable: " + e + ")";
    }
  }
}
