package io.antrean.coordinator.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Group commit and savepoints on the writer thread: operations queued while it is busy share one
 * commit, each is answered only after that commit, and one that fails fails and rolls back alone.
 */
@Timeout(30)
class SqliteWriterTest extends SqliteWriterFixture {
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
    assertThat(writer.groupCommit().commits()).isEqualTo(2);
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
    assertThat(writer.groupCommit().commits()).isEqualTo(2);
    assertThat(writer.groupCommit().operations()).isEqualTo(11);
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
    assertThat(writer.groupCommit().commits()).isEqualTo(2);
    assertThat(stored()).containsExactly(0, 1, 3);
  }
}
