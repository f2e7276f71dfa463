package io.antrean.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class BenchSettingsTest {

  private static BenchSettings settings(Integer jobs, String queue, Integer workers) {
    return settings(jobs, queue, workers, 0);
  }

  private static BenchSettings settings(Integer jobs, String queue, Integer workers, int backlog) {
    return settings(jobs, queue, workers, backlog, null);
  }

  private static BenchSettings settings(
      Integer jobs, String queue, Integer workers, int backlog, Integer warmUpJobs) {
    return new BenchSettings(
        jobs,
        50,
        500,
        Duration.ofSeconds(10),
        100,
        queue,
        workers,
        false,
        25,
        25,
        null,
        Duration.ofSeconds(60),
        true,
        true,
        warmUpJobs,
        false,
        backlog);
  }

  @Test
  void eachScenarioHasItsDefaultJobCountUnlessJobsIsGiven() {
    assertThat(settings(null, null, null).jobsFor(Scenario.ENQUEUE_1)).isEqualTo(2_000);
    assertThat(settings(null, null, null).jobsFor(Scenario.BATCH)).isEqualTo(100_000);
    assertThat(settings(300, null, null).jobsFor(Scenario.END_TO_END)).isEqualTo(300);
  }

  @Test
  void latencySendsRateTimesDurationWhateverJobsSays() {
    assertThat(settings(300, null, null).jobsFor(Scenario.LATENCY)).isEqualTo(5_000);
  }

  @Test
  void eachScenarioGetsAFreshQueueUnlessOneIsNamed() {
    BenchSettings fresh = settings(null, null, null);

    assertThat(fresh.queueForScenario())
        .matches("bench-[0-9a-f]{8}")
        .isNotEqualTo(fresh.queueForScenario());
    assertThat(settings(null, "bench", null).queueForScenario()).isEqualTo("bench");
  }

  @Test
  void endToEndExpectsExternalWorkersOnlyOnANamedQueue() {
    assertThat(settings(null, null, null).workersFor(Scenario.END_TO_END)).isEqualTo(2);
    assertThat(settings(null, "bench", null).workersFor(Scenario.END_TO_END)).isZero();
    assertThat(settings(null, "bench", 4).workersFor(Scenario.END_TO_END)).isEqualTo(4);
    assertThat(settings(null, "bench", null).workersFor(Scenario.LATENCY)).isEqualTo(2);
  }

  @Test
  void onlyFreshQueuesAreDrainedAndNeverByZeroWorkers() {
    assertThat(settings(null, null, 0).drainsQueue()).isTrue();
    assertThat(settings(null, null, 0).drainWorkers()).isEqualTo(2);
    assertThat(settings(null, "bench", null).drainsQueue()).isFalse();
  }

  @Test
  void combinationsThatCannotWorkAreRefusedWithTheOptionsNamed() {
    assertThatThrownBy(() -> settings(null, null, 0).checkFor(Scenario.LATENCY))
        .hasMessageContaining("(--worker-processes 0) needs --queue");
    assertThatThrownBy(() -> settings(null, null, 0).checkFor(Scenario.END_TO_END))
        .hasMessageContaining("(--worker-processes 0) needs --queue");
    settings(null, "bench", 0).checkFor(Scenario.END_TO_END);
    settings(null, "bench", 0).checkFor(Scenario.LATENCY);
  }

  @Test
  void leaseRunsItsDefaultRoundsAndNoMoreThanTheBacklogHolds() {
    assertThat(settings(null, null, null).jobsFor(Scenario.LEASE)).isEqualTo(2_000);
    settings(null, null, null, 0).checkFor(Scenario.LEASE);
    settings(null, null, null, 2_000).checkFor(Scenario.LEASE);
    assertThatThrownBy(() -> settings(null, null, null, 1_999).checkFor(Scenario.LEASE))
        .hasMessage(
            "lease with --backlog 1999 can run at most that many rounds, not --jobs 2000: each"
                + " round leases one backlog job");
    settings(null, null, null, 1_999).checkFor(Scenario.BATCH);
  }

  @Test
  void allLeavesOutLeaseWhichRunsOnlyByName() {
    assertThat(Scenario.select("all"))
        .containsExactly(
            Scenario.ENQUEUE_1,
            Scenario.ENQUEUE_50,
            Scenario.BATCH,
            Scenario.END_TO_END,
            Scenario.LATENCY);
    assertThat(Scenario.select(" Lease ")).containsExactly(Scenario.LEASE);
  }

  @Test
  void rangesAreChecked() {
    assertThatThrownBy(() -> settings(0, null, null)).hasMessageStartingWith("--jobs");
    assertThatThrownBy(() -> settings(null, "a b", null)).hasMessageStartingWith("--queue");
    assertThatThrownBy(() -> settings(null, null, 65)).hasMessageStartingWith("--worker-processes");
    assertThatThrownBy(() -> settings(null, null, null, -1)).hasMessageStartingWith("--backlog");
    assertThatThrownBy(() -> settings(null, null, null, 0, -1))
        .hasMessageStartingWith("--warm-up-jobs");
  }

  @Test
  void latencyWarmsUpForOneSecondAtTheRateUnlessWarmUpJobsSays() {
    // The rate is 500 jobs/s.
    assertThat(settings(null, null, null).latencyWarmUpJobs()).isEqualTo(500);
    assertThat(settings(null, null, null, 0, 10_000).latencyWarmUpJobs()).isEqualTo(10_000);
    assertThat(settings(null, null, null, 0, 0).latencyWarmUpJobs()).isZero();
  }

  @Test
  void endToEndWarmsUpWithAtMost2000JobsUnlessWarmUpJobsSays() {
    assertThat(settings(null, null, null).warmUpJobsFor(20_000)).isEqualTo(2_000);
    assertThat(settings(null, null, null).warmUpJobsFor(300)).isEqualTo(300);
    assertThat(settings(null, null, null, 0, 40_000).warmUpJobsFor(20_000)).isEqualTo(40_000);
    assertThat(settings(null, null, null, 0, 0).warmUpJobsFor(20_000)).isZero();
  }
}
