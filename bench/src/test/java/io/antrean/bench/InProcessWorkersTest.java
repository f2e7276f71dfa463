package io.antrean.bench;

import static io.antrean.bench.BenchJson.onlyResult;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The in-process workers are the worker library's: they report finished jobs as it does (natural
 * CompleteBatch batching, one call in flight per worker, unary Completes from a coordinator without
 * CompleteBatch), seen from the fake coordinator.
 */
@Timeout(60)
class InProcessWorkersTest {
  private final BenchHarness bench = BenchHarness.inProcess();

  @AfterEach
  void stop() throws InterruptedException {
    bench.close();
  }

  @Test
  void workersCompleteEveryJobThroughCompleteBatchOneCallInFlightEach() throws Exception {
    bench.queues.completeBatchMillis = 2;

    BenchHarness.Result result =
        bench.run(
            "end-to-end",
            "--jobs",
            "1500",
            "--worker-processes",
            "2",
            "--in-process-workers",
            "--worker-concurrency",
            "40",
            "--json");

    assertThat(result.exitCode()).as(result.err()).isZero();
    String queue = onlyResult(result).getFieldsOrThrow("queue").getStringValue();
    // 1,500 warm-up jobs and 1,500 measured ones.
    assertThat(bench.queues.stats(queue).getSucceeded()).isEqualTo(3000);
    assertThat(bench.queues.completeBatchSizes.stream().mapToInt(Integer::intValue).sum())
        .isEqualTo(3000);
    // 40 handler threads, and by default up to 40 jobs leased ahead of them.
    assertThat(bench.queues.completeBatchSizes)
        .allSatisfy(size -> assertThat(size).isBetween(1, 80));
    assertThat(bench.queues.maxCompleteBatchesInFlight.get()).isEqualTo(1);
    assertThat(bench.queues.unaryCompletes).hasValue(0);
  }

  @Test
  void drainingCompletesInBatchesToo() throws Exception {
    BenchHarness.Result result = bench.run("batch", "--jobs", "2500", "--json");

    assertThat(result.exitCode()).as(result.err()).isZero();
    String queue = onlyResult(result).getFieldsOrThrow("queue").getStringValue();
    assertThat(bench.queues.stats(queue).getSucceeded()).isEqualTo(2500);
    assertThat(bench.queues.completeBatchSizes.stream().mapToInt(Integer::intValue).sum())
        .isEqualTo(2500);
    assertThat(bench.queues.unaryCompletes).hasValue(0);
  }

  @Test
  void aCoordinatorWithoutCompleteBatchGetsOneCompletePerJob() throws Exception {
    bench.queues.completeBatchUnimplemented = true;

    BenchHarness.Result result =
        bench.run(
            "end-to-end",
            "--jobs",
            "300",
            "--worker-processes",
            "3",
            "--in-process-workers",
            "--json");

    assertThat(result.exitCode()).as(result.err()).isZero();
    String queue = onlyResult(result).getFieldsOrThrow("queue").getStringValue();
    assertThat(bench.queues.stats(queue).getSucceeded()).isEqualTo(600);
    assertThat(bench.queues.unaryCompletes).hasValue(600);
    // Each worker may have had one batch refused before it knew.
    assertThat(bench.queues.completeBatchCalls.get()).isBetween(1, 3);
  }
}
