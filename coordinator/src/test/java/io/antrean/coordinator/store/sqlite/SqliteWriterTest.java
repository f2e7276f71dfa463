package io.antrean.coordinator.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.antrean.coordinator.store.OverloadedException;
import io.antrean.coordinator.store.StoreUnavailableException;
import io.antrean.coordinator.store.jdbc.JdbcSession;
import io.antrean.coordinator.store.jdbc.SessionWork;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Group commit, savepoints and shutdown of the writer thread, on a table of its own. */
@Timeout(30)
class SqliteWriterTest {
  private static final int MAX_QUEUED = 64;

  @TempDir Path dataDir;

  private SqliteFile file;
  private SqliteWriter writer;
  private final ExecutorService callers = Executors.newCachedThreadPool();
  private final CountDownLatch blockerStarted = new CountDownLatch(1);
  private final CountDownLatch unblock = new CountDownLatch(1);

  @BeforeEach
  void startWriter() throws SQLException {
    file = SqliteFile.lock(dataDir, SqliteOptions.defaults());
    CachedConnection connection = file.openWriter();
    try (Statement statement = connection.connection().createStatement()) {
      statement.execute("CREATE TABLE items (value INTEGER NOT NULL)");
    }
    // Never a quiet moment: every write goes through the writer thread (callerRuns tests below).
    writer = SqliteWriter.start(connection, 512, MAX_QUEUED, Duration.ofDays(1));
  }

  @AfterEach
  void stopWriter() throws InterruptedException {
    unblock.countDown();
    writer.close();
    file.close();
    callers.shutdownNow();
    assertThat(callers.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
  }

  private static Integer insert(JdbcSession connection, int value) throws SQLException {
    PreparedStatement insert = connection.prepare("INSERT INTO items (value) VALUES (?)");
    insert.setInt(1, value);
    insert.executeUpdate();
    return value;
  }

  private List<Integer> storedUnchecked() {
    try {
      return stored();
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  private List<Integer> stored() throws SQLException {
    return read("SELECT value FROM items ORDER BY value");
  }

  private List<Integer> storedInCommitOrder() throws SQLException {
    return read("SELECT value FROM items ORDER BY rowid");
  }

  private List<Integer> read(String query) throws SQLException {
    try (CachedConnection reader = file.openReader();
        ResultSet rows = reader.connection().createStatement().executeQuery(query)) {
      List<Integer> values = new ArrayList<>();
      while (rows.next()) {
        values.add(rows.getInt(1));
      }
      return values;
    }
  }

  /** Occupies the writer thread until {@link #unblock} opens, so later operations queue up. */
  private CompletableFuture<Integer> blockWriter() throws InterruptedException {
    CompletableFuture<Integer> blocker =
        submit(
            "blocker",
            c -> {
              blockerStarted.countDown();
              awaitUnblock();
              return insert(c, 0);
            });
    assertThat(blockerStarted.await(10, TimeUnit.SECONDS)).isTrue();
    return blocker;
  }

  private void awaitUnblock() {
    try {
      assertThat(unblock.await(10, TimeUnit.SECONDS)).isTrue();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while blocking the writer", e);
    }
  }

  private <T> CompletableFuture<T> submit(String name, SessionWork<T> operation) {
    return CompletableFuture.supplyAsync(() -> writer.execute(name, operation), callers);
  }

  private void awaitQueued(int operations) {
    await().atMost(Duration.ofSeconds(10)).until(() -> writer.queued() == operations);
  }

  @Test
  void aWritePastTheQueueBoundFailsAtOnceOverloadedAndNeverRuns() throws Exception {
    CompletableFuture<Integer> blocker = blockWriter();
    List<CompletableFuture<Integer>> queued = new ArrayList<>();
    for (int i = 1; i <= MAX_QUEUED; i++) {
      int value = i;
      queued.add(writer.submit("insert", c -> insert(c, value)));
    }

    CompletableFuture<Integer> refused = writer.submit("insert", c -> insert(c, 9999));

    assertThat(refused).isCompletedExceptionally();
    assertThatThrownBy(refused::join)
        .hasCauseInstanceOf(OverloadedException.class)
        .cause()
        .satisfies(
            e -> {
              OverloadedException o = (OverloadedException) e;
              assertThat(o.limit()).isEqualTo("write_queue");
              assertThat(o.retryAfter()).isPositive();
            });
    unblock.countDown();
    blocker.get(10, TimeUnit.SECONDS);
    for (CompletableFuture<Integer> f : queued) {
      f.get(10, TimeUnit.SECONDS);
    }
    assertThat(stored()).hasSize(MAX_QUEUED + 1).doesNotContain(9999);
    // Once the queue drained, writes are taken again.
    assertThat(writer.submit("insert", c -> insert(c, 10_000)).get(10, TimeUnit.SECONDS))
        .isEqualTo(10_000);
  }

  @Test
  void aGroupIsAnsweredOnlyAfterItsCommitAndFromTheCompleterThread() throws Exception {
    CompletableFuture<Integer> blocker = blockWriter();
    CompletableFuture<Integer> first = writer.submit("insert", c -> insert(c, 7));
    CompletableFuture<Integer> second = writer.submit("insert", c -> insert(c, 8));
    CompletableFuture<String> answeredOn =
        first.thenApply(value -> Thread.currentThread().getName());
    awaitQueued(2);
    assertThat(first).isNotDone();

    unblock.countDown();

    assertThat(answeredOn.get(10, TimeUnit.SECONDS)).isEqualTo("antrean-sqlite-completer");
    assertThat(first.get(10, TimeUnit.SECONDS)).isEqualTo(7);
    assertThat(second.get(10, TimeUnit.SECONDS)).isEqualTo(8);
    assertThat(blocker.get(10, TimeUnit.SECONDS)).isZero();
    assertThat(stored()).containsExactly(0, 7, 8);
  }

  @Test
  void aLoneOperationIsAnsweredOnlyAfterItsCommitAndFromTheWriterThread() throws Exception {
    CompletableFuture<Integer> blocker = blockWriter();
    CompletableFuture<Integer> lone = writer.submit("insert", c -> insert(c, 7));
    // Read inside the answer: the row must be committed (visible to another connection) by then.
    CompletableFuture<String> answeredOn =
        lone.thenApply(value -> Thread.currentThread().getName() + " " + storedUnchecked());
    awaitQueued(1);
    assertThat(lone).isNotDone();

    unblock.countDown();

    assertThat(answeredOn.get(10, TimeUnit.SECONDS)).isEqualTo("antrean-sqlite-writer [0, 7]");
    assertThat(blocker.get(10, TimeUnit.SECONDS)).isZero();
  }

  @Test
  void submittedOperationThatThrowsFailsOnlyItsOwnFuture() throws Exception {
    CompletableFuture<Integer> blocker = blockWriter();
    CompletableFuture<Integer> good = writer.submit("insert", c -> insert(c, 1));
    CompletableFuture<Integer> bad =
        writer.submit(
            "bad",
            c -> {
              insert(c, 2);
              throw new IllegalArgumentException("no");
            });
    awaitQueued(2);

    unblock.countDown();

    assertThat(good.get(10, TimeUnit.SECONDS)).isEqualTo(1);
    assertThat(bad)
        .failsWithin(10, TimeUnit.SECONDS)
        .withThrowableOfType(java.util.concurrent.ExecutionException.class)
        .withCauseInstanceOf(IllegalArgumentException.class);
    assertThat(blocker.get(10, TimeUnit.SECONDS)).isZero();
    assertThat(stored()).containsExactly(0, 1);
  }

  @Test
  void waitingForTheWriterFromItsCompleterThreadFailsInsteadOfDeadlocking() throws Exception {
    // "first" holds the writer until the dependent stage is attached, so that stage runs on the
    // writer thread (the group of one is answered there) rather than on this one.
    CompletableFuture<Throwable> refusal =
        writer
            .submit(
                "first",
                c -> {
                  awaitUnblock();
                  return insert(c, 1);
                })
            .thenApply(
                value -> {
                  try {
                    writer.execute("nested", c -> insert(c, 2));
                    return null;
                  } catch (IllegalStateException e) {
                    return e;
                  }
                });
    unblock.countDown();

    assertThat(refusal.get(10, TimeUnit.SECONDS))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("use submit");
    // A write queued after the refusal commits after anything the refused call might have queued.
    writer.execute("after", c -> insert(c, 3));
    assertThat(stored()).containsExactly(1, 3);
  }

  /** Replaces the writer with one that runs a write on its caller's thread whenever it is idle. */
  private void startCallerRunningWriter() throws SQLException {
    writer.close();
    writer = SqliteWriter.start(file.openWriter(), 512, MAX_QUEUED, Duration.ZERO);
  }

  @Test
  void aWriteSubmittedInAQuietMomentRunsAndIsAnsweredOnItsCallersThread() throws Exception {
    startCallerRunningWriter();
    String caller = Thread.currentThread().getName();

    CompletableFuture<Integer> lone = writer.submit("insert", c -> insert(c, 7));
    // Read inside the answer: the row must be committed (visible to another connection) by then.
    CompletableFuture<String> answeredOn =
        lone.thenApply(value -> Thread.currentThread().getName() + " " + storedUnchecked());

    assertThat(lone).isCompletedWithValue(7);
    assertThat(answeredOn.get(10, TimeUnit.SECONDS)).isEqualTo(caller + " [7]");
    assertThat(writer.committedByCallers()).isEqualTo(1);
    assertThat(writer.commits()).isEqualTo(1);
  }

  @Test
  void aWriteWithinTheIdleTimeOfTheLastOneGoesToTheWriterThread() throws Exception {
    // This writer's idle time (a day) has not passed since it started. The thread that ran the
    // write, not the one a callback runs on: a callback added after the write was answered runs on
    // the thread that adds it.
    CompletableFuture<String> ranOn =
        writer.submit(
            "insert",
            c -> {
              insert(c, 7);
              return Thread.currentThread().getName();
            });

    assertThat(ranOn.get(10, TimeUnit.SECONDS)).isEqualTo("antrean-sqlite-writer");
    assertThat(writer.committedByCallers()).isZero();
  }

  @Test
  void writesSubmittedWhileACallerHoldsTheConnectionQueueAndCommitAfterItsWrite() throws Exception {
    startCallerRunningWriter();
    CompletableFuture<Integer> blocker = blockWriter();
    assertThat(writer.committedByCallers()).isEqualTo(1);

    CompletableFuture<Integer> second = writer.submit("insert", c -> insert(c, 7));
    CompletableFuture<Integer> third = writer.submit("insert", c -> insert(c, 8));

    // The writer thread takes the first of them and waits for the connection; the other queues.
    awaitQueued(1);
    assertThat(second).isNotDone();
    unblock.countDown();
    assertThat(blocker.get(10, TimeUnit.SECONDS)).isZero();
    assertThat(second.get(10, TimeUnit.SECONDS)).isEqualTo(7);
    assertThat(third.get(10, TimeUnit.SECONDS)).isEqualTo(8);
    // The queued two shared the writer thread's commit.
    assertThat(writer.commits()).isEqualTo(2);
    assertThat(writer.committedByCallers()).isEqualTo(1);
    assertThat(stored()).containsExactly(0, 7, 8);
  }

  @Test
  void aWriteTheWriterThreadTookCommitsBeforeOneSubmittedRightAfterTheCallerLetGo()
      throws Exception {
    startCallerRunningWriter();
    CompletableFuture<CompletableFuture<Integer>> afterRelease =
        CompletableFuture.supplyAsync(
            () -> {
              writer.execute(
                  "blocker",
                  c -> {
                    blockerStarted.countDown();
                    awaitUnblock();
                    return insert(c, 0);
                  });
              // The connection was let go a moment ago; the writer thread may not have run since.
              return writer.submit("after release", c -> insert(c, 2));
            },
            callers);
    assertThat(blockerStarted.await(10, TimeUnit.SECONDS)).isTrue();
    CompletableFuture<Integer> taken = writer.submit("taken", c -> insert(c, 1));
    // The writer thread took it and waits for the connection.
    awaitQueued(0);

    unblock.countDown();

    assertThat(taken.get(10, TimeUnit.SECONDS)).isEqualTo(1);
    assertThat(afterRelease.get(10, TimeUnit.SECONDS).get(10, TimeUnit.SECONDS)).isEqualTo(2);
    assertThat(storedInCommitOrder()).containsExactly(0, 1, 2);
  }

  @Test
  void aWriteAwaitedFromInsideAnOperationRunByItsCallerIsRefused() throws Exception {
    startCallerRunningWriter();
    CompletableFuture<String> outer =
        writer.submit(
            "outer",
            c -> {
              insert(c, 1);
              try {
                writer.execute("inner", inner -> insert(inner, 2));
                return "not refused";
              } catch (IllegalStateException e) {
                return e.getMessage();
              }
            });

    assertThat(outer.get(10, TimeUnit.SECONDS)).contains("use submit");
    assertThat(writer.committedByCallers()).isEqualTo(1);
    assertThat(stored()).containsExactly(1);
  }

  @Test
  void closeWaitsForTheCallerHoldingTheConnection() throws Exception {
    startCallerRunningWriter();
    CompletableFuture<Integer> blocker = blockWriter();
    CompletableFuture<Void> closing = CompletableFuture.runAsync(writer::close, callers);
    await().atMost(Duration.ofSeconds(10)).until(writer::refusesNewWork);
    assertThatThrownBy(() -> writer.execute("late", c -> insert(c, 9)))
        .isInstanceOf(StoreUnavailableException.class);
    assertThat(closing).isNotDone();

    unblock.countDown();

    assertThat(blocker.get(10, TimeUnit.SECONDS)).isZero();
    closing.get(10, TimeUnit.SECONDS);
    assertThat(stored()).containsExactly(0);
  }

  @Test
  void submitAfterCloseFailsAtOnce() {
    writer.close();

    assertThat(writer.submit("late", c -> insert(c, 1)))
        .failsWithin(1, TimeUnit.SECONDS)
        .withThrowableOfType(java.util.concurrent.ExecutionException.class)
        .withCauseInstanceOf(StoreUnavailableException.class);
  }

  @Test
  void writesSubmittedTogetherInAQuietMomentCommitAsOneGroupOnTheCallersThread() throws Exception {
    startCallerRunningWriter();
    List<CompletableFuture<Integer>> together = new ArrayList<>();

    writer.together(
        () -> {
          together.add(writer.submit("insert", c -> insert(c, 1)));
          together.add(writer.submit("insert", c -> insert(c, 2)));
          // Inside, nothing runs yet: the two are handed over as one when this returns.
          assertThat(together).noneMatch(CompletableFuture::isDone);
          return null;
        });

    assertThat(together.get(0).get(10, TimeUnit.SECONDS)).isEqualTo(1);
    assertThat(together.get(1).get(10, TimeUnit.SECONDS)).isEqualTo(2);
    assertThat(writer.commits()).isEqualTo(1);
    assertThat(writer.committedByCallers()).isEqualTo(1);
    assertThat(storedInCommitOrder()).containsExactly(1, 2);
  }

  @Test
  void writesSubmittedTogetherWhileTheWriterIsBusyShareOneCommit() throws Exception {
    CompletableFuture<Integer> blocker = blockWriter();
    List<CompletableFuture<Integer>> together = new ArrayList<>();

    writer.together(
        () -> {
          together.add(writer.submit("insert", c -> insert(c, 1)));
          together.add(writer.submit("insert", c -> insert(c, 2)));
          return null;
        });
    awaitQueued(2);
    unblock.countDown();

    assertThat(blocker.get(10, TimeUnit.SECONDS)).isZero();
    assertThat(together.get(0).get(10, TimeUnit.SECONDS)).isEqualTo(1);
    assertThat(together.get(1).get(10, TimeUnit.SECONDS)).isEqualTo(2);
    assertThat(writer.commits()).isEqualTo(2);
  }

  @Test
  void writesSubmittedTogetherAreRefusedTogetherWhenTheQueueHasNoRoomForAll() throws Exception {
    CompletableFuture<Integer> blocker = blockWriter();
    for (int i = 1; i < MAX_QUEUED; i++) {
      int value = i;
      writer.submit("insert", c -> insert(c, value));
    }
    List<CompletableFuture<Integer>> together = new ArrayList<>();

    writer.together(
        () -> {
          together.add(writer.submit("insert", c -> insert(c, 9998)));
          together.add(writer.submit("insert", c -> insert(c, 9999)));
          return null;
        });

    assertThat(together)
        .allSatisfy(f -> assertThatThrownBy(f::join).hasCauseInstanceOf(OverloadedException.class));
    // One more on its own still fits.
    CompletableFuture<Integer> last = writer.submit("insert", c -> insert(c, 10_000));
    unblock.countDown();
    blocker.get(10, TimeUnit.SECONDS);
    assertThat(last.get(10, TimeUnit.SECONDS)).isEqualTo(10_000);
    assertThat(stored()).hasSize(MAX_QUEUED + 1).doesNotContain(9998, 9999);
  }

  @Test
  void operationsQueuedWhileTheWriterIsBusyShareOneCommit() throws Exception {
    CompletableFuture<Integer> blocker = blockWriter();
    List<CompletableFuture<Integer>> queued = new ArrayList<>();
    for (int i = 1; i <= 10; i++) {
      int value = i;
      queued.add(submit("insert", c -> insert(c, value)));
    }
    awaitQueued(10);

    unblock.countDown();

    assertThat(blocker.get(10, TimeUnit.SECONDS)).isZero();
    for (int i = 0; i < queued.size(); i++) {
      assertThat(queued.get(i).get(10, TimeUnit.SECONDS)).isEqualTo(i + 1);
    }
    assertThat(writer.commits()).isEqualTo(2);
    assertThat(writer.operations()).isEqualTo(11);
    assertThat(stored()).containsExactly(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10);
  }

  @Test
  void failingOperationRollsBackOnlyItself() throws Exception {
    blockWriter();
    CompletableFuture<Integer> before = submit("before", c -> insert(c, 1));
    awaitQueued(1);
    CompletableFuture<Integer> failing =
        submit(
            "failing",
            c -> {
              insert(c, 2);
              throw new IllegalArgumentException("domain rule broken");
            });
    awaitQueued(2);
    CompletableFuture<Integer> badSql =
        submit("bad sql", c -> c.prepare("INSERT INTO nowhere VALUES (1)").executeUpdate());
    awaitQueued(3);
    CompletableFuture<Integer> after = submit("after", c -> insert(c, 3));
    awaitQueued(4);

    unblock.countDown();

    assertThat(before.get(10, TimeUnit.SECONDS)).isEqualTo(1);
    assertThat(after.get(10, TimeUnit.SECONDS)).isEqualTo(3);
    assertThatThrownBy(failing::join).hasCauseInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(badSql::join)
        .hasCauseInstanceOf(IllegalStateException.class)
        .hasMessageContaining("bad sql");
    assertThat(writer.commits()).isEqualTo(2);
    assertThat(stored()).containsExactly(0, 1, 3);
  }

  @Test
  void closeFinishesQueuedOperationsThenRefusesNewOnes() throws Exception {
    blockWriter();
    CompletableFuture<Integer> queued = submit("queued", c -> insert(c, 1));
    awaitQueued(1);
    CompletableFuture<Void> closing = CompletableFuture.runAsync(writer::close, callers);
    await().atMost(Duration.ofSeconds(10)).until(() -> writer.queued() == 2);

    assertThatThrownBy(() -> writer.execute("late", c -> insert(c, 9)))
        .isInstanceOf(StoreUnavailableException.class)
        .hasMessageContaining("closed");
    unblock.countDown();
    closing.get(10, TimeUnit.SECONDS);

    assertThat(queued.get(10, TimeUnit.SECONDS)).isEqualTo(1);
    assertThat(stored()).containsExactly(0, 1);
  }
}
