package io.antrean.bench;

import static io.antrean.bench.BenchJson.onlyResult;
import static io.antrean.bench.BenchJson.parse;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Struct;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The end-to-end scenario: its warm-up, its prefilled paused queue, in-process and external
 * workers, and giving up on jobs that never finish.
 */
@Timeout(30)
class EndToEndScenarioTest {
  private final BenchHarness bench = BenchHarness.inProcess();

  @AfterEach
  void stop() throws InterruptedException {
    bench.close();
  }

  @Test
  void endToEndRunsAWarmUpThenEveryJobOnInProcessWorkers() throws Exception {
    BenchHarness.Result result =
        bench.run(
            "end-to-end",
            "--jobs",
            "500",
            "--worker-processes",
            "3",
            "--in-process-workers",
            "--worker-concurrency",
            "5",
            "--json");

    assertThat(result.exitCode()).as(result.err()).isZero();
    Struct row = onlyResult(result);
    assertThat(row.getFieldsOrThrow("jobs").getNumberValue()).isEqualTo(500);
    assertThat(row.getFieldsOrThrow("workers").getStringValue()).isEqualTo("3x5 in-process");
    assertThat(row.getFieldsOrThrow("jobsPerSecond").getNumberValue()).isPositive();
    String queue = row.getFieldsOrThrow("queue").getStringValue();
    // min(N, 2000) warm-up jobs ran first, unmeasured.
    assertThat(bench.queues.stats(queue).getSucceeded()).isEqualTo(500 + 500);
    // Five handler threads, and by default up to five jobs leased ahead of them.
    assertThat(bench.queues.leaseMaxJobs).allSatisfy(max -> assertThat(max).isBetween(1, 10));
    assertThat(bench.queues.leaseWorkers)
        .allSatisfy(worker -> assertThat(worker).matches("bench-\\d+-" + queue + "-[123]"));
  }

  @Test
  void endToEndPrefillsThePausedQueueAndTimesTheWorkersFromItsResume() throws Exception {
    BenchHarness.Result result =
        bench.run("end-to-end", "--jobs", "300", "--in-process-workers", "--json");

    assertThat(result.exitCode()).as(result.err()).isZero();
    String queue = onlyResult(result).getFieldsOrThrow("queue").getStringValue();
    // The warm-up ran on the open queue; then all 300 jobs waited, none taken, until the resume.
    assertThat(bench.queues.queueControl)
        .containsExactly("pause " + queue, "resume " + queue + ", 300 pending");
    // A fresh queue is not looked up for a pause of its own.
    assertThat(bench.queues.listQueuesCalls).hasValue(0);
    assertThat(bench.queues.stats(queue).getSucceeded()).isEqualTo(300 + 300);
    // The warm-up's and the run's waits poll the unfinished jobs alone; every count is read only
    // where a watch starts (three: the check for open jobs, the warm-up, the run) and ends (two).
    assertThat(bench.queues.unfinishedStatsCalls).hasValueGreaterThanOrEqualTo(2);
    assertThat(bench.queues.fullStatsCalls).hasValue(5);
  }

  @Test
  void endToEndRunsAsManyWarmUpJobsAsWarmUpJobsSays() throws Exception {
    BenchHarness.Result result =
        bench.run(
            "end-to-end",
            "--jobs",
            "300",
            "--warm-up-jobs",
            "40",
            "--in-process-workers",
            "--json");

    assertThat(result.exitCode()).as(result.err()).isZero();
    String queue = onlyResult(result).getFieldsOrThrow("queue").getStringValue();
    assertThat(bench.queues.stats(queue).getSucceeded()).isEqualTo(40 + 300);
  }

  @Test
  void endToEndRefusesAPausedQueueAndLeavesItPaused() throws Exception {
    bench.queues.setPaused("held", true);
    bench.queues.queueControl.clear();

    BenchHarness.Result result =
        bench.run(
            "end-to-end",
            "--queue",
            "held",
            "--jobs",
            "10",
            "--worker-processes",
            "1",
            "--in-process-workers");

    assertThat(result.exitCode()).isEqualTo(1);
    assertThat(result.err())
        .contains("queue held is paused")
        .contains("bin/antrean queue resume held");
    assertThat(bench.queues.queueControl).isEmpty();
    assertThat(bench.queues.listQueuesCalls).hasValue(1);
    assertThat(bench.queues.stats("held").getPending()).isZero();
  }

  @Test
  void endToEndWithoutPrefillEnqueuesWhileTheWorkersRun() throws Exception {
    BenchHarness.Result result =
        bench.run("end-to-end", "--jobs", "300", "--in-process-workers", "--no-prefill", "--json");

    assertThat(result.exitCode()).as(result.err()).isZero();
    String queue = onlyResult(result).getFieldsOrThrow("queue").getStringValue();
    assertThat(bench.queues.queueControl).isEmpty();
    assertThat(bench.queues.stats(queue).getSucceeded()).isEqualTo(300 + 300);
  }

  @Test
  void endToEndWithExternalWorkersWaitsForThemOnTheNamedQueue() throws Exception {
    bench.queues.externalWorkers = true;

    BenchHarness.Result result =
        bench.run("end-to-end", "--queue", "bench", "--jobs", "300", "--json");

    assertThat(result.exitCode()).as(result.err()).isZero();
    Struct row = onlyResult(result);
    assertThat(row.getFieldsOrThrow("queue").getStringValue()).isEqualTo("bench");
    assertThat(row.getFieldsOrThrow("workers").getStringValue()).isEqualTo("external");
    assertThat(bench.queues.stats("bench").getSucceeded()).isEqualTo(300 + 300);
    assertThat(bench.queues.leaseMaxJobs).isEmpty();
  }

  @Test
  void endToEndGivesUpWhenNoWorkerRunsTheJobs() throws Exception {
    BenchHarness.Result result =
        bench.run("end-to-end", "--queue", "idle", "--jobs", "10", "--wait", "200ms", "--json");

    assertThat(result.exitCode()).isEqualTo(1);
    assertThat(result.err())
        .contains("warm-up: only 0 of 10 jobs finished within 0.2 s")
        .contains("pending 10")
        .contains("are workers for bench.noop serving it?");
    assertThat(parse(result.out()).getFieldsOrThrow("results").getListValue().getValuesList())
        .isEmpty();
  }

  @Test
  void jobsTheWorkersCannotCompleteFailTheRunOnceWaitHasPassed() {
    bench.queues.loseLeases = true;

    BenchHarness.Result result =
        bench.run("end-to-end", "--jobs", "20", "--in-process-workers", "--wait", "300ms");

    assertThat(result.exitCode()).isEqualTo(1);
    assertThat(result.err()).contains("warm-up: only 0 of 20 jobs finished within 0.3 s");
    assertThat(result.out()).isEmpty();
  }
}
