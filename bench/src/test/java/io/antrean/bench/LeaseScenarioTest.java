package io.antrean.bench;

import static io.antrean.bench.BenchJson.onlyResult;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Struct;
import io.antrean.proto.v1.LeaseRequest;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class LeaseScenarioTest {
  private final BenchHarness bench = BenchHarness.inProcess();

  @AfterEach
  void stop() throws InterruptedException {
    bench.close();
  }

  @Test
  void withABacklogEachRoundLeasesOneBacklogJobAndTheRestIsDrained() throws Exception {
    BenchHarness.Result result = bench.run("lease", "--backlog", "2500", "--jobs", "100", "--json");

    assertThat(result.exitCode()).as(result.err()).isZero();
    Struct row = onlyResult(result);
    String queue = row.getFieldsOrThrow("queue").getStringValue();
    assertThat(queue).matches("bench-[0-9a-f]{8}");
    assertThat(row.getFieldsOrThrow("scenario").getStringValue()).isEqualTo("lease");
    assertThat(row.getFieldsOrThrow("jobs").getNumberValue()).isEqualTo(100);
    assertThat(row.getFieldsOrThrow("concurrency").getNumberValue()).isEqualTo(1);
    assertThat(row.getFieldsOrThrow("workers").getStringValue()).isEqualTo("-");
    Struct latency = row.getFieldsOrThrow("latency").getStructValue();
    assertThat(latency.getFieldsOrThrow("count").getNumberValue()).isEqualTo(100);
    assertThat(latency.getFieldsOrThrow("of").getStringValue())
        .startsWith("Lease call with 2500 jobs pending");
    assertThat(bench.queues.batchSizes).containsExactly(1000, 1000, 500);
    assertThat(bench.queues.enqueueCalls).hasValue(0);
    assertThat(leasesOfTheScenario()).hasSize(100).allSatisfy(this::isOneJobWithoutWaiting);
    assertThat(bench.queues.unaryCompletes).hasValue(100);
    assertThat(bench.queues.completeBatchSizes.stream().mapToInt(Integer::intValue).sum())
        .isEqualTo(2400);
    assertThat(bench.queues.stats(queue).getSucceeded()).isEqualTo(2500);
    assertThat(bench.queues.stats(queue).getPending()).isZero();
  }

  @Test
  void withoutABacklogEachRoundEnqueuesTheJobItLeases() throws Exception {
    BenchHarness.Result result = bench.run("lease", "--jobs", "50", "--json");

    assertThat(result.exitCode()).as(result.err()).isZero();
    String queue = onlyResult(result).getFieldsOrThrow("queue").getStringValue();
    assertThat(bench.queues.enqueueCalls).hasValue(50);
    assertThat(bench.queues.batchSizes).isEmpty();
    assertThat(bench.queues.leaseWorkers).hasSize(50).containsOnly(LeaseScenario.WORKER_ID);
    assertThat(bench.queues.unaryCompletes).hasValue(50);
    assertThat(bench.queues.stats(queue).getSucceeded()).isEqualTo(50);
    assertThat(bench.queues.stats(queue).getPending()).isZero();
  }

  @Test
  void noDrainLeavesWhatIsLeftOfTheBacklog() throws Exception {
    BenchHarness.Result result =
        bench.run("lease", "--backlog", "300", "--jobs", "100", "--no-drain", "--json");

    assertThat(result.exitCode()).as(result.err()).isZero();
    String queue = onlyResult(result).getFieldsOrThrow("queue").getStringValue();
    assertThat(bench.queues.stats(queue).getPending()).isEqualTo(200);
    assertThat(bench.queues.stats(queue).getSucceeded()).isEqualTo(100);
    assertThat(bench.queues.leaseWorkers).containsOnly(LeaseScenario.WORKER_ID);
  }

  @Test
  void theTableSaysTheBacklogInTheLatencyLine() {
    BenchHarness.Result result =
        bench.run("lease", "--backlog", "30", "--jobs", "30", "--no-progress");

    assertThat(result.exitCode()).as(result.err()).isZero();
    List<String> lines = result.out().lines().toList();
    assertThat(lines.get(1)).matches("lease +bench-[0-9a-f]{8} +30 +1 +- +[0-9.]+ .*");
    assertThat(lines.get(2))
        .isEqualTo(
            "latency measured: lease: Lease call with 30 jobs pending; seconds and jobs/s: in"
                + " Lease calls only");
  }

  @Test
  void theLatencyLineCountsWhatAGivenQueueAlreadyHeld() {
    BenchHarness.Result filled =
        bench.run("batch", "--queue", "held", "--jobs", "40", "--no-drain", "--json");
    assertThat(filled.exitCode()).as(filled.err()).isZero();

    BenchHarness.Result result =
        bench.run("lease", "--queue", "held", "--jobs", "10", "--no-progress");

    assertThat(result.exitCode()).as(result.err()).isZero();
    assertThat(result.out().lines().toList().get(2))
        .startsWith("latency measured: lease: Lease call with 40 jobs pending;");
  }

  @Test
  void moreRoundsThanTheBacklogHoldsIsAUsageError() {
    BenchHarness.Result result = bench.run("lease", "--backlog", "10", "--jobs", "20");

    assertThat(result.exitCode()).isEqualTo(2);
    assertThat(result.err()).contains("lease with --backlog 10 can run at most that many rounds");
    assertThat(bench.targets).isEmpty();
  }

  @Test
  void aLeaseThatFindsNoJobFailsTheRun() {
    // The enqueued job is gone at once, as if another worker had taken it.
    bench.queues.externalWorkers = true;

    BenchHarness.Result result = bench.run("lease", "--jobs", "5");

    assertThat(result.exitCode()).isEqualTo(1);
    assertThat(result.err())
        .containsPattern(
            "antrean bench: lease: round 1: Lease found no bench.noop job in queue"
                + " bench-[0-9a-f]{8}; is another worker leasing from it\\?");
    assertThat(result.out()).isEmpty();
  }

  @Test
  void aFailedCompleteFailsTheRunWithTheCallAndStatus() {
    bench.queues.loseLeases = true;

    BenchHarness.Result result = bench.run("lease", "--jobs", "5");

    assertThat(result.exitCode()).isEqualTo(1);
    assertThat(result.err())
        .containsPattern(
            "antrean bench: lease: Complete of job \\d+ failed: FAILED_PRECONDITION: lease lost");
  }

  private List<LeaseRequest> leasesOfTheScenario() {
    return bench.queues.leaseRequests.stream()
        .filter(request -> request.getWorkerId().equals(LeaseScenario.WORKER_ID))
        .toList();
  }

  private void isOneJobWithoutWaiting(LeaseRequest request) {
    assertThat(request.getMaxJobs()).isEqualTo(1);
    assertThat(request.hasWait()).isTrue();
    assertThat(request.getWait().getSeconds()).isZero();
    assertThat(request.getWait().getNanos()).isZero();
    assertThat(request.getTypesList()).containsExactly(BenchSettings.JOB_TYPE);
  }
}
