package io.antrean.bench;

import static io.antrean.bench.BenchJson.onlyResult;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Struct;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * end-to-end and latency start real worker processes by default (the runnable worker, {@code
 * io.antrean.worker.WorkerMain}, from this test's class path) against the fake coordinator on a
 * loopback port, and stop them with SIGTERM.
 */
@Timeout(120)
class WorkerProcessesTest {
  private final BenchHarness bench = BenchHarness.onLoopback();

  @AfterEach
  void stop() throws InterruptedException {
    bench.close();
  }

  @Test
  void endToEndRunsTheJobsOnTwoWorkerProcessesByDefaultAndStopsThemCleanly() throws Exception {
    BenchHarness.Result result =
        bench.run("end-to-end", "--jobs", "200", "--worker-concurrency", "5", "--json");

    assertThat(result.exitCode()).as(result.err()).isZero();
    Struct row = onlyResult(result);
    assertThat(row.getFieldsOrThrow("workers").getStringValue()).isEqualTo("2x5");
    String queue = row.getFieldsOrThrow("queue").getStringValue();
    assertThat(bench.queues.stats(queue).getSucceeded()).isEqualTo(200 + 200);
    // Ids the bench gave its processes: bench-<its pid>-<queue>-<1 or 2>.
    assertThat(bench.queues.leaseWorkers)
        .allSatisfy(worker -> assertThat(worker).matches("bench-\\d+-" + queue + "-[12]"));
    // Five handler threads, and by default up to five jobs leased ahead of them.
    assertThat(bench.queues.leaseMaxJobs).allSatisfy(max -> assertThat(max).isBetween(1, 10));
    // Both stopped on SIGTERM and exited 0: nothing reported.
    assertThat(result.err()).doesNotContain("worker process");
  }

  @Test
  void workerPrefetchReachesTheProcesses() throws Exception {
    BenchHarness.Result result =
        bench.run(
            "end-to-end",
            "--jobs",
            "200",
            "--worker-concurrency",
            "5",
            "--worker-prefetch",
            "0",
            "--json");

    assertThat(result.exitCode()).as(result.err()).isZero();
    String queue = onlyResult(result).getFieldsOrThrow("queue").getStringValue();
    assertThat(bench.queues.stats(queue).getSucceeded()).isEqualTo(200 + 200);
    // Nothing leased ahead: never more jobs asked for than the five threads.
    assertThat(bench.queues.leaseMaxJobs).allSatisfy(max -> assertThat(max).isBetween(1, 5));
  }

  @Test
  void latencyReadsTheStartTheRunnableWorkersHandlerReported() throws Exception {
    BenchHarness.Result result =
        bench.run(
            "latency",
            "--rate",
            "100",
            "--duration",
            "500ms",
            "--worker-processes",
            "1",
            "--worker-concurrency",
            "4",
            "--json");

    assertThat(result.exitCode()).as(result.err()).isZero();
    Struct row = onlyResult(result);
    assertThat(row.getFieldsOrThrow("workers").getStringValue()).isEqualTo("1x4");
    Struct latency = row.getFieldsOrThrow("latency").getStructValue();
    assertThat(latency.getFieldsOrThrow("count").getNumberValue()).isEqualTo(50);
    assertThat(latency.getFieldsOrThrow("p50Ms").getNumberValue()).isPositive();
  }

  @Test
  void aWorkerProcessThatExitsFailsTheRunWithItsStatusAndOutput() {
    bench.launches =
        settings -> new WorkerLaunch(List.of("sh", "-c", "echo cannot start; exit 3", "sh"));

    BenchHarness.Result result =
        bench.run("end-to-end", "--jobs", "10", "--worker-processes", "1", "--wait", "30s");

    assertThat(result.exitCode()).isEqualTo(1);
    assertThat(result.err())
        .containsPattern("worker process 1 \\(pid \\d+\\) exited with status 3")
        .contains("cannot start");
  }

  @Test
  void aMissingWorkerJarIsReportedWithHowToBuildIt() {
    bench.launches = settings -> WorkerLaunch.runnableJar(settings.workerJar(), List.of());

    BenchHarness.Result result =
        bench.run(
            "end-to-end",
            "--jobs",
            "10",
            "--worker-jar",
            "/nonexistent/antrean-worker.jar",
            "--json");

    assertThat(result.exitCode()).isEqualTo(1);
    assertThat(result.err())
        .contains("the runnable worker /nonexistent/antrean-worker.jar is not there")
        .contains("--in-process-workers");
  }
}
