package io.antrean.bench;

import static io.antrean.bench.BenchJson.onlyResult;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Struct;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The latency scenario: jobs sent at a rate, timed from enqueue to their handler's start. */
@Timeout(30)
class LatencyScenarioTest {
  private final BenchHarness bench = BenchHarness.inProcess();

  @AfterEach
  void stop() throws InterruptedException {
    bench.close();
  }

  @Test
  void latencyMeasuresEveryJobFromEnqueueToHandlerStartAndReportsProgress() throws Exception {
    // Every Lease that carries jobs is answered 40 ms late: each job's handler starts later.
    bench.queues.leaseAnswerMillis = 40;

    BenchHarness.Result result =
        bench.run(
            "latency",
            "--rate",
            "200",
            "--duration",
            "1200ms",
            "--in-process-workers",
            "--progress",
            "--json");

    assertThat(result.exitCode()).as(result.err()).isZero();
    Struct row = onlyResult(result);
    assertThat(row.getFieldsOrThrow("jobs").getNumberValue()).isEqualTo(240);
    assertThat(row.getFieldsOrThrow("workers").getStringValue()).isEqualTo("2x25 in-process");
    assertThat(row.getFieldsOrThrow("seconds").getNumberValue()).isGreaterThanOrEqualTo(1.19);
    Struct latency = row.getFieldsOrThrow("latency").getStructValue();
    assertThat(latency.getFieldsOrThrow("count").getNumberValue()).isEqualTo(240);
    assertThat(latency.getFieldsOrThrow("of").getStringValue())
        .isEqualTo("Enqueue sent to handler start");
    assertThat(latency.getFieldsOrThrow("p50Ms").getNumberValue())
        .isGreaterThanOrEqualTo(40)
        .isLessThanOrEqualTo(latency.getFieldsOrThrow("p99Ms").getNumberValue());
    String queue = row.getFieldsOrThrow("queue").getStringValue();
    // One job showed the workers serve, the warm-up second sent 200 more at the same rate; they
    // ran but were not measured.
    assertThat(bench.queues.stats(queue).getSucceeded()).isEqualTo(1 + 200 + 240);
    assertThat(bench.queues.listJobsCalls).hasValue(1);
    assertThat(result.err()).containsPattern("latency: \\d+/240 jobs sent");
  }

  @Test
  void latencySendsAsManyUnmeasuredJobsFirstAsWarmUpJobsSays() throws Exception {
    BenchHarness.Result result = shortLatency("--warm-up-jobs", "30");

    assertThat(result.exitCode()).as(result.err()).isZero();
    assertThat(latencyCount(result)).isEqualTo(40);
    // The job that showed the workers serve, the 30 unmeasured ones, the 40 measured.
    String queue = onlyResult(result).getFieldsOrThrow("queue").getStringValue();
    assertThat(bench.queues.stats(queue).getSucceeded()).isEqualTo(1 + 30 + 40);
  }

  @Test
  void latencyReadsBackThisRunsJobsNotTheQueuesOlderOnes() throws Exception {
    bench.queues.createdAgo = Duration.ofMinutes(5);
    BenchHarness.Result older =
        bench.run(
            "end-to-end",
            "--queue",
            "q",
            "--jobs",
            "1500",
            "--worker-processes",
            "2",
            "--in-process-workers");
    assertThat(older.exitCode()).as(older.err()).isZero();
    bench.queues.createdAgo = Duration.ZERO;
    int listedBefore = bench.queues.listJobsCalls.get();

    BenchHarness.Result result = shortLatency("--queue", "q", "--worker-processes", "2");

    assertThat(result.exitCode()).as(result.err()).isZero();
    assertThat(latencyCount(result)).isEqualTo(40);
    // 3,000 older jobs would have taken three pages more.
    assertThat(bench.queues.listJobsCalls.get() - listedBefore).isEqualTo(1);
  }

  @Test
  void latencyReadsEveryJobOfTheQueueWhenTheCoordinatorsClockIsFarBehind() throws Exception {
    bench.queues.createdAgo = Duration.ofMinutes(5);

    BenchHarness.Result result = shortLatency("--queue", "q", "--worker-processes", "2");

    assertThat(result.exitCode()).as(result.err()).isZero();
    assertThat(latencyCount(result)).isEqualTo(40);
    // The reading from the window's start found none; the whole queue's found them all.
    assertThat(bench.queues.listJobsCalls).hasValue(2);
  }

  /**
   * {@code latency} for 40 jobs (200 ms at 200 jobs/s) with in-process workers, and {@code
   * options}.
   */
  private BenchHarness.Result shortLatency(String... options) {
    List<String> arguments =
        new ArrayList<>(
            List.of("latency", "--rate", "200", "--duration", "200ms", "--in-process-workers"));
    arguments.addAll(List.of(options));
    arguments.add("--json");
    return bench.run(arguments.toArray(String[]::new));
  }

  private static double latencyCount(BenchHarness.Result result) throws Exception {
    return onlyResult(result)
        .getFieldsOrThrow("latency")
        .getStructValue()
        .getFieldsOrThrow("count")
        .getNumberValue();
  }

  @Test
  void latencyRefusesResultsWithoutAHandlerStart() throws Exception {
    // External "workers" complete the jobs with an empty result, like an old bench.noop handler.
    bench.queues.externalWorkers = true;

    BenchHarness.Result result =
        bench.run(
            "latency",
            "--queue",
            "ext",
            "--worker-processes",
            "0",
            "--rate",
            "100",
            "--duration",
            "200ms");

    assertThat(result.exitCode()).isEqualTo(1);
    assertThat(result.err())
        .contains("latency: 20 jobs ran without reporting their handler's start")
        .contains("queue ext");
  }

  @Test
  void latencySaysSoWhenTheCoordinatorCannotKeepTheRate() throws Exception {
    bench.queues.enqueueMillis = 20;

    BenchHarness.Result result =
        bench.run(
            "latency",
            "--rate",
            "100",
            "--duration",
            "300ms",
            "--concurrency",
            "1",
            "--in-process-workers",
            "--json");

    assertThat(result.exitCode()).as(result.err()).isZero();
    assertThat(onlyResult(result).getFieldsOrThrow("jobs").getNumberValue()).isEqualTo(30);
    assertThat(result.err()).containsPattern("latency: sent \\d+ jobs/s, below --rate 100");
  }
}
