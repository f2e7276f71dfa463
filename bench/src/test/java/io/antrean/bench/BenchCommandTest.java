package io.antrean.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import com.google.protobuf.util.JsonFormat;
import io.antrean.client.InvalidArgumentException;
import io.grpc.Status;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class BenchCommandTest {
  private final BenchHarness bench = BenchHarness.inProcess();

  @AfterEach
  void stop() throws InterruptedException {
    bench.close();
  }

  @Test
  void enqueueOneSendsEveryJobOneAtATimeAndDrainsItsFreshQueue() throws Exception {
    BenchHarness.Result result = bench.run("enqueue-1", "--jobs", "40", "--json");

    assertThat(result.exitCode()).as(result.err()).isZero();
    Struct row = onlyResult(result);
    String queue = row.getFieldsOrThrow("queue").getStringValue();
    assertThat(queue).matches("bench-[0-9a-f]{8}");
    assertThat(row.getFieldsOrThrow("scenario").getStringValue()).isEqualTo("enqueue-1");
    assertThat(row.getFieldsOrThrow("jobs").getNumberValue()).isEqualTo(40);
    assertThat(row.getFieldsOrThrow("concurrency").getNumberValue()).isEqualTo(1);
    Struct latency = row.getFieldsOrThrow("latency").getStructValue();
    assertThat(latency.getFieldsOrThrow("count").getNumberValue()).isEqualTo(40);
    assertThat(latency.getFieldsOrThrow("of").getStringValue()).isEqualTo("Enqueue call");
    // 40 unmeasured warm-up calls (as many as measured ones, up to 1,000) came first.
    assertThat(bench.queues.enqueueCalls.get()).isEqualTo(40 + 40);
    assertThat(bench.queues.maxEnqueuesInFlight.get()).isEqualTo(1);
    assertThat(bench.queues.stats(queue).getSucceeded()).isEqualTo(40 + 40);
    assertThat(bench.queues.stats(queue).getPending()).isZero();
  }

  @Test
  void enqueueFiftyKeepsUpToConcurrencyCallsInFlight() throws Exception {
    bench.queues.enqueueMillis = 2;

    BenchHarness.Result result =
        bench.run("enqueue-50", "--jobs", "200", "--concurrency", "8", "--json");

    assertThat(result.exitCode()).as(result.err()).isZero();
    Struct row = onlyResult(result);
    assertThat(row.getFieldsOrThrow("jobs").getNumberValue()).isEqualTo(200);
    assertThat(row.getFieldsOrThrow("concurrency").getNumberValue()).isEqualTo(8);
    assertThat(bench.queues.enqueueCalls.get()).isEqualTo(200 + 200); // with the warm-up
    assertThat(bench.queues.maxEnqueuesInFlight.get()).isBetween(2, 8);
  }

  @Test
  void batchSendsCallsOfAThousandAndTheRest() throws Exception {
    BenchHarness.Result result = bench.run("batch", "--jobs", "2500", "--json");

    assertThat(result.exitCode()).as(result.err()).isZero();
    Struct row = onlyResult(result);
    assertThat(row.getFieldsOrThrow("jobs").getNumberValue()).isEqualTo(2500);
    assertThat(row.containsFields("latency")).isFalse();
    assertThat(bench.queues.batchSizes).containsExactly(1000, 1000, 500);
    String queue = row.getFieldsOrThrow("queue").getStringValue();
    assertThat(bench.queues.stats(queue).getSucceeded()).isEqualTo(2500);
  }

  @Test
  void noDrainLeavesTheJobsPending() throws Exception {
    BenchHarness.Result result = bench.run("batch", "--jobs", "30", "--no-drain", "--json");

    String queue = onlyResult(result).getFieldsOrThrow("queue").getStringValue();
    assertThat(bench.queues.stats(queue).getPending()).isEqualTo(30);
    assertThat(bench.queues.leaseMaxJobs).isEmpty();
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

  @Test
  void allRunsEveryScenarioInOrderAndPrintsOneJsonDocument() throws Exception {
    BenchHarness.Result result =
        bench.run(
            "--coordinator",
            "127.0.0.1:7999",
            "all",
            "--jobs",
            "300",
            "--duration",
            "1s",
            "--rate",
            "200",
            "--in-process-workers",
            "--no-progress",
            "--json");

    assertThat(result.exitCode()).as(result.err()).isZero();
    Struct document = parse(result.out());
    assertThat(document.getFieldsOrThrow("coordinator").getStringValue())
        .isEqualTo("127.0.0.1:7999");
    List<Value> rows = document.getFieldsOrThrow("results").getListValue().getValuesList();
    assertThat(rows)
        .extracting(row -> row.getStructValue().getFieldsOrThrow("scenario").getStringValue())
        .containsExactly("enqueue-1", "enqueue-50", "batch", "end-to-end", "latency");
    assertThat(rows)
        .extracting(row -> row.getStructValue().getFieldsOrThrow("jobs").getNumberValue())
        .containsExactly(300.0, 300.0, 300.0, 300.0, 200.0);
    assertThat(bench.targets).containsOnly("127.0.0.1:7999").hasSize(2);
    assertThat(bench.queues.queues()).hasSize(5);
    assertThat(result.err()).doesNotContain("gave up").doesNotContain("failed");
  }

  @Test
  void tableHasOneRowPerScenarioAndSaysWhatLatencyMeans() {
    BenchHarness.Result result = bench.run("enqueue-1", "--jobs", "20", "--no-progress");

    assertThat(result.exitCode()).as(result.err()).isZero();
    List<String> lines = result.out().lines().toList();
    assertThat(lines.get(0))
        .matches(
            "SCENARIO +QUEUE +JOBS +CONCURRENCY +WORKERS +SECONDS +JOBS/S +P50 MS +P90 MS"
                + " +P99 MS +MAX MS");
    assertThat(lines.get(1)).matches("enqueue-1 +bench-[0-9a-f]{8} +20 +1 +- +[0-9.]+ .*");
    assertThat(lines.get(2)).isEqualTo("latency measured: enqueue-1: Enqueue call");
  }

  @Test
  void aRefusedEnqueueEscapesToTheCliWithTheResultsSoFar() throws Exception {
    bench.queues.admission =
        request -> {
          if (request.getType().equals("bench.noop")) {
            throw Status.INVALID_ARGUMENT.withDescription("undeclared type").asRuntimeException();
          }
          return request;
        };

    BenchHarness.Result result = bench.run("enqueue-50", "--jobs", "100", "--json");

    assertThat(result.exitCode()).isEqualTo(1);
    assertThat(bench.escaped).singleElement().isInstanceOf(InvalidArgumentException.class);
    assertThat(parse(result.out()).getFieldsOrThrow("results").getListValue().getValuesList())
        .isEmpty();
  }

  @Test
  void impossibleCombinationsAreUsageErrors() {
    assertThat(bench.run("latency", "--worker-processes", "0").err())
        .contains(
            "latency with external workers (--worker-processes 0) needs --queue naming the queue"
                + " they serve");
    assertThat(bench.run("end-to-end", "--worker-processes", "0").err())
        .contains("end-to-end with external workers");
    assertThat(bench.run("enqueue-2").err())
        .contains(
            "unknown scenario 'enqueue-2'; choose one of enqueue-1, enqueue-50, batch,"
                + " end-to-end, latency, lease or all");
    assertThat(bench.run("batch", "--jobs", "0").exitCode()).isEqualTo(2);
    assertThat(bench.run("all", "--queue", "no spaces").exitCode()).isEqualTo(2);
    assertThat(bench.run("--coordinator", "h1:7400,h2", "batch").err())
        .contains("--coordinator: bad coordinator address 'h2' (entry 2 of 'h1:7400,h2')");
    assertThat(bench.targets).isEmpty();
  }

  private static Struct onlyResult(BenchHarness.Result result) throws Exception {
    List<Value> rows =
        parse(result.out()).getFieldsOrThrow("results").getListValue().getValuesList();
    assertThat(rows).hasSize(1);
    return rows.get(0).getStructValue();
  }

  private static Struct parse(String json) throws Exception {
    Struct.Builder document = Struct.newBuilder();
    JsonFormat.parser().merge(json, document);
    return document.build();
  }
}
