package io.antrean.coordinator.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.antrean.coordinator.store.StoreUnavailableException;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The writer commits without an fsync and answers only once {@link WalSync} has synced the WAL past
 * the commit: one sync covers every commit before it, the next group runs while the last one's sync
 * is on its way, and a failed sync fails the answer and every later one; another file given to it
 * (the young jobs' log) is synced with the WAL.
 */
@Timeout(30)
class WalSyncTest extends SqliteWriterFixture {
  private final AtomicInteger syncs = new AtomicInteger();
  private final CountDownLatch syncStarted = new CountDownLatch(1);
  private final CountDownLatch finishSync = new CountDownLatch(1);

  /** Counts the syncs; the first waits for {@link #finishSync}. */
  private void heldFirstSync() throws IOException {
    if (syncs.incrementAndGet() == 1) {
      syncStarted.countDown();
      try {
        if (!finishSync.await(10, TimeUnit.SECONDS)) {
          throw new IOException("the test never let the sync finish");
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException(e);
      }
    }
  }

  @Test
  void aWriteIsAnsweredOnlyOnceItsCommitIsSynced() throws Exception {
    startWriterSyncingWith(this::heldFirstSync);

    CompletableFuture<Integer> write = writer.submit("insert", c -> insert(c, 1));

    assertThat(syncStarted.await(10, TimeUnit.SECONDS)).isTrue();
    // Committed (a reader sees it) but not synced: not answered.
    assertThat(stored()).containsExactly(1);
    assertThat(write).isNotDone();
    finishSync.countDown();
    assertThat(write.get(10, TimeUnit.SECONDS)).isEqualTo(1);
  }

  @Test
  void theNextGroupRunsWhileTheLastOneIsSyncingAndOneSyncCoversSeveralCommits() throws Exception {
    startWriterSyncingWith(this::heldFirstSync);
    // A group of two: synced on the completer thread, not the writer's.
    CompletableFuture<Integer> first =
        writer.together(
            () -> {
              writer.submit("insert", c -> insert(c, 0));
              return writer.submit("insert", c -> insert(c, 1));
            });
    assertThat(syncStarted.await(10, TimeUnit.SECONDS)).isTrue();

    CountDownLatch secondRan = new CountDownLatch(1);
    CompletableFuture<Integer> second =
        writer.submit(
            "insert",
            c -> {
              secondRan.countDown();
              return insert(c, 2);
            });
    CompletableFuture<Integer> third = writer.submit("insert", c -> insert(c, 3));

    assertThat(secondRan.await(10, TimeUnit.SECONDS)).isTrue();
    assertThat(first).isNotDone();
    finishSync.countDown();
    assertThat(first.get(10, TimeUnit.SECONDS)).isEqualTo(1);
    assertThat(second.get(10, TimeUnit.SECONDS)).isEqualTo(2);
    assertThat(third.get(10, TimeUnit.SECONDS)).isEqualTo(3);
    // Three commits, at most one more sync after the first: the second and third may share it.
    assertThat(syncs.get()).isBetween(2, 3);
    assertThat(stored()).containsExactly(0, 1, 2, 3);
  }

  @Test
  void oneSyncCoversEveryCommitNumberedBeforeIt() {
    WalSync sync = new WalSync(syncs::incrementAndGet);
    long a = sync.committed();
    long b = sync.committed();
    long c = sync.committed();

    sync.awaitDurable(b);
    sync.awaitDurable(a);
    sync.awaitDurable(c);
    assertThat(syncs.get()).isEqualTo(1);

    sync.awaitDurable(sync.committed());
    assertThat(syncs.get()).isEqualTo(2);
  }

  @Test
  void whetherACommitIsDurableIsToldWithoutASync() {
    WalSync sync = new WalSync(syncs::incrementAndGet);
    long a = sync.committed();

    assertThat(sync.isDurable(a)).isFalse();
    assertThat(syncs.get()).isZero();
    sync.awaitDurable(a);
    assertThat(sync.isDurable(a)).isTrue();
    assertThat(sync.isDurable(sync.committed())).isFalse();
    assertThat(syncs.get()).isEqualTo(1);
  }

  @Test
  void aFailedSyncFailsItsWriteAndEveryLaterOne() throws Exception {
    startWriterSyncingWith(
        () -> {
          syncs.incrementAndGet();
          throw new IOException("disk on fire");
        });

    assertThatThrownBy(() -> writer.submit("insert", c -> insert(c, 1)).get(10, TimeUnit.SECONDS))
        .isInstanceOf(ExecutionException.class)
        .cause()
        .isInstanceOf(StoreUnavailableException.class)
        .hasMessageContaining("could not be synced")
        .hasMessageContaining("disk on fire");
    assertThatThrownBy(() -> writer.submit("insert", c -> insert(c, 2)).get(10, TimeUnit.SECONDS))
        .cause()
        .isInstanceOf(StoreUnavailableException.class);
    // The kernel may have dropped what it could not write: no second try.
    assertThat(syncs.get()).isEqualTo(1);
  }

  @Test
  void aSyncThatThrowsUncheckedBreaksTheSyncAsAnIoFailureDoes() {
    WalSync sync =
        new WalSync(
            () -> {
              syncs.incrementAndGet();
              throw new java.io.UncheckedIOException(new IOException("descriptor gone"));
            });

    assertThatThrownBy(() -> sync.awaitDurable(sync.committed()))
        .isInstanceOf(StoreUnavailableException.class)
        .hasMessageContaining("descriptor gone");
    assertThatThrownBy(() -> sync.awaitDurable(sync.committed()))
        .isInstanceOf(StoreUnavailableException.class);
    assertThat(syncs.get()).isEqualTo(1);
  }

  @Test
  void theOtherFileIsSyncedWithEveryCommitAndItsFailureBreaksTheSyncToo() {
    AtomicInteger others = new AtomicInteger();
    WalSync sync = new WalSync(syncs::incrementAndGet);
    sync.alsoForce(others::incrementAndGet);

    sync.awaitDurable(sync.committed());
    sync.awaitDurable(sync.committed());
    assertThat(others.get()).isEqualTo(2);

    sync.alsoForce(
        () -> {
          throw new IOException("log's disk on fire");
        });
    assertThatThrownBy(() -> sync.awaitDurable(sync.committed()))
        .isInstanceOf(StoreUnavailableException.class)
        .hasMessageContaining("log's disk on fire");
    assertThatThrownBy(() -> sync.awaitDurable(sync.committed()))
        .isInstanceOf(StoreUnavailableException.class);
  }

  @Test
  void afterAFailedSyncTheWriterSaysSoWithoutAWriteAndNoLaterGroupBegins() throws Exception {
    startWriterSyncingWith(
        () -> {
          if (syncs.incrementAndGet() == 2) {
            throw new IOException("disk on fire");
          }
        });
    writer.submit("insert", c -> insert(c, 1)).get(10, TimeUnit.SECONDS);
    writer.groupCommit().requireSound(); // what a readiness check asks: sound so far

    assertThatThrownBy(() -> writer.submit("insert", c -> insert(c, 2)).get(10, TimeUnit.SECONDS))
        .cause()
        .isInstanceOf(StoreUnavailableException.class);
    assertThatThrownBy(() -> writer.groupCommit().requireSound())
        .isInstanceOf(StoreUnavailableException.class)
        .hasMessageContaining("disk on fire");
    // A later group fails before it begins: its insert never reaches the database.
    assertThatThrownBy(() -> writer.submit("insert", c -> insert(c, 3)).get(10, TimeUnit.SECONDS))
        .cause()
        .isInstanceOf(StoreUnavailableException.class);
    assertThat(stored()).containsExactly(1, 2);
    assertThat(syncs.get()).isEqualTo(2);
  }

  @Test
  void theOtherFileIsSyncedBeforeTheWal() {
    List<String> order = new java.util.concurrent.CopyOnWriteArrayList<>();
    WalSync sync = new WalSync(() -> order.add("wal"));
    sync.alsoForce(() -> order.add("log"));

    sync.awaitDurable(sync.committed());

    // A fold durable in the database must not outlast, in a crash, the records it folded.
    assertThat(order).containsExactly("log", "wal");
  }

  @Test
  void aSyncFsyncsOnlyTheFilesTheCommitsSinceTheLastOneWroteTo() {
    AtomicInteger others = new AtomicInteger();
    WalSync sync = new WalSync(syncs::incrementAndGet);
    sync.alsoForce(others::incrementAndGet);

    long neither = sync.committed(false, false);
    sync.awaitDurable(neither);
    assertThat(sync.isDurable(neither)).isTrue();
    assertThat(syncs.get()).isZero();
    assertThat(others.get()).isZero();

    sync.awaitDurable(sync.committed(false, true));
    assertThat(syncs.get()).isZero();
    assertThat(others.get()).isEqualTo(1);

    sync.awaitDurable(sync.committed(true, false));
    assertThat(syncs.get()).isEqualTo(1);
    assertThat(others.get()).isEqualTo(1);

    // One sync for several commits syncs each file one of them wrote to.
    sync.committed(false, true);
    long last = sync.committed(true, false);
    sync.awaitDurable(sync.committed(false, false));
    assertThat(sync.isDurable(last)).isTrue();
    assertThat(syncs.get()).isEqualTo(2);
    assertThat(others.get()).isEqualTo(2);
  }

  @Test
  void aGroupThatChangedNoRowIsAnsweredWithoutAnFsyncOfTheWal() throws Exception {
    startWriterSyncingWith(syncs::incrementAndGet);
    writer.submit("insert", c -> insert(c, 1)).get(10, TimeUnit.SECONDS);
    int before = syncs.get();

    Integer none =
        writer
            .submit(
                "change nothing",
                c -> {
                  c.prepare("UPDATE items SET value = 9 WHERE value = 42").executeUpdate();
                  return 0;
                })
            .get(10, TimeUnit.SECONDS);

    assertThat(none).isZero();
    assertThat(syncs.get()).isEqualTo(before);
    writer.submit("insert", c -> insert(c, 2)).get(10, TimeUnit.SECONDS);
    assertThat(syncs.get()).isEqualTo(before + 1);
  }
}
