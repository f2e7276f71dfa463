package io.antrean.coordinator.store.postgres;

import static io.antrean.coordinator.store.TestJobs.QUEUE;
import static io.antrean.coordinator.store.TestJobs.T0;
import static io.antrean.coordinator.store.TestJobs.job;
import static io.antrean.coordinator.store.TestJobs.spec;
import static org.assertj.core.api.Assertions.assertThat;

import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.job.JobState;
import io.antrean.coordinator.store.Concurrently;
import io.antrean.coordinator.store.LeaseClaim;
import io.antrean.coordinator.store.LeaseSpec;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Dependencies with two store instances on one database, as two coordinators see them: two
 * dependencies of one job completed at the same moment through different stores release it exactly
 * once, whichever commits first.
 */
class PostgresDependencyTest {
  @RegisterExtension static final TestPostgres postgres = new TestPostgres();

  private static final int ROUNDS = 10;

  private PostgresJobStore first;
  private PostgresJobStore second;

  @BeforeEach
  void openTwoStoresOnOneSchema() {
    PostgresOptions options = postgres.freshSchema();
    first = PostgresJobStore.open(options);
    second = PostgresJobStore.open(options);
  }

  @AfterEach
  void closeBoth() {
    first.close();
    second.close();
  }

  private static Instant at(long seconds) {
    return T0.plusSeconds(seconds);
  }

  @Test
  @Timeout(120)
  void twoDependenciesCompletedAtOnceThroughTwoStoresReleaseTheDependentOnce() throws Exception {
    for (int round = 0; round < ROUNDS; round++) {
      Instant now = at(round * 100L);
      Job a = first.enqueue(List.of(job("fetch").runAt(now).build()), now).get(0).job();
      Job b = second.enqueue(List.of(job("fetch").runAt(now).build()), now).get(0).job();
      Job c =
          first
              .enqueue(List.of(job("merge").queue("fan-in").dependsOn(a.id(), b.id()).build()), now)
              .get(0)
              .job();
      Job leasedA = first.lease(spec("w1", 1, now.plusSeconds(30)), now).get(0);
      Job leasedB = second.lease(spec("w2", 1, now.plusSeconds(30)), now).get(0);
      assertThat(List.of(leasedA.id(), leasedB.id())).containsExactly(a.id(), b.id());
      List<Runnable> completions = new ArrayList<>();
      completions.add(
          () ->
              first.complete(a.id(), LeaseClaim.of(leasedA), "w1", null, null, now.plusSeconds(1)));
      completions.add(
          () ->
              second.complete(
                  b.id(), LeaseClaim.of(leasedB), "w2", null, null, now.plusSeconds(1)));
      AtomicInteger next = new AtomicInteger();

      Concurrently.run(2, () -> completions.get(next.getAndIncrement()).run());

      Job released = first.get(c.id()).orElseThrow();
      assertThat(released.state()).as("round %d", round).isEqualTo(JobState.PENDING);
      assertThat(first.stats("fan-in", now.plusSeconds(2)).get(0).waiting()).isZero();
      List<Job> leased = new ArrayList<>();
      leased.addAll(
          first.lease(
              new LeaseSpec("w1", "fan-in", Set.of(), 10, now.plusSeconds(60)),
              now.plusSeconds(2)));
      leased.addAll(
          second.lease(
              new LeaseSpec("w2", "fan-in", Set.of(), 10, now.plusSeconds(60)),
              now.plusSeconds(2)));
      assertThat(leased).extracting(Job::id).as("round %d", round).containsExactly(c.id());
      first.complete(
          c.id(),
          LeaseClaim.of(leased.get(0)),
          leased.get(0).lease().workerId(),
          null,
          null,
          now.plusSeconds(3));
    }
    assertThat(first.stats(QUEUE, at(ROUNDS * 100L)).get(0).succeeded()).isEqualTo(2L * ROUNDS);
  }
}
