package io.antrean.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Struct;
import com.google.protobuf.util.JsonFormat;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class QueueDrainTest {
  private final BenchHarness bench = BenchHarness.inProcess();

  @AfterEach
  void stop() throws InterruptedException {
    bench.close();
  }

  @Test
  void drainingGoesOnPastWaitWhileJobsKeepFinishing() throws Exception {
    // One job in flight and a slow CompleteBatch: draining 300 jobs outlasts --wait several times.
    bench.queues.completeBatchMillis = 5;

    BenchHarness.Result result =
        bench.run(
            "batch",
            "--jobs",
            "300",
            "--worker-processes",
            "1",
            "--worker-concurrency",
            "1",
            "--worker-prefetch",
            "0",
            "--wait",
            "500ms",
            "--json");

    assertThat(result.exitCode()).as(result.err()).isZero();
    assertThat(result.err()).doesNotContain("gave up");
    Struct.Builder document = Struct.newBuilder();
    JsonFormat.parser().merge(result.out(), document);
    String queue =
        document
            .getFieldsOrThrow("results")
            .getListValue()
            .getValues(0)
            .getStructValue()
            .getFieldsOrThrow("queue")
            .getStringValue();
    assertThat(bench.queues.stats(queue).getSucceeded()).isEqualTo(300);
    assertThat(bench.queues.completeBatchSizes).hasSize(300).containsOnly(1);
  }
}
