package io.antrean.bench;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The measurements {@code antrean bench} can make, in the order {@code all} runs them; {@code all}
 * leaves out {@link #LEASE}, which answers a narrower question and may take long to set up.
 */
enum Scenario {
  /** Unary Enqueue calls, one in flight: the latency of a single durable write. */
  ENQUEUE_1("enqueue-1", 2_000, true),
  /** Unary Enqueue calls, many in flight: what group commit buys. */
  ENQUEUE_50("enqueue-50", 20_000, true),
  /** EnqueueBatch calls of up to 1,000 jobs. */
  BATCH("batch", 100_000, true),
  /** Jobs enqueued in batches and run by no-op workers, first enqueue to last completion. */
  END_TO_END("end-to-end", 20_000, true),
  /** Enqueues at a steady rate; the time from sending each Enqueue to a worker leasing the job. */
  LATENCY("latency", 0, true),
  /**
   * Lease calls, one job each, against a queue holding a backlog of pending jobs: whether leasing
   * stays fast however much is waiting. Not part of {@code all}.
   */
  LEASE("lease", 2_000, false);

  /** What {@code all} stands for on the command line. */
  static final String ALL = "all";

  private final String label;
  private final int defaultJobs;
  private final boolean inAll;

  Scenario(String label, int defaultJobs, boolean inAll) {
    this.label = label;
    this.defaultJobs = defaultJobs;
    this.inAll = inAll;
  }

  /** The scenario's name on the command line and in results. */
  String label() {
    return label;
  }

  /**
   * How many jobs the scenario sends (for lease: how many rounds it runs) without {@code --jobs}; 0
   * when it runs for a duration.
   */
  int defaultJobs() {
    return defaultJobs;
  }

  /**
   * The scenarios a command-line name stands for: one, or for {@code all} every one but {@link
   * #LEASE}.
   *
   * @throws IllegalArgumentException for an unknown name; the message lists the known ones
   */
  static List<Scenario> select(String name) {
    String wanted = name.trim().toLowerCase(Locale.ROOT);
    if (wanted.equals(ALL)) {
      return Arrays.stream(values()).filter(scenario -> scenario.inAll).toList();
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
