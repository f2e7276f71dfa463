package io.antrean.client.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import com.google.protobuf.util.JsonFormat;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** How the in-process no-op workers report finished jobs, seen from the fake coordinator. */
@Timeout(30)
class NoopWorkerPoolTest {
  private static final String FALLBACK_WARNING =
      "the coordinator does not implement CompleteBatch (UNIMPLEMENTED)";

  private final BenchHarness bench = new BenchHarness();

  @AfterEach
  void stop() throws InterruptedException {
    bench.close();
  }

  @Test
  void workersCompleteEveryJobThroughCompleteBatchOneCallInFlightEach() throws Exception {
    bench.queues.completeBatchMillis = 2;

    BenchHarness.Result result =
        bench.run(
            "bench",
            "end-to-end",
            "--jobs",
            "1500",
            "--workers",
            "2",
            "--worker-concurrency",
            "40",
            "--json");

    assertThat(result.exitCode()).as(result.err()).isZero();
    String queue = onlyResult(result).getFieldsOrThrow("queue").getStringValue();
    assertThat(bench.queues.stats(queue).getSucceeded()).isEqualTo(1500);
    assertThat(bench.queues.completeBatchSizes.stream().mapToInt(Integer::intValue).sum())
        .isEqualTo(1500);
    assertThat(bench.queues.completeBatchSizes)
        .allSatisfy(size -> assertThat(size).isBetween(1, 40));
    assertThat(bench.queues.maxCompleteBatchesInFlight()).isEqualTo(1);
    assertThat(bench.queues.unaryCompletes).hasValue(0);
    assertThat(result.err()).doesNotContain(FALLBACK_WARNING);
  }

  @Test
  void drainingCompletesInBatchesToo() throws Exception {
    BenchHarness.Result result = bench.run("bench", "batch", "--jobs", "2500", "--json");

    assertThat(result.exitCode()).as(result.err()).isZero();
    String queue = onlyResult(result).getFieldsOrThrow("queue").getStringValue();
    assertThat(bench.queues.stats(queue).getSucceeded()).isEqualTo(2500);
    assertThat(bench.queues.completeBatchSizes.stream().mapToInt(Integer::intValue).sum())
        .isEqualTo(2500);
    assertThat(bench.queues.unaryCompletes).hasValue(0);
  }

  @Test
  void aCoordinatorWithoutCompleteBatchGetsOneCompletePerJobAndOneWarning() throws Exception {
    bench.queues.completeBatchUnimplemented = true;

    BenchHarness.Result result =
        bench.run("bench", "end-to-end", "--jobs", "300", "--workers", "3", "--json");

    assertThat(result.exitCode()).as(result.err()).isZero();
    String queue = onlyResult(result).getFieldsOrThrow("queue").getStringValue();
    assertThat(bench.queues.stats(queue).getSucceeded()).isEqualTo(300);
    assertThat(bench.queues.unaryCompletes).hasValue(300);
    // Each worker may have had one batch refused before the first refusal was known to all.
    assertThat(bench.queues.completeBatchCalls.get()).isBetween(1, 3);
    assertThat(result.err()).containsOnlyOnce(FALLBACK_WARNING);
  }

  @Test
  void theFallbackLastsForTheRestOfTheRun() throws Exception {
    bench.queues.completeBatchUnimplemented = true;

    BenchHarness.Result result =
        bench.run(
            "bench",
            "all",
            "--jobs",
            "100",
            "--workers",
            "1",
            "--rate",
            "100",
            "--duration",
            "500ms",
            "--no-progress",
            "--json");

    assertThat(result.exitCode()).as(result.err()).isZero();
    assertThat(bench.queues.completeBatchCalls).hasValue(1);
    // Four scenarios of 100 jobs, enqueue-1's and enqueue-50's 100 warm-up calls each, latency's
    // 50 measured and 100 sent in its warm-up second.
    assertThat(bench.queues.unaryCompletes).hasValue(4 * 100 + 2 * 100 + 50 + 100);
    assertThat(result.err()).containsOnlyOnce(FALLBACK_WARNING);
  }

  @Test
  void aLostLeaseInTheFallbackFailsTheRunWithTheCallAndStatus() {
    bench.queues.completeBatchUnimplemented = true;
    bench.queues.loseLeases = true;

    BenchHarness.Result result = bench.run("bench", "end-to-end", "--jobs", "20");

    assertThat(result.exitCode()).isEqualTo(1);
    assertThat(result.err())
        .containsPattern(
            "antrean bench: in-process worker bench-\\d+-bench-[0-9a-f]{8}-\\d: Complete"
                + " of job \\d+ failed: FAILED_PRECONDITION: lease lost");
  }

  private static Struct onlyResult(BenchHarness.Result result) throws Exception {
    Struct.Builder document = Struct.newBuilder();
    JsonFormat.parser().merge(result.out(), document);
    List<Value> rows = document.build().getFieldsOrThrow("results").getListValue().getValuesList();
    assertThat(rows).hasSize(1);
    return rows.get(0).getStructValue();
  }
}
