package io.antrean.bench;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.ListValue;
import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import com.google.protobuf.util.JsonFormat;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Prints results as a table for people or as one JSON document for scripts. The JSON is a {@link
 * Struct} printed by {@link JsonFormat}, so it is always well formed; its numbers are JSON numbers
 * (whole ones print with {@code .0}). Stateless.
 */
final class ResultReport {
  private static final String[] HEADERS = {
    "SCENARIO",
    "QUEUE",
    "JOBS",
    "CONCURRENCY",
    "WORKERS",
    "SECONDS",
    "JOBS/S",
    "P50 MS",
    "P90 MS",
    "P99 MS",
    "MAX MS"
  };
  // Text columns are left-aligned, numbers right-aligned.
  private static final boolean[] LEFT_ALIGNED = {
    true, true, false, false, true, false, false, false, false, false, false
  };

  private ResultReport() {}

  /** The results as a table, then a line saying what each latency measured. */
  static void printTable(List<BenchResult> results, PrintWriter out) {
    List<String[]> rows = new ArrayList<>();
    rows.add(HEADERS);
    List<String> legend = new ArrayList<>();
    for (BenchResult result : results) {
      rows.add(row(result));
      if (result.latency() != null) {
        legend.add(result.scenario().label() + ": " + result.latencyOf());
      }
    }
    int[] widths = new int[HEADERS.length];
    for (String[] row : rows) {
      for (int c = 0; c < row.length; c++) {
        widths[c] = Math.max(widths[c], row[c].length());
      }
    }
    for (String[] row : rows) {
      StringBuilder line = new StringBuilder();
      for (int c = 0; c < row.length; c++) {
        String padding = " ".repeat(widths[c] - row[c].length());
        line.append(c == 0 ? "" : "  ");
        line.append(LEFT_ALIGNED[c] ? row[c] + padding : padding + row[c]);
      }
      out.println(line.toString().stripTrailing());
    }
    if (!legend.isEmpty()) {
      out.println("latency measured: " + String.join("; ", legend));
    }
  }

  private static String[] row(BenchResult result) {
    LatencySummary latency = result.latency();
    return new String[] {
      result.scenario().label(),
      result.queue(),
      Long.toString(result.jobs()),
      Integer.toString(result.concurrency()),
      result.workers(),
      format("%.3f", result.seconds()),
      format("%.0f", result.jobsPerSecond()),
      latency == null ? "-" : millis(latency.p50Nanos()),
      latency == null ? "-" : millis(latency.p90Nanos()),
      latency == null ? "-" : millis(latency.p99Nanos()),
      latency == null ? "-" : millis(latency.maxNanos())
    };
  }

  /** The results as one indented JSON document: {@code {"coordinator": …, "results": […]}}. */
  static String json(String coordinator, List<BenchResult> results) {
    ListValue.Builder list = ListValue.newBuilder();
    results.forEach(result -> list.addValues(struct(toStruct(result))));
    Struct document =
        Struct.newBuilder()
            .putFields("coordinator", text(coordinator))
            .putFields("results", Value.newBuilder().setListValue(list).build())
            .build();
    try {
      return JsonFormat.printer().print(document);
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalStateException("a Struct always prints", e);
    }
  }

  /** One result as a Struct; {@code latency} is left out when the scenario measures none. */
  static Struct toStruct(BenchResult result) {
    Struct.Builder fields =
        Struct.newBuilder()
            .putFields("scenario", text(result.scenario().label()))
            .putFields("queue", text(result.queue()))
            .putFields("jobs", number(result.jobs()))
            .putFields("concurrency", number(result.concurrency()))
            .putFields("workers", text(result.workers()))
            .putFields("seconds", number(round(result.seconds(), 1e6)))
            .putFields("jobsPerSecond", number(round(result.jobsPerSecond(), 10)));
    LatencySummary latency = result.latency();
    if (latency != null) {
      Struct latencyFields =
          Struct.newBuilder()
              .putFields("of", text(result.latencyOf()))
              .putFields("count", number(latency.count()))
              .putFields("p50Ms", number(roundMillis(latency.p50Nanos())))
              .putFields("p90Ms", number(roundMillis(latency.p90Nanos())))
              .putFields("p99Ms", number(roundMillis(latency.p99Nanos())))
              .putFields("maxMs", number(roundMillis(latency.maxNanos())))
              .build();
      fields.putFields("latency", struct(latencyFields));
    }
    return fields.build();
  }

  private static String millis(long nanos) {
    return format("%.3f", LatencySummary.millis(nanos));
  }

  private static double roundMillis(long nanos) {
    return round(LatencySummary.millis(nanos), 1000);
  }

  private static double round(double value, double scale) {
    return Math.round(value * scale) / scale;
  }

  private static String format(String pattern, double value) {
    return String.format(Locale.ROOT, pattern, value);
  }

  private static Value text(String value) {
    return Value.newBuilder().setStringValue(value).build();
  }

  private static Value number(double value) {
    return Value.newBuilder().setNumberValue(value).build();
  }

  private static Value struct(Struct value) {
    return Value.newBuilder().setStructValue(value).build();
  }
}
