package io.antrean.coordinator.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Writes that run on their caller's thread while the writer is idle, and how they take turns and
 * share commits with the writer thread.
 */
@Timeout(30)
class SqliteWriterCallerRunsTest extends SqliteWriterFixture {
  /** Submits an insert of 7 whose value is the name of the thread that ran it. */
  private CompletableFuture<String> insertSevenOnSomeThread() {
    return writer.submit(
        "insert",
        c -> {
          insert(c, 7);
          return Thread.currentThread().getName();
        });
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
    assertThat(writer.groupCommit().commits()).isEqualTo(1);
  }

  @Test
  void writesOfACallerWithOthersInFlightGoToTheWriterThreadEvenInAQuietMoment() throws Exception {
    startCallerRunningWriter();

    CompletableFuture<String> ranOn = writer.amongOthers(this::insertSevenOnSomeThread);

    assertThat(ranOn.get(10, TimeUnit.SECONDS)).isEqualTo("antrean-sqlite-writer");
    assertThat(writer.committedByCallers()).isZero();
  }

  @Test
  void aWriteWithinTheIdleTimeOfTheLastOneGoesToTheWriterThread() throws Exception {
    // This writer's idle time (a day) has not passed since it started. The thread that ran the
    // write, not the one a callback runs on: a callback added after the write was answered runs on
    // the thread that adds it.
    CompletableFuture<String> ranOn = insertSevenOnSomeThread();

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
    assertThat(writer.groupCommit().commits()).isEqualTo(2);
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
    assertThat(writer.groupCommit().commits()).isEqualTo(1);
    assertThat(writer.committedByCallers()).isEqualTo(1);
    assertThat(storedInCommitOrder()).containsExactly(1, 2);
  }
}
