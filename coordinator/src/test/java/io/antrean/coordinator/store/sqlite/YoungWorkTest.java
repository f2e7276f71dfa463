package io.antrean.coordinator.store.sqlite;

import static io.antrean.coordinator.store.TestJobs.T0;
import static io.antrean.coordinator.store.TestJobs.at;
import static io.antrean.coordinator.store.TestJobs.job;
import static io.antrean.coordinator.store.TestJobs.spec;
import static org.assertj.core.api.Assertions.assertThat;

import io.antrean.coordinator.job.AttemptOutcome;
import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.job.JobState;
import io.antrean.coordinator.job.NewJob;
import io.antrean.coordinator.store.Completion;
import io.antrean.coordinator.store.CompletionOutcome;
import io.antrean.coordinator.store.HeartbeatResult;
import io.antrean.coordinator.store.JobStore;
import io.antrean.coordinator.store.LeaseClaim;
import io.antrean.coordinator.store.LeaseRenewal;
import io.antrean.coordinator.store.QueueCounts;
import io.antrean.coordinator.store.QueueLimits;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * With young jobs on, a young job is leased, extended and completed without a row being written:
 * the database holds it only once something folds it, already in its last state; a lease takes
 * young jobs and rows in one lease order; what a crash leaves after the answers holds every change
 * they acknowledged; memory keeps a bounded number of young jobs, and a quiet moment folds them.
 */
@Timeout(60)
class YoungWorkTest extends YoungStoreFixture {
  @TempDir Path crashImage;

  @Test
  void aYoungJobRunsToItsEndWithoutARowThenFoldsFinished() throws Exception {
    store = open(dataDir);
    List<Long> ids =
        store.enqueue(List.of(job("a").build(), job("b").build()), T0).stream()
            .map(r -> r.job().id())
            .toList();

    List<Job> leased = store.lease(spec("w-1", 2, at(30)), at(1));
    assertThat(leased).extracting(Job::id).containsExactlyElementsOf(ids);
    assertThat(leased.get(0).state()).isEqualTo(JobState.RUNNING);
    assertThat(leased.get(0).attempts()).isEqualTo(1);
    assertThat(leased.get(0).lease().fencingToken()).isEqualTo(1);
    List<HeartbeatResult> beats =
        store.heartbeat(
            "w-1",
            List.of(new LeaseRenewal(ids.get(0), LeaseClaim.of(leased.get(0)), "half")),
            at(60),
            at(2));
    assertThat(beats.get(0).status()).isEqualTo(HeartbeatResult.Status.EXTENDED);
    assertThat(beats.get(0).expiresAt()).isEqualTo(at(60));
    List<CompletionOutcome> done =
        store.completeAll(
            "w-1",
            List.of(
                new Completion(ids.get(1), LeaseClaim.of(leased.get(1)), new byte[] {7}, "x/y")),
            at(3));
    assertThat(done.get(0).status()).isEqualTo(CompletionOutcome.Status.COMPLETED);
    assertThat(rows(dataDir)).isEqualTo("0"); // all of it young, in the log

    DatabaseFile.copyDataDir(dataDir, crashImage);
    for (JobStore seen : List.of(store, open(crashImage))) {
      Job running = seen.get(ids.get(0)).orElseThrow();
      assertThat(running.state()).isEqualTo(JobState.RUNNING);
      assertThat(running.progress()).isEqualTo("half");
      assertThat(running.lease().expiresAt()).isEqualTo(at(60));
      assertThat(running.lease().workerId()).isEqualTo("w-1");
      Job succeeded = seen.get(ids.get(1)).orElseThrow();
      assertThat(succeeded.state()).isEqualTo(JobState.SUCCEEDED);
      assertThat(succeeded.result()).containsExactly(7);
      assertThat(succeeded.finishedAt()).isEqualTo(at(3));
      assertThat(succeeded.history())
          .extracting(a -> a.outcome())
          .containsExactly(AttemptOutcome.SUCCEEDED);
      if (seen != store) {
        seen.close();
      }
    }
    assertThat(rows(dataDir)).isEqualTo("2");
    DatabaseFile.assertQueueCountsAreTheJobs(dataDir);
    DatabaseFile.assertQueueCountsAreTheJobs(crashImage);
  }

  @Test
  void aLeaseTakesYoungJobsAndRowsInOneLeaseOrder() throws Exception {
    store = open(dataDir);
    long young = store.enqueue(List.of(job("young").build()), T0).get(0).job().id();
    store.get(young); // folded: now a row
    long urgent = store.enqueue(List.of(job("urgent").priority(5).build()), T0).get(0).job().id();
    long later = store.enqueue(List.of(job("later").build()), T0).get(0).job().id();

    List<Job> leased = store.lease(spec("w-1", 2, at(30)), at(1));

    assertThat(leased).extracting(Job::id).containsExactly(urgent, young);
    assertThat(rows(dataDir)).isEqualTo("1"); // the row leased as a row; the young ones unwritten
    assertThat(store.lease(spec("w-1", 5, at(30)), at(1)))
        .extracting(Job::id)
        .containsExactly(later);
  }

  @Test
  void aReportOnAYoungJobThatDoesNotHoldItIsJudgedOnTheRows() throws Exception {
    store = open(dataDir);
    long id = store.enqueue(List.of(job("a").build()), T0).get(0).job().id();
    Job leased = store.lease(spec("w-1", 1, at(30)), at(1)).get(0);

    List<CompletionOutcome> stale =
        store.completeAll(
            "w-2", List.of(new Completion(id, LeaseClaim.of(leased), null, null)), at(2));

    assertThat(stale.get(0).status()).isEqualTo(CompletionOutcome.Status.LEASE_LOST);
    assertThat(rows(dataDir)).isEqualTo("1"); // folded to judge it
    assertThat(store.get(id).orElseThrow().history())
        .extracting(a -> a.outcome())
        .containsExactly(AttemptOutcome.RUNNING, AttemptOutcome.STALE_COMPLETION_REJECTED);
  }

  @Test
  void atTheirBoundTheOldestAreFoldedAndACrashImagePassesOverTheirRecords() throws Exception {
    store = open(dataDir);
    long last = fillToTheBoundWithTheFirstJobLeasedLast();
    int folded = YoungLayer.SHORT_FOLD_JOBS; // down to that many under the bound
    assertThat(rows(dataDir)).isEqualTo(String.valueOf(folded));
    assertThat(DatabaseFile.text(dataDir, "SELECT max(id) FROM jobs"))
        .isEqualTo(String.valueOf(folded));
    // Cut just before the creation of job 251, the oldest left young (a job's creation at the
    // position of its id, as every record but the first job's lease is a creation, and it came
    // after job 49,000's).
    assertThat(foldedUpTo(dataDir)).isEqualTo(folded);

    // The log past its fold mark holds the first job's lease, after jobs that are still young.
    DatabaseFile.copyDataDir(dataDir, crashImage);
    assertRecovered(crashImage, last, last);
  }

  @Test
  void aSecondFoldOfTheOldestCutsTheLogBeforeTheOldestLeftYoungAgain() throws Exception {
    store = open(dataDir);
    long last = fillToTheBoundWithTheFirstJobLeasedLast();
    List<NewJob> batch = Collections.nCopies(1_000, job("d").build());
    for (int i = 0; i < 6; i++) {
      // From the second on, each folds the oldest down to 250 under the bound first: 1,001 jobs,
      // then 1,000 each, jobs 251 to 5,251 in all.
      store.enqueue(batch, at(3));
    }
    assertThat(rows(dataDir)).isEqualTo("5251");
    assertThat(foldedUpTo(dataDir)).isEqualTo(5_251);

    DatabaseFile.copyDataDir(dataDir, crashImage);
    assertRecovered(crashImage, last, 56_001);
    // Opened, the store folded them all and cut the log at its end (one lease among the records).
    assertThat(foldedUpTo(crashImage)).isEqualTo(56_002);
  }

  @Test
  void aFoldMarkLostPassesOverTheRecordsOfEveryFoldedJob() throws Exception {
    store = open(dataDir);
    long last = fillToTheBoundWithTheFirstJobLeasedLast();
    DatabaseFile.copyDataDir(dataDir, crashImage);
    // As a migration undone below V15 and done again leaves it.
    DatabaseFile.update(crashImage, "UPDATE young_log_folds SET folded_up_to = 0");

    assertRecovered(crashImage, last, last);
  }

  @Test
  void enqueuesOfOneGroupWithMoreJobsThanARunMayMakeYoungStayYoungInRunsOfTheirOwn()
      throws Exception {
    store = open(dataDir);
    SqliteJobStore sqlite = (SqliteJobStore) store;
    int each = YoungLayer.MAX_YOUNG_JOBS / 100;
    List<NewJob> batch = Collections.nCopies(each, job("a").build());
    long commitsBefore = sqlite.writer().groupCommit().commits();

    var stored =
        sqlite.writeTogether(
            () -> Stream.generate(() -> sqlite.enqueueAsync(batch, T0)).limit(11).toList());

    assertThat(stored).allSatisfy(f -> assertThat(f.join()).hasSize(each));
    assertThat(sqlite.writer().groupCommit().commits() - commitsBefore).isEqualTo(1);
    assertThat(rows(dataDir)).isEqualTo("0");
  }

  @Test
  void anEnqueueOfMoreJobsThanARunMayMakeYoungIsStoredAsRows() throws Exception {
    store = open(dataDir);
    store.enqueue(List.of(job("a").build()), T0);
    int slice = YoungLayer.MAX_RUN_JOBS;
    store.enqueue(Collections.nCopies(slice, job("b").build()), T0);
    assertThat(rows(dataDir)).isEqualTo("0");

    store.enqueue(Collections.nCopies(slice + 1, job("c").build()), T0);

    assertThat(rows(dataDir)).isEqualTo(String.valueOf(2 * slice + 2));
  }

  /**
   * Makes as many young jobs as the bound, the first leased before the last thousand are made, then
   * enqueues one more, which folds the oldest first; returns that last job's id.
   */
  private long fillToTheBoundWithTheFirstJobLeasedLast() throws SQLException {
    List<NewJob> batch = Collections.nCopies(1_000, job("a").build());
    for (int i = 0; i < YoungLayer.MAX_YOUNG_JOBS / batch.size() - 1; i++) {
      store.enqueue(batch, T0);
    }
    assertThat(store.lease(spec("w-1", 1, at(30)), at(1))).extracting(Job::id).containsExactly(1L);
    store.enqueue(batch, T0);
    assertThat(rows(dataDir)).isEqualTo("0");
    return store.enqueue(List.of(job("b").build()), at(2)).get(0).job().id();
  }

  private static long foldedUpTo(Path dir) throws SQLException {
    return Long.parseLong(DatabaseFile.text(dir, "SELECT folded_up_to FROM young_log_folds"));
  }

  /** Job 1 RUNNING and no other, job {@code last} the one made last, {@code jobs} jobs in all. */
  private static void assertRecovered(Path dir, long last, long jobs) throws SQLException {
    JobStore recovered = open(dir);
    try {
      assertThat(recovered.get(1).orElseThrow().state()).isEqualTo(JobState.RUNNING);
      assertThat(recovered.get(last).orElseThrow().type()).isEqualTo("b");
      assertThat(last).isEqualTo(YoungLayer.MAX_YOUNG_JOBS + 1);
      assertThat(rows(dir)).isEqualTo(String.valueOf(jobs));
      assertThat(DatabaseFile.text(dir, "SELECT count(*) FROM jobs WHERE state = 'RUNNING'"))
          .isEqualTo("1");
    } finally {
      recovered.close();
    }
  }

  @Test
  void aReadInsideWritesTogetherFoldsWithoutWaitingForThem() {
    store = open(dataDir);
    long id = store.enqueue(List.of(job("a").build()), T0).get(0).job().id();

    Optional<Job> read = store.writeTogether(() -> store.get(id));

    assertThat(read).map(Job::type).contains("a");
  }

  @Test
  void statsCountTheYoungJobsWithoutAFoldAsTheRowsCountThemAfterOne() throws Exception {
    store = open(dataDir);
    long row = store.enqueue(List.of(job("keyed").key("k").build()), T0).get(0).job().id();
    store.enqueue(
        List.of(
            job("a").build(),
            job("b").build(),
            job("c").runAt(at(-5)).build(),
            job("later").runAt(at(60)).build(),
            job("elsewhere").queue("other").build()),
        T0);
    List<Job> leased = store.lease(spec("w-1", 3, at(30)), at(1));
    Job done = leased.stream().filter(j -> j.id() != row).findFirst().orElseThrow();
    store.completeAll(
        "w-1", List.of(new Completion(done.id(), LeaseClaim.of(done), null, null)), at(2));

    List<QueueCounts> young = store.stats(null, at(3));
    List<QueueCounts> youngUnfinished = store.unfinishedStats("default", at(3));
    assertThat(rows(dataDir)).isEqualTo("1"); // only the keyed job's row
    ((SqliteJobStore) store).foldYoungJobs();

    assertThat(young).isEqualTo(store.stats(null, at(3)));
    assertThat(youngUnfinished).isEqualTo(store.unfinishedStats("default", at(3)));
    QueueCounts counts = young.get(0);
    assertThat(counts.queue()).isEqualTo("default");
    assertThat(counts.running()).isEqualTo(2);
    assertThat(counts.succeeded()).isEqualTo(1);
    assertThat(counts.pending()).isEqualTo(1);
    assertThat(counts.scheduled()).isEqualTo(1);
    assertThat(young.get(1).pending()).isEqualTo(1);
  }

  @Test
  void readsThatFindNoYoungJobDoNotFoldThem() throws Exception {
    store = open(dataDir);
    store.setQueuePaused("default", true, T0);
    store.enqueue(List.of(job("a").build()), T0);

    store.setQueuePaused("default", false, at(1));
    assertThat(store.pausedQueues()).isEmpty();
    assertThat(store.queueLimits()).isEmpty();
    assertThat(store.deadLetteredSince(T0)).isEmpty();
    assertThat(store.schedules().list()).isEmpty();

    assertThat(rows(dataDir)).isEqualTo("0");
  }

  @Test
  void jobsHeldByLimitsAreCountedWithoutAFoldUnlessAQueueWithLimitsHasYoungJobs() throws Exception {
    store = open(dataDir);
    store.setQueueLimits("capped", new QueueLimits(1, null));
    store.enqueue(List.of(job("a").build()), T0);

    assertThat(store.jobsHeldByLimits(at(1))).containsExactly(Map.entry("capped", 0L));
    assertThat(rows(dataDir)).isEqualTo("0");

    store.enqueue(List.of(job("c").queue("capped").build()), T0);
    assertThat(store.jobsHeldByLimits(at(1))).containsExactly(Map.entry("capped", 0L));
    assertThat(rows(dataDir)).isEqualTo("2"); // its count is on the rows
  }

  @Test
  void aHeartbeatThatCrossedItsHoldersCompletionIsLostWithoutAFold() throws Exception {
    store = open(dataDir);
    store.enqueue(List.of(job("a").build(), job("b").build()), T0);
    Job leased = store.lease(spec("w-1", 1, at(30)), at(1)).get(0);
    store.completeAll(
        "w-1", List.of(new Completion(leased.id(), LeaseClaim.of(leased), null, null)), at(2));

    List<HeartbeatResult> beats =
        store.heartbeat(
            "w-1",
            List.of(new LeaseRenewal(leased.id(), LeaseClaim.of(leased), null)),
            at(60),
            at(3));

    assertThat(beats)
        .extracting(HeartbeatResult::status)
        .containsExactly(HeartbeatResult.Status.LOST);
    assertThat(rows(dataDir)).isEqualTo("0"); // judged young, not after a fold of both jobs
    Job done = store.get(leased.id()).orElseThrow(); // folds them
    assertThat(done.state()).isEqualTo(JobState.SUCCEEDED);
    assertThat(done.history()) // nothing stale recorded, as on the rows
        .extracting(a -> a.outcome())
        .containsExactly(AttemptOutcome.SUCCEEDED);
  }

  @Test
  void aRepeatOfItsHoldersOwnCompletionIsOkWithoutAFoldAndAnotherResultFoldsFirst()
      throws Exception {
    store = open(dataDir);
    store.enqueue(List.of(job("a").build(), job("b").build()), T0);
    Job leased = store.lease(spec("w-1", 1, at(30)), at(1)).get(0);
    Completion done = new Completion(leased.id(), LeaseClaim.of(leased), new byte[] {7}, "x/y");
    store.completeAll("w-1", List.of(done), at(2));

    List<CompletionOutcome> again = store.completeAll("w-1", List.of(done), at(3));

    assertThat(again.get(0).status()).isEqualTo(CompletionOutcome.Status.COMPLETED);
    assertThat(rows(dataDir)).isEqualTo("0"); // judged young
    Completion other = new Completion(leased.id(), LeaseClaim.of(leased), new byte[] {8}, "x/y");
    assertThat(store.completeAll("w-1", List.of(other), at(4)).get(0).status())
        .isEqualTo(CompletionOutcome.Status.LEASE_LOST);
    assertThat(rows(dataDir)).isEqualTo("2"); // only the rows record a stale report
  }
}
