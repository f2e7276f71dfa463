package io.antrean.coordinator.store.sqlite;

import static io.antrean.coordinator.store.TestJobs.T0;
import static io.antrean.coordinator.store.TestJobs.job;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.antrean.coordinator.job.Job;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A quiet moment folds the jobs young for a while in short groups, one after another while no other
 * write comes, and one a look while others do.
 */
@Timeout(60)
class QuietFoldsTest extends YoungStoreFixture {
  private static final Duration AFTER = Duration.ofSeconds(5);

  @Test
  void aQuietMomentFoldsTheJobsYoungForAWhileInShortGroups() throws Exception {
    store = open(dataDir); // no quiet fold of its own within the test
    SqliteJobStore sqlite = (SqliteJobStore) store;
    store.enqueue(Collections.nCopies(1_500, job("old").build()), T0);
    long between = System.nanoTime();
    store.enqueue(List.of(job("new").build()), T0);
    QuietFolds quiet = new QuietFolds(sqlite.young(), sqlite.writer(), AFTER);
    long commits = sqlite.writer().groupCommit().commits();

    assertThat(quiet.runOnce(between)).isFalse(); // none young for 5 s yet
    assertThat(rows(dataDir)).isEqualTo("0");
    assertThat(quiet.runOnce(between + AFTER.toNanos())).isTrue();

    assertThat(rows(dataDir)).isEqualTo("1500"); // not the job made after
    assertThat(sqlite.writer().groupCommit().commits() - commits)
        .isEqualTo(1_500 / YoungLayer.QUIET_FOLD_JOBS);
    // Short folds leave the log in the segment it was: none of them synced one on the writer.
    try (Stream<Path> segments = Files.list(dataDir.resolve(SqliteJobStore.YOUNG_LOG_DIRECTORY))) {
      assertThat(segments.filter(f -> f.getFileName().toString().matches("young-\\d{20}\\.log")))
          .hasSize(1);
    }
    assertThat(store.get(1_501)).map(Job::type).contains("new");
  }

  @Test
  void aLookStopsAfterAFoldThatAnotherWriteCameDuringAndTheNextGoesOn() throws Exception {
    store = open(dataDir);
    SqliteJobStore sqlite = (SqliteJobStore) store;
    SqliteWriter writer = sqlite.writer();
    store.enqueue(Collections.nCopies(1_500, job("old").build()), T0);
    long later = System.nanoTime() + AFTER.toNanos();
    QuietFolds quiet = new QuietFolds(sqlite.young(), writer, AFTER);

    // Another write holds the writer while the look asks for its fold, as a trickle's would.
    CountDownLatch holding = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    CompletableFuture<Object> other =
        CompletableFuture.supplyAsync(
            () ->
                writer.await(
                    () ->
                        writer.submit(
                            WriteTask.apartFromJobs(
                                "another write",
                                c -> {
                                  holding.countDown();
                                  return awaitQuietly(release);
                                }))));
    assertThat(holding.await(30, TimeUnit.SECONDS)).isTrue();
    CompletableFuture<Boolean> look = CompletableFuture.supplyAsync(() -> quiet.runOnce(later));
    await("the look's fold asked while the other write holds the writer")
        .atMost(Duration.ofSeconds(30))
        .pollInterval(Duration.ofMillis(5))
        .until(sqlite.young()::quietFoldAsked);
    release.countDown();

    assertThat(look.get(30, TimeUnit.SECONDS)).isTrue();
    assertThat(other.get(30, TimeUnit.SECONDS)).isEqualTo(true);
    assertThat(rows(dataDir)).isEqualTo(String.valueOf(YoungLayer.QUIET_FOLD_JOBS));

    // The next look, with no other write, folds the rest one group after another.
    assertThat(quiet.runOnce(later)).isTrue();
    assertThat(rows(dataDir)).isEqualTo("1500");
  }

  private static boolean awaitQuietly(CountDownLatch latch) {
    try {
      return latch.await(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  @Test
  void aQuietMomentFoldsTheYoungJobsOnceTheyHaveBeenYoungAWhile() {
    store = open(dataDir, Duration.ofMillis(100));
    store.enqueue(List.of(job("a").build(), job("b").build()), T0);

    await("a quiet fold")
        .atMost(Duration.ofSeconds(20))
        .pollInterval(Duration.ofMillis(50))
        .until(() -> rows(dataDir), "2"::equals);
  }
}
