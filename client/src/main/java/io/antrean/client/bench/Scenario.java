package io.antrean.client.bench;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/** The measurements {@code antrean bench} can make, in the order {@code all} runs them. */
enum Scenario {
  /** Unary Enqueue calls, one in flight: the latency of a single durable write. */
  ENQUEUE_1("enqueue-1", 2_000),
  /** Unary Enqueue calls, many in flight: what group commit buys. */
  ENQUEUE_50("enqueue-50", 20_000),
  /** EnqueueBatch calls of up to 1,000 jobs. */
  BATCH("batch", 100_000),
  /** Jobs enqueued in batches and run by no-op workers, first enqueue to last completion. */
  END_TO_END("end-to-end", 20_000),
  /** Enqueues at a steady rate; the time from sending each Enqueue to a worker leasing the job. */
  LATENCY("latency", 0);

  /** What {@code all} stands for on the command line. */
  static final String ALL = "all";

  private final String label;
  private final int defaultJobs;

  Scenario(String label, int defaultJobs) {
    this.label = label;
    this.defaultJobs = defaultJobs;
  }

  /** The scenario's name on the command line and in results. */
  String label() {
    return label;
  }

  /** How many jobs the scenario sends without {@code --jobs}; 0 when it runs for a duration. */
  int defaultJobs() {
    return defaultJobs;
  }

  /**
   * The scenarios a command-line name stands for: one, or every one for {@code all}.
   *
   * @throws IllegalArgumentException for an unknown name; the message lists the known ones
   */
  static List<Scenario> select(String name) {
    String wanted = name.trim().toLowerCase(Locale.ROOT);
    if (wanted.equals(ALL)) {
      return List.of(values());
    }
    for (Scenario scenario : values()) {
      if (scenario.label.equals(wanted)) {
        return List.of(scenario);
      }
    }
    throw new IllegalArgumentException(
        "unknown scenario '" + name + "'; choose one of " + names() + " or " + ALL);
  }

  /** Every scenario's name, comma-separated, for help and messages. */
  static String names() {
    return Arrays.stream(values()).map(Scenario::label).collect(Collectors.joining(", "));
  }
}
