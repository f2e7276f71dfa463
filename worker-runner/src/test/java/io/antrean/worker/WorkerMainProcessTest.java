package io.antrean.worker;

import static org.assertj.core.api.Assertions.assertThat;

import io.antrean.proto.v1.ReleaseRequest;
import io.antrean.worker.testing.FakeWorkerService;
import io.antrean.worker.testing.Polling;
import io.grpc.Grpc;
import io.grpc.InsecureServerCredentials;
import io.grpc.Server;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The runnable worker as a real process: signals, exit status, the uncaught-bug path. */
@Timeout(150)
class WorkerMainProcessTest {
  private static final Duration WAIT = Duration.ofSeconds(45);

  private final FakeWorkerService coordinator = new FakeWorkerService();
  private Server server;
  private Process worker;

  @AfterEach
  void stopAll() throws InterruptedException {
    if (worker != null && worker.isAlive()) {
      worker.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
    if (server != null) {
      server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
  }

  @TempDir Path logs;

  private Process java(String mainClass, String... args) throws IOException {
    return java(Map.of(), mainClass, args);
  }

  private Process java(Map<String, String> env, String mainClass, String... args)
      throws IOException {
    return java(env, List.of(), mainClass, args);
  }

  private Process java(
      Map<String, String> env, List<String> jvmOptions, String mainClass, String... args)
      throws IOException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(jvmOptions);
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(mainClass);
    command.addAll(List.of(args));
    // A file, not a pipe: destroy() closes the pipes, and nobody must block on a full one.
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().putAll(env);
    return builder
        .redirectErrorStream(true)
        .redirectOutput(logs.resolve("process.log").toFile())
        .start();
  }

  private String output() throws IOException {
    return Files.readString(logs.resolve("process.log"), StandardCharsets.UTF_8);
  }

  /** The fake coordinator, on a free port of loopback. */
  private void startCoordinator() throws IOException {
    server =
        Grpc.newServerBuilderForPort(0, InsecureServerCredentials.create())
            .addService(coordinator)
            .build()
            .start();
  }

  private void startWorkerWithOneSleepingJob(String grace) throws IOException {
    startCoordinator();
    coordinator.enqueue("sleep", "{\"ms\":60000}");
    worker =
        java(
            WorkerMain.class.getName(),
            "--coordinator=127.0.0.1:" + server.getPort(),
            "--types=sleep",
            "--lease-ttl=3s",
            "--shutdown-grace=" + grace);
    // The job runs: a heartbeat carries its lease (an idle worker heartbeats with none).
    assertThat(
            Polling.await(
                WAIT, () -> coordinator.heartbeats.stream().anyMatch(h -> h.getLeasesCount() > 0)))
        .isTrue();
  }

  @Test
  void sigtermReleasesWhatDidNotFinishWithinTheGraceAndExitsZero() throws Exception {
    startWorkerWithOneSleepingJob("500ms");

    worker.destroy();

    assertThat(worker.waitFor(30, TimeUnit.SECONDS)).isTrue();
    String output = output();
    assertThat(worker.exitValue()).as(output).isZero();
    assertThat(coordinator.releases)
        .extracting(ReleaseRequest::getJobId, ReleaseRequest::getReason)
        .containsExactly(org.assertj.core.groups.Tuple.tuple(1L, "shutdown"));
    assertThat(coordinator.completes).isEmpty();
  }

  @Test
  void secondSigtermSkipsTheGrace() throws Exception {
    startWorkerWithOneSleepingJob("60s");

    worker.destroy();
    int beats = coordinator.heartbeats.size();
    // The worker is draining, still heartbeating its job: signal again.
    assertThat(Polling.await(WAIT, () -> coordinator.heartbeats.size() > beats)).isTrue();
    worker.destroy();

    assertThat(worker.waitFor(20, TimeUnit.SECONDS)).isTrue();
    assertThat(worker.exitValue()).as(output()).isZero();
    assertThat(coordinator.releases)
        .extracting(ReleaseRequest::getReason)
        .containsExactly("shutdown");
  }

  @Test
  void withoutCoordinatorOptionTheWorkerUsesAntreanCoordinatorFromTheEnvironment()
      throws Exception {
    startCoordinator();

    worker =
        java(
            Map.of("ANTREAN_COORDINATOR", "127.0.0.1:" + server.getPort()),
            WorkerMain.class.getName(),
            "--types=sleep");

    assertThat(Polling.await(WAIT, () -> !coordinator.leases.isEmpty())).as(output()).isTrue();
    assertThat(coordinator.leases.get(0).getTypesList()).containsExactly("sleep");
    worker.destroy();
    assertThat(worker.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(worker.exitValue()).as(output()).isZero();
  }

  @Test
  void uncaughtExceptionOutsideAHandlerLogsAndExitsWithStatus70() throws Exception {
    worker = java(BugProbe.class.getName());

    assertThat(worker.waitFor(30, TimeUnit.SECONDS)).isTrue();
    String output = output();
    assertThat(worker.exitValue()).as(output).isEqualTo(WorkerMain.BUG_EXIT_STATUS);
    assertThat(output)
        .contains("ERROR")
        .contains("uncaught exception in thread antrean-poller-1")
        .contains("bug in the worker runtime");
  }

  @Test
  void collectsTheStartUpGarbageBeforeTheWorkerStarts() throws Exception {
    startCoordinator();

    // The JVM's collection log and the worker's own log share stderr, in the order written.
    worker =
        java(
            Map.of(),
            List.of("-Xlog:gc:stderr", "-Dantrean.log.level=INFO"),
            WorkerMain.class.getName(),
            "--coordinator=127.0.0.1:" + server.getPort(),
            "--types=sleep");

    assertThat(Polling.await(WAIT, () -> !coordinator.leases.isEmpty())).as(output()).isTrue();
    String output = output();
    int collected = output.indexOf("(System.gc())");
    assertThat(collected).as(output).isNotNegative();
    assertThat(output.indexOf("worker started")).as(output).isGreaterThan(collected);
  }
}
