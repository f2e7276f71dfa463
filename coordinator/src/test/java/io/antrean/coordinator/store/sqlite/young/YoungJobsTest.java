package io.antrean.coordinator.store.sqlite.young;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.antrean.coordinator.job.DependsOn;
import io.antrean.coordinator.job.NewJob;
import io.antrean.coordinator.job.RetryPolicy;
import io.antrean.coordinator.store.sqlite.young.YoungChange.Created;
import io.antrean.coordinator.store.sqlite.young.YoungJobs.YoungJob;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The young jobs follow the writer's transaction: an operation rolled back to its savepoint, or a
 * group that does not commit, leaves neither a job in memory nor a record for the log.
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
    assertThat(ids(young.pendingIn("q", 10))).containsExactly(1L, 2L);
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
    assertThat(ids(young.pendingIn("q", 10))).containsExactly(1L, 4L);
    assertThat(young.pendingIn("other", 10)).isEmpty();
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

    assertThat(ids(young.pendingIn("q", 10))).containsExactly(2L, 3L, 4L, 1L);
    assertThat(ids(young.pendingIn("q", 2))).containsExactly(2L, 3L);
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
    assertThat(ids(young.pendingIn("q", 10))).containsExactly(1L);

    young.beginGroup();
    young.folded();
    young.create(3, job("q", 0, NOW), NOW);
    List<YoungChange> changes = young.commitGroup();
    assertThat(changes).extracting(c -> ((Created) c).jobId()).containsExactly(3L);
    assertThat(young.all()).extracting(YoungJob::id).containsExactly(3L);
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

    assertThat(ids(young.pendingIn("q", 10))).containsExactly(7L);
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
}
