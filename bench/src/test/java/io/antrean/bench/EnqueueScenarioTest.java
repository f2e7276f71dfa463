package io.antrean.bench;

import static io.antrean.bench.BenchJson.onlyResult;
import static io.antrean.bench.BenchJson.results;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Struct;
import io.antrean.client.AntreanException;
import io.grpc.Status;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** enqueue-50's pipelined sending, on top of what {@link BenchCommandTest} covers. */
@Timeout(30)
class EnqueueScenarioTest {
  private final BenchHarness bench = BenchHarness.inProcess();

  @AfterEach
  void stop() throws InterruptedException {
    bench.close();
  }

  @Test
  void pipelinedEnqueuesStoreEveryJobAndMeasureEveryCall() throws Exception {
    bench.queues.enqueueMillis = 1;

    BenchHarness.Result result =
        bench.run("enqueue-50", "--jobs", "300", "--concurrency", "6", "--json");

    assertThat(result.exitCode()).as(result.err()).isZero();
    Struct row = onlyResult(result);
    String queue = row.getFieldsOrThrow("queue").getStringValue();
    assertThat(row.getFieldsOrThrow("concurrency").getNumberValue()).isEqualTo(6);
    Struct latency = row.getFieldsOrThrow("latency").getStructValue();
    assertThat(latency.getFieldsOrThrow("count").getNumberValue()).isEqualTo(300);
    assertThat(latency.getFieldsOrThrow("of").getStringValue()).isEqualTo("Enqueue call");
    // The 300 measured calls follow 300 unmeasured warm-up calls made the same way.
    assertThat(bench.queues.enqueueCalls.get()).isEqualTo(300 + 300);
    assertThat(bench.queues.maxEnqueuesInFlight.get()).isBetween(2, 6);
    assertThat(bench.queues.stats(queue).getSucceeded()).isEqualTo(300 + 300);
  }

  @Test
  void concurrencyIsCappedByTheJobCount() throws Exception {
    BenchHarness.Result result =
        bench.run("enqueue-50", "--jobs", "3", "--concurrency", "50", "--json");

    assertThat(result.exitCode()).as(result.err()).isZero();
    assertThat(onlyResult(result).getFieldsOrThrow("concurrency").getNumberValue()).isEqualTo(3);
    assertThat(bench.queues.enqueueCalls.get()).isEqualTo(3 + 3); // with the warm-up
  }

  @Test
  void theFirstFailureStopsSendingAndEscapesTranslated() throws Exception {
    int concurrency = 4;
    int firstRefused = 20;
    AtomicInteger arrived = new AtomicInteger();
    bench.queues.admission =
        request -> {
          if (arrived.incrementAndGet() >= firstRefused) {
            throw Status.RESOURCE_EXHAUSTED.withDescription("queue full").asRuntimeException();
          }
          return request;
        };

    BenchHarness.Result result =
        bench.run(
            "enqueue-50",
            "--jobs",
            "5000",
            "--concurrency",
            Integer.toString(concurrency),
            "--json");

    assertThat(result.exitCode()).isEqualTo(1);
    assertThat(bench.escaped)
        .singleElement()
        .isInstanceOfSatisfying(
            AntreanException.class,
            e -> {
              assertThat(e.statusCode()).isEqualTo(Status.Code.RESOURCE_EXHAUSTED);
              assertThat(e.description()).isEqualTo("queue full");
            });
    // Only successful answers free permits before the failure is seen, so at most the calls that
    // succeeded plus the permits were ever sent.
    assertThat(bench.queues.enqueueCalls.get())
        .isBetween(firstRefused, firstRefused - 1 + concurrency);
    assertThat(results(result)).isEmpty();
  }
}
