package io.antrean.coordinator.store.sqlite.young;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.antrean.coordinator.job.DependsOn;
import io.antrean.coordinator.job.JobState;
import io.antrean.coordinator.job.NewJob;
import io.antrean.coordinator.job.RetryPolicy;
import io.antrean.coordinator.store.sqlite.young.YoungChange.Created;
import io.antrean.coordinator.store.sqlite.young.YoungJobs.YoungJob;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The young jobs follow the writer's transaction: an operation rolled back to its savepoint, or a
 * group that does not commit, leaves neither a job in memory nor a record for the log; a lease, a
 * heartbeat and a completion change a young job only as its first lease's holder could, and a
 * replay of their records rebuilds the same jobs.
 */
class YoungJobsTest {
  private static final Instant NOW = Instant.parse("2026-12-07T07:20:00Z");
  private final YoungJobs young = new YoungJobs();

  private static NewJob job(String queue, int priority, Instant runAt) {
    return new NewJob(
        queue,
        "t",
        new byte[0],
        "application/json",
        priority,
        runAt,
        null,
        null,
        RetryPolicy.DEFAULT,
        null,
        null,
        null,
        DependsOn.NONE);
  }

  private static NewJob sized(int payloadBytes) {
    NewJob plain = job("q", 0, NOW);
    return new NewJob(
        plain.queue(),
        plain.type(),
        new byte[payloadBytes],
        plain.contentType(),
        plain.priority(),
        plain.runAt(),
        null,
        null,
        plain.retryPolicy(),
        null,
        null,
        null,
        DependsOn.NONE);
  }

  /** The queue's pending young jobs in pick order, due or not. */
  private static List<YoungJob> pending(YoungJobs jobs, String queue, int atMost) {
    return jobs.due(queue, Set.of(), NOW.plus(Duration.ofDays(1)), atMost);
  }

  private static List<Long> ids(List<YoungJob> jobs) {
    return jobs.stream().map(YoungJob::id).toList();
  }

  @Test
  void aCommittedGroupKeepsItsJobsAndHandsOverTheirRecordsInOrder() {
    young.beginGroup();
    young.create(1, job("q", 0, NOW), NOW);
    young.create(2, job("q", 0, NOW), NOW);

    List<YoungChange> changes = young.commitGroup();

    assertThat(changes).extracting(c -> ((Created) c).jobId()).containsExactly(1L, 2L);
    assertThat(ids(pending(young, "q", 10))).containsExactly(1L, 2L);
    assertThat(young.isEmpty()).isFalse();
  }

  @Test
  void anOperationRolledBackToItsMarkLeavesNothing() {
    young.beginGroup();
    young.create(1, job("q", 0, NOW), NOW);
    int mark = young.mark();
    young.create(2, job("q", 0, NOW), NOW);
    young.create(3, job("other", 0, NOW), NOW);
    young.rollbackTo(mark);
    young.create(4, job("q", 0, NOW), NOW);

    List<YoungChange> changes = young.commitGroup();

    assertThat(changes).extracting(c -> ((Created) c).jobId()).containsExactly(1L, 4L);
    assertThat(ids(pending(young, "q", 10))).containsExactly(1L, 4L);
    assertThat(pending(young, "other", 10)).isEmpty();
    assertThat(young.all()).extracting(YoungJob::id).containsExactly(1L, 4L);
  }

  @Test
  void aGroupThatDoesNotCommitLeavesNothing() {
    young.beginGroup();
    young.create(1, job("q", 0, NOW), NOW);
    young.commitGroup();
    young.beginGroup();
    young.create(2, job("q", 0, NOW), NOW);

    young.abandonGroup();

    assertThat(young.all()).extracting(YoungJob::id).containsExactly(1L);
    young.beginGroup();
    assertThat(young.commitGroup()).isEmpty();
  }

  @Test
  void pendingJobsComeInPriorityThenRunTimeThenIdOrder() {
    young.beginGroup();
    young.create(1, job("q", 0, NOW.plusSeconds(1)), NOW);
    young.create(2, job("q", 5, NOW.plusSeconds(9)), NOW);
    young.create(3, job("q", 0, NOW), NOW);
    young.create(4, job("q", 0, NOW), NOW);
    young.commitGroup();

    assertThat(ids(pending(young, "q", 10))).containsExactly(2L, 3L, 4L, 1L);
    assertThat(ids(pending(young, "q", 2))).containsExactly(2L, 3L);
  }

  @Test
  void aFoldForgetsTheJobsOnlyIfItsGroupCommits() {
    young.beginGroup();
    young.create(1, job("q", 0, NOW), NOW);
    young.commitGroup();

    young.beginGroup();
    young.folded();
    young.create(2, job("q", 0, NOW), NOW);
    young.abandonGroup();
    assertThat(young.all()).extracting(YoungJob::id).containsExactly(1L);
    assertThat(ids(pending(young, "q", 10))).containsExactly(1L);

    young.beginGroup();
    young.folded();
    young.create(3, job("q", 0, NOW), NOW);
    List<YoungChange> changes = young.commitGroup();
    assertThat(changes).extracting(c -> ((Created) c).jobId()).containsExactly(3L);
    assertThat(young.all()).extracting(YoungJob::id).containsExactly(3L);
  }

  @Test
  void aFoldOfTheOldestLeavesTheRestAndTheGroupsRecordsAndIsUndoneWithItsGroup() {
    young.beginGroup();
    for (long id = 1; id <= 5; id++) {
      young.create(id, job(id % 2 == 0 ? "even" : "odd", 0, NOW), NOW);
    }
    young.commitGroup();
    young.beginGroup();
    young.lease(5, "w", new byte[32], NOW.plusSeconds(30), NOW);
    assertThat(young.oldestBeyond(5, Long.MAX_VALUE)).isEmpty();
    List<YoungJob> oldest = young.oldestBeyond(2, Long.MAX_VALUE);
    assertThat(ids(oldest)).containsExactly(1L, 2L, 3L);

    young.folded(oldest);
    assertThat(young.all()).extracting(YoungJob::id).containsExactly(4L, 5L);
    assertThat(young.count("odd", JobState.PENDING)).isZero();
    assertThat(young.count("odd", JobState.RUNNING)).isEqualTo(1);
    young.abandonGroup();

    assertThat(young.all()).extracting(YoungJob::id).containsExactly(1L, 2L, 3L, 4L, 5L);
    assertThat(ids(pending(young, "odd", 10))).containsExactly(1L, 3L, 5L);
    assertThat(young.count("odd", JobState.PENDING)).isEqualTo(3);
    assertThat(young.count("odd", JobState.RUNNING)).isZero();

    young.beginGroup();
    young.lease(5, "w", new byte[32], NOW.plusSeconds(30), NOW);
    young.folded(young.oldestBeyond(2, Long.MAX_VALUE));
    assertThat(young.commitGroup()).extracting(YoungChange::jobId).containsExactly(5L);
    assertThat(young.queues()).containsExactlyInAnyOrder("even", "odd");
    assertThat(young.count("even", JobState.PENDING)).isEqualTo(1);
    assertThat(young.count("odd", JobState.RUNNING)).isEqualTo(1);
  }

  @Test
  void theOldestBeyondABoundOfBytesAreAsManyAsBringItUnder() {
    young.beginGroup();
    for (long id = 1; id <= 4; id++) {
      young.create(id, sized(100), NOW);
    }
    young.commitGroup();

    assertThat(young.bytes()).isEqualTo(400);
    assertThat(ids(young.oldestBeyond(10, 250))).containsExactly(1L, 2L);
    assertThat(young.oldestBeyond(10, 400)).isEmpty();
  }

  @Test
  void theCountsByQueueAndStateFollowEveryChangeAndAFoldOfAll() {
    young.beginGroup();
    young.create(1, job("q", 0, NOW), NOW);
    young.create(2, job("q", 0, NOW), NOW);
    young.create(3, job("r", 0, NOW), NOW);
    young.lease(1, "w", new byte[32], NOW.plusSeconds(30), NOW);
    young.lease(2, "w", new byte[32], NOW.plusSeconds(30), NOW);
    young.succeed(2, YoungJobs.FIRST_TOKEN, null, null, NOW);
    young.commitGroup();

    assertThat(young.count("q", JobState.PENDING)).isZero();
    assertThat(young.count("q", JobState.RUNNING)).isEqualTo(1);
    assertThat(young.count("q", JobState.SUCCEEDED)).isEqualTo(1);
    assertThat(young.count("r", JobState.PENDING)).isEqualTo(1);
    assertThat(young.count("nowhere", JobState.PENDING)).isZero();

    young.beginGroup();
    young.folded();
    young.commitGroup();
    assertThat(young.queues()).isEmpty();
    assertThat(young.count("q", JobState.RUNNING)).isZero();
    assertThat(young.bytes()).isZero();
  }

  @Test
  void changesFoldedInTheirOwnGroupAreNotForTheLog() {
    young.beginGroup();
    young.create(1, job("q", 0, NOW), NOW);
    young.folded();
    young.create(2, job("q", 0, NOW), NOW);

    assertThat(young.commitGroup()).extracting(c -> ((Created) c).jobId()).containsExactly(2L);
  }

  @Test
  void replayRebuildsCreatedJobsWithoutRecordingThemAgain() {
    young.replay(new Created(7, job("q", 0, NOW), NOW));

    assertThat(ids(pending(young, "q", 10))).containsExactly(7L);
    young.beginGroup();
    assertThat(young.commitGroup()).isEmpty();
  }

  @Test
  void changesOutsideAGroupAndADuplicateIdAreRefused() {
    assertThatThrownBy(() -> young.create(1, job("q", 0, NOW), NOW))
        .isInstanceOf(IllegalStateException.class);
    young.beginGroup();
    young.create(1, job("q", 0, NOW), NOW);
    assertThatThrownBy(() -> young.create(1, job("q", 0, NOW), NOW))
        .isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(young::beginGroup).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void aLeaseTakesTheJobOffThePendingHeadUntilItsOperationRollsBack() {
    byte[] digest = {1, 2, 3};
    young.beginGroup();
    young.create(1, job("q", 0, NOW), NOW);
    young.create(2, job("q", 0, NOW), NOW);
    int mark = young.mark();
    YoungJob leased = young.lease(1, "w", digest, NOW.plusSeconds(30), NOW.plusSeconds(1));

    assertThat(leased.state()).isEqualTo(JobState.RUNNING);
    assertThat(leased.updatedAt()).isEqualTo(NOW.plusSeconds(1));
    assertThat(leased.attempt().fencingToken()).isEqualTo(YoungJobs.FIRST_TOKEN);
    assertThat(ids(pending(young, "q", 10))).containsExactly(2L);
    young.rollbackTo(mark);
    assertThat(young.find(1).state()).isEqualTo(JobState.PENDING);
    assertThat(ids(pending(young, "q", 10))).containsExactly(1L, 2L);
    assertThat(young.commitGroup()).hasSize(2);
  }

  @Test
  void aHeartbeatAndACompletionNeedTheRunningJobAndItsToken() {
    young.beginGroup();
    young.create(1, job("q", 0, NOW), NOW);
    assertThatThrownBy(() -> young.extend(1, YoungJobs.FIRST_TOKEN, NOW, null, NOW))
        .isInstanceOf(IllegalStateException.class);
    young.lease(1, "w", new byte[] {1}, NOW.plusSeconds(30), NOW);
    assertThatThrownBy(() -> young.lease(1, "w", new byte[] {1}, NOW.plusSeconds(30), NOW))
        .isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> young.succeed(1, 2, null, null, NOW))
        .isInstanceOf(IllegalStateException.class);

    young.extend(1, YoungJobs.FIRST_TOKEN, NOW.plusSeconds(60), "half", NOW.plusSeconds(2));
    young.extend(1, YoungJobs.FIRST_TOKEN, NOW.plusSeconds(90), null, NOW.plusSeconds(3));
    YoungJob done =
        young.succeed(1, YoungJobs.FIRST_TOKEN, new byte[] {7}, "text/plain", NOW.plusSeconds(4));

    assertThat(done.state()).isEqualTo(JobState.SUCCEEDED);
    assertThat(done.attempt().progress()).isEqualTo("half"); // kept when a heartbeat says none
    assertThat(done.attempt().expiresAt()).isEqualTo(NOW.plusSeconds(90));
    assertThat(done.attempt().finishedAt()).isEqualTo(NOW.plusSeconds(4));
    assertThatThrownBy(() -> young.succeed(1, YoungJobs.FIRST_TOKEN, null, null, NOW))
        .isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> young.lease(9, "w", new byte[] {1}, NOW, NOW))
        .isInstanceOf(IllegalStateException.class);
  }

  @Test
  void replayOfEveryKindOfRecordRebuildsTheSameJobs() {
    young.beginGroup();
    young.create(1, job("q", 0, NOW), NOW);
    young.create(2, job("q", 0, NOW), NOW);
    young.create(3, job("q", 0, NOW), NOW);
    young.lease(1, "w", new byte[] {1}, NOW.plusSeconds(30), NOW.plusSeconds(1));
    young.lease(2, "w", new byte[] {2}, NOW.plusSeconds(30), NOW.plusSeconds(1));
    young.extend(1, YoungJobs.FIRST_TOKEN, NOW.plusSeconds(60), "half", NOW.plusSeconds(2));
    young.succeed(2, YoungJobs.FIRST_TOKEN, new byte[] {7}, "text/plain", NOW.plusSeconds(3));
    List<YoungChange> changes = young.commitGroup();

    YoungJobs replayed = new YoungJobs();
    for (YoungChange change : changes) {
      replayed.replay(YoungChange.fromRecord(change.toRecord()));
    }

    assertThat(replayed.all()).usingRecursiveFieldByFieldElementComparator().isEqualTo(young.all());
    assertThat(ids(pending(replayed, "q", 10))).containsExactly(3L);
  }

  @Test
  void theJobsAndTheirBytesAreCountedAsTheyComeAndGo() {
    young.beginGroup();
    young.create(1, job("q", 0, NOW), NOW);
    young.create(2, job("q", 0, NOW), NOW);
    young.lease(1, "w", new byte[] {1}, NOW, NOW);
    int mark = young.mark();
    young.succeed(1, YoungJobs.FIRST_TOKEN, new byte[10], null, NOW);
    assertThat(young.bytes()).isEqualTo(10);
    young.rollbackTo(mark);
    assertThat(young.bytes()).isZero();
    young.succeed(1, YoungJobs.FIRST_TOKEN, new byte[4], null, NOW);
    young.commitGroup();
    assertThat(young.size()).isEqualTo(2);
    assertThat(young.bytes()).isEqualTo(4);

    young.beginGroup();
    young.folded();
    assertThat(young.size()).isZero();
    assertThat(young.bytes()).isZero();
    young.abandonGroup();
    assertThat(young.size()).isEqualTo(2);
    assertThat(young.bytes()).isEqualTo(4);
  }
}
