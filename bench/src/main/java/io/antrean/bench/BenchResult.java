package io.antrean.bench;

import java.time.Duration;
import javax.annotation.Nullable;

/**
 * What one scenario measured. Immutable.
 *
 * @param scenario which measurement
 * @param queue the queue the jobs went to
 * @param jobs how many jobs were measured (for lease: how many Lease calls)
 * @param concurrency how many enqueue calls were in flight at most
 * @param workers who ran the jobs: {@code "-"} (nobody, during the measurement), {@code "2x25"}
 *     (in-process no-op workers times their lease slots) or {@code "external"}
 * @param elapsed the measured time: all calls for the enqueue scenarios, first enqueue to last
 *     completion for end-to-end, the sending time for latency, the time spent in Lease calls for
 *     lease
 * @param latency the latency percentiles, or {@code null} when the scenario measures none
 * @param latencyOf what {@code latency} measures, e.g. {@code "Enqueue call"}; empty when none
 */
record BenchResult(
    Scenario scenario,
    String queue,
    long jobs,
    int concurrency,
    String workers,
    Duration elapsed,
    @Nullable LatencySummary latency,
    String latencyOf) {

  /** The measured time in seconds. */
  double seconds() {
    return elapsed.toNanos() / 1e9;
  }

  /** Jobs per second over the measured time; 0 if no time passed. */
  double jobsPerSecond() {
    long nanos = elapsed.toNanos();
    return nanos <= 0 ? 0 : jobs * 1e9 / nanos;
  }
}
