package io.antrean.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Struct;
import com.google.protobuf.util.JsonFormat;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class ResultReportTest {
  private static final BenchResult ENQUEUE =
      new BenchResult(
          Scenario.ENQUEUE_50,
          "bench-0a1b2c3d",
          20_000,
          50,
          "-",
          Duration.ofMillis(2_500),
          new LatencySummary(20_000, 1_250_000, 2_000_000, 4_321_000, 12_000_000),
          "Enqueue call");
  private static final BenchResult BATCH =
      new BenchResult(Scenario.BATCH, "bench-99", 100_000, 1, "-", Duration.ofSeconds(4), null, "");

  @Test
  void tableAlignsNumbersRightAndMarksMissingLatencies() {
    StringWriter out = new StringWriter();

    ResultReport.printTable(List.of(ENQUEUE, BATCH), new PrintWriter(out, true));

    assertThat(out.toString().lines())
        .containsExactly(
            "SCENARIO    QUEUE             JOBS  CONCURRENCY  WORKERS  SECONDS  JOBS/S  P50 MS"
                + "  P90 MS  P99 MS  MAX MS",
            "enqueue-50  bench-0a1b2c3d   20000           50  -          2.500    8000   1.250"
                + "   2.000   4.321  12.000",
            "batch       bench-99        100000            1  -          4.000   25000       -"
                + "       -       -       -",
            "latency measured: enqueue-50: Enqueue call");
  }

  @Test
  void jsonIsOneDocumentWithEveryResult() throws Exception {
    String json = ResultReport.json("127.0.0.1:7400", List.of(ENQUEUE, BATCH));

    Struct.Builder parsed = Struct.newBuilder();
    JsonFormat.parser().merge(json, parsed);
    Struct document = parsed.build();
    assertThat(document.getFieldsOrThrow("coordinator").getStringValue())
        .isEqualTo("127.0.0.1:7400");
    Struct first =
        document.getFieldsOrThrow("results").getListValue().getValues(0).getStructValue();
    assertThat(first).isEqualTo(ResultReport.toStruct(ENQUEUE));
    assertThat(first.getFieldsOrThrow("jobsPerSecond").getNumberValue()).isEqualTo(8000);
    Struct latency = first.getFieldsOrThrow("latency").getStructValue();
    assertThat(latency.getFieldsOrThrow("p99Ms").getNumberValue()).isEqualTo(4.321);
    assertThat(latency.getFieldsOrThrow("maxMs").getNumberValue()).isEqualTo(12.0);
    Struct second =
        document.getFieldsOrThrow("results").getListValue().getValues(1).getStructValue();
    assertThat(second.containsFields("latency")).isFalse();
    assertThat(second.getFieldsOrThrow("seconds").getNumberValue()).isEqualTo(4.0);
  }
}
