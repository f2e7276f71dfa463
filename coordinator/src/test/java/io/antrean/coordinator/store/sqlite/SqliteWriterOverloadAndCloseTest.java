package io.antrean.coordinator.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.antrean.coordinator.store.OverloadedException;
import io.antrean.coordinator.store.StoreUnavailableException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The writer's bounded queue, which refuses at once what does not fit, and its close, which
 * finishes the work it holds and refuses new work.
 */
@Timeout(30)
class SqliteWriterOverloadAndCloseTest extends SqliteWriterFixture {
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
