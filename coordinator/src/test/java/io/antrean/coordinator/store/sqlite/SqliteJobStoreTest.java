package io.antrean.coordinator.store.sqlite;

import static io.antrean.coordinator.store.TestJobs.T0;
import static io.antrean.coordinator.store.TestJobs.at;
import static io.antrean.coordinator.store.TestJobs.job;
import static io.antrean.coordinator.store.TestJobs.spec;
import static io.antrean.coordinator.store.TestJobs.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.job.JobState;
import io.antrean.coordinator.job.LeaseId;
import io.antrean.coordinator.job.NewJob;
import io.antrean.coordinator.store.Concurrently;
import io.antrean.coordinator.store.JobStore;
import io.antrean.coordinator.store.JobStoreContract;
import io.antrean.coordinator.store.LeaseClaim;
import io.antrean.coordinator.store.LeaseLostException;
import io.antrean.coordinator.store.PayloadContract;
import io.antrean.coordinator.store.StoreUnavailableException;
import io.antrean.coordinator.store.TestJobs;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The contract on SQLite, plus what only an embedded file store has: durability, group commit, one
 * store to a directory.
 */
class SqliteJobStoreTest extends JobStoreContract {
  private static final Logger log = LoggerFactory.getLogger(SqliteJobStoreTest.class);

  @TempDir Path dataDir;

  /** The rows path: young jobs off ({@link SqliteYoungJobsStoreTest} runs it all with them on). */
  @Override
  protected JobStore openStore() {
    return SqliteJobStore.open(dataDir, SqliteOptions.defaults().withYoungJobs(false));
  }

  private SqliteJobStore sqlite() {
    return (SqliteJobStore) store;
  }

  @Override
  public void reopenStore() {
    reopen();
  }

  /** Before SQL reads the database file while the store is open; nothing to do here. */
  protected void settleForFileReads() {}

  private void reopen() {
    store.close();
    store = openStore();
  }

  /** Runs SQL on the database file while the store is closed (or only reads while it is open). */
  private String query(String sql) throws SQLException {
    settleForFileReads();
    return DatabaseFile.text(dataDir, sql);
  }

  private void update(String sql) throws SQLException {
    DatabaseFile.update(dataDir, sql);
  }

  /**
   * After every test, contract or not: the counts the triggers keep (V12) are the jobs there are,
   * whatever the test did to them.
   */
  @AfterEach
  void queueCountsAreTheJobsThereAre() throws SQLException {
    DatabaseFile.assertQueueCountsAreTheJobs(dataDir);
  }

  @Test
  void leaseIdSurvivesCloseAndReopen() {
    enqueue("t");
    Job leased = leaseOne("w");

    reopen();

    LeaseClaim guessed = new LeaseClaim(token(leased), LeaseId.generate());
    assertThatThrownBy(() -> store.complete(leased.id(), guessed, "w", null, null, at(1)))
        .isInstanceOf(LeaseLostException.class);
    assertThat(store.complete(leased.id(), claim(leased), "w", null, null, at(2)).state())
        .isEqualTo(JobState.SUCCEEDED);
  }

  @Test
  void acknowledgedChangesSurviveCloseAndReopen() {
    Job pending = enqueue(job("email").key("k").payload("{\"to\":\"x\"}").build());
    Job running = enqueue("resize");
    Job leased = leaseOne("w");
    store.complete(leased.id(), claim(leased), "w", utf8("done"), "text/plain", at(1));
    Job stillRunning = leaseOne("w", at(2), at(30));

    reopen();

    Job done = reload(leased.id());
    assertThat(done.state()).isEqualTo(JobState.SUCCEEDED);
    assertThat(done.result()).isEqualTo(utf8("done"));
    assertThat(done.history()).hasSize(1);
    assertThat(reload(stillRunning.id()).lease()).isEqualTo(stillRunning.lease());
    assertThat(store.runningLeases()).hasSize(1);
    assertThat(
            store.enqueue(List.of(job("email").key("k").payload("{\"to\":\"x\"}").build()), at(3)))
        .singleElement()
        .satisfies(r -> assertThat(r.deduplicated()).isTrue());
    assertThat(pending.id()).isLessThan(running.id());
    assertThat(enqueue("next").id()).isGreaterThan(running.id());
  }

  @Test
  void fencingTokensKeepGrowingAcrossRestarts() {
    enqueue("t");
    Job first = leaseOne("w");
    store.release(first.id(), claim(first), "w", "restart", at(1));

    reopen();

    assertThat(token(leaseOne("w", at(2), at(30)))).isGreaterThan(token(first));
  }

  @Test
  void idsAreNotReusedAfterTheNewestJobIsDeleted() throws SQLException {
    Job newest = enqueue("t");
    store.close();
    update("DELETE FROM jobs WHERE id = " + newest.id());
    store = openStore();

    assertThat(enqueue("t").id()).isGreaterThan(newest.id());
  }

  @Test
  @Timeout(60)
  void concurrentWritersShareCommits() throws Exception {
    int threads = 16;
    int perThread = 50;
    long commitsBefore = sqlite().writer().groupCommit().commits();
    long operationsBefore = sqlite().writer().groupCommit().operations();
    AtomicInteger stored = new AtomicInteger();

    Concurrently.run(
        threads,
        () -> {
          for (int i = 0; i < perThread; i++) {
            enqueue("t");
            stored.incrementAndGet();
          }
        });

    long commits = sqlite().writer().groupCommit().commits() - commitsBefore;
    long operations = sqlite().writer().groupCommit().operations() - operationsBefore;
    log.info("{} enqueue operations from {} threads took {} commits", operations, threads, commits);
    assertThat(stored).hasValue(threads * perThread);
    assertThat(operations).isEqualTo(threads * perThread);
    assertThat(commits).isLessThan(operations);
  }

  @Test
  void leaseStaysCorrectWithAManyJobBacklog() {
    List<NewJob> backlog = new ArrayList<>();
    for (int i = 0; i < 5_000; i++) {
      backlog.add(job("t").priority(i % 3).runAt(at(i % 7)).build());
    }
    store.enqueue(backlog, T0);

    List<Job> leased = store.lease(spec("w", 32, at(300)), at(10));

    assertThat(leased).hasSize(32).allSatisfy(j -> assertThat(j.priority()).isEqualTo(2));
    assertThat(leased)
        .isSortedAccordingTo(Comparator.comparing(Job::runAt).thenComparingLong(Job::id));
  }

  @Test
  void deletedJobsLeaveNoHistoryOrKeysBehind() throws SQLException {
    Job dead = deadLetter(job("a").key("ka").build(), at(1), "boom");
    Job done = succeeded(job("b").key("kb").build(), at(2));
    Job kept = succeeded(job("c").key("kc").build(), at(50));
    assertThat(query("SELECT count(*) FROM attempts")).isEqualTo("3");

    assertThat(store.purgeDeadLetters(List.of(dead.id()))).isEqualTo(1);
    assertThat(store.deleteFinished(JobState.SUCCEEDED, at(10), 10)).isEqualTo(1);

    String survivor = String.valueOf(kept.id());
    assertThat(query("SELECT group_concat(DISTINCT job_id) FROM attempts")).isEqualTo(survivor);
    assertThat(query("SELECT group_concat(job_id) FROM idempotency_keys")).isEqualTo(survivor);
    assertThat(done.id()).isNotEqualTo(kept.id());
  }

  @Test
  void aLongPayloadIsKeptOnceApartFromItsRowAndGoesWithItsJob() throws SQLException {
    byte[] longPayload = PayloadContract.payload(JobPayloads.IN_ROW_MAX + 1);
    byte[] shortPayload = PayloadContract.payload(JobPayloads.IN_ROW_MAX);
    Job apart = enqueue(job("long").payload(longPayload, "x").build());
    Job inRow = enqueue(job("short").payload(shortPayload, "x").build());

    String rows = "SELECT group_concat(id || ':' || ifnull(length(payload), 'apart')) FROM jobs";
    String apartRows = "SELECT group_concat(job_id || ':' || length(payload)) FROM job_payloads";
    assertThat(query(rows))
        .isEqualTo(apart.id() + ":apart," + inRow.id() + ":" + JobPayloads.IN_ROW_MAX);
    assertThat(query(apartRows)).isEqualTo(apart.id() + ":" + longPayload.length);

    Job leased = leaseOne("w");
    assertThat(leased.payload()).isEqualTo(longPayload);
    store.complete(leased.id(), claim(leased), "w", null, null, at(1));
    assertThat(query(apartRows)).isEqualTo(apart.id() + ":" + longPayload.length);

    assertThat(store.deleteFinished(JobState.SUCCEEDED, at(10), 10)).isEqualTo(1);
    assertThat(query("SELECT count(*) FROM job_payloads")).isEqualTo("0");
    assertThat(reload(inRow.id()).payload()).isEqualTo(shortPayload);
  }

  @Test
  void queuePauseSurvivesCloseAndReopen() {
    enqueue("t");
    store.setQueuePaused(TestJobs.QUEUE, true, at(1));

    reopen();

    assertThat(store.pausedQueues()).containsExactly(entry(TestJobs.QUEUE, at(1)));
    assertThat(store.lease(spec("w", 10, at(30)), at(2))).isEmpty();
    store.setQueuePaused(TestJobs.QUEUE, false, at(3));
    reopen();
    assertThat(store.pausedQueues()).isEmpty();
    assertThat(store.lease(spec("w", 10, at(30)), at(4))).hasSize(1);
  }

  @Test
  void secondStoreOnTheSameDirectoryIsRefused() {
    assertThatThrownBy(() -> SqliteJobStore.open(dataDir))
        .isInstanceOf(StoreUnavailableException.class)
        .hasMessageContaining("in use");
  }

  @Test
  @Timeout(30)
  void aBlockingCallFromTheThreadThatAnswersWritesIsRefusedAndStoresNothing() throws Exception {
    CountDownLatch attached = new CountDownLatch(1);
    CountDownLatch holding = new CountDownLatch(1);
    // The held write, from another thread (which may run it itself in a quiet moment), keeps the
    // connection until the dependent stage below is attached, so "first" queues and that stage
    // runs on the writer's thread (a group of one is answered there).
    CompletableFuture<Object> held =
        CompletableFuture.supplyAsync(
            () ->
                sqlite()
                    .writer()
                    .execute(
                        "hold",
                        c -> {
                          holding.countDown();
                          try {
                            assertThat(attached.await(10, TimeUnit.SECONDS)).isTrue();
                          } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                            throw new IllegalStateException(
                                "interrupted while holding the writer", e);
                          }
                          return null;
                        }));
    assertThat(holding.await(10, TimeUnit.SECONDS)).isTrue();
    CompletableFuture<Throwable> refusal =
        store
            .enqueueAsync(List.of(job("first").build()), T0)
            .thenApply(
                first -> {
                  try {
                    store.enqueue(List.of(job("nested").build()), T0);
                    return null;
                  } catch (IllegalStateException e) {
                    return e;
                  }
                });
    attached.countDown();

    assertThat(refusal.get(10, TimeUnit.SECONDS))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("use submit");
    held.get(10, TimeUnit.SECONDS);
    // Queued after the refusal, so it commits after anything the refused call might have queued.
    store.enqueue(List.of(job("after").build()), T0);
    assertThat(query("SELECT group_concat(type, ',') FROM (SELECT type FROM jobs ORDER BY id)"))
        .isEqualTo("first,after");
  }

  @Test
  void databaseIsInWalModeWithForeignKeys() throws SQLException {
    assertThat(query("PRAGMA journal_mode")).isEqualTo("wal");
    assertThat(query("PRAGMA foreign_key_list(attempts)")).isNotEmpty();
  }
}
