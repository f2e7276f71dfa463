package io.antrean.bench;

import static io.antrean.bench.BenchJson.onlyResult;
import static io.antrean.bench.BenchJson.parse;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import io.antrean.client.InvalidArgumentException;
import io.grpc.Status;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The bench command through its enqueue and batch scenarios and {@code all}: the table and JSON it
 * prints, and how usage errors and refused calls end a run.
 */
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
}
