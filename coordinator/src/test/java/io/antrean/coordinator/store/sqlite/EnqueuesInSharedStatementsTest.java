package io.antrean.coordinator.store.sqlite;

import static io.antrean.coordinator.store.TestJobs.T0;
import static io.antrean.coordinator.store.TestJobs.at;
import static io.antrean.coordinator.store.TestJobs.job;
import static io.antrean.coordinator.store.TestJobs.spec;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.job.NewJob;
import io.antrean.coordinator.store.EnqueueResult;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * New jobs with nothing but their row to write go in multi-row inserts ({@link NewJobRows}): the
 * runs of them inside one batch, and the plain Enqueues that one group commit holds. Each job must
 * come back, and read back, under the id its own row got, and an Enqueue that fails in the shared
 * statements must fail alone.
 */
@Timeout(30)
class EnqueuesInSharedStatementsTest extends SqliteStoreFixture {

  private SqliteJobStore sqlite() {
    return (SqliteJobStore) store;
  }

  /** A plain job whose payload names it, some of them large enough to be kept apart. */
  private static NewJob named(String type, int n) {
    String padding = n % 7 == 0 ? "x".repeat(JobPayloads.IN_ROW_MAX) : "";
    return job(type).payload("{\"n\":" + n + ",\"p\":\"" + padding + "\"}").build();
  }

  private static void assertStoredAsAsked(Job stored, NewJob asked) {
    assertThat(stored.type()).isEqualTo(asked.type());
    assertThat(new String(stored.payload(), UTF_8)).isEqualTo(new String(asked.payload(), UTF_8));
  }

  @Test
  void aBatchCutIntoChunksAroundKeyedJobsReturnsAndStoresEachJobUnderItsOwnId() {
    List<NewJob> batch = new ArrayList<>();
    for (int n = 0; n < 150; n++) {
      if (n == 70) {
        batch.add(job("t").payload("{\"n\":70}").key("k-70").build());
      } else if (n == 71) {
        batch.add(job("t").payload("{\"n\":71}").unique("u-71", false).build());
      } else {
        batch.add(named("t", n));
      }
    }

    List<EnqueueResult> results = store.enqueue(batch, T0);

    assertThat(results).hasSize(batch.size());
    long previous = 0;
    for (int n = 0; n < batch.size(); n++) {
      Job returned = results.get(n).job();
      assertThat(returned.id()).as("ids follow the batch's order").isGreaterThan(previous);
      previous = returned.id();
      assertStoredAsAsked(returned, batch.get(n));
      assertStoredAsAsked(store.get(returned.id()).orElseThrow(), batch.get(n));
    }
  }

  @Test
  void plainEnqueuesOfOneGroupShareStatementsAndEachGetsItsOwnJobsAndTime() {
    long togetherBefore = sqlite().writer().groupCommit().enqueuesStoredTogether();
    List<List<NewJob>> asked = new ArrayList<>();
    for (int e = 0; e < 5; e++) {
      List<NewJob> jobs = new ArrayList<>();
      for (int j = 0; j <= e; j++) {
        jobs.add(named("t" + e, 10 * e + j));
      }
      asked.add(jobs);
    }

    List<CompletableFuture<List<EnqueueResult>>> enqueued =
        store.writeTogether(
            () -> {
              List<CompletableFuture<List<EnqueueResult>>> futures = new ArrayList<>();
              for (int e = 0; e < asked.size(); e++) {
                futures.add(store.enqueueAsync(asked.get(e), at(e)));
              }
              return futures;
            });

    for (int e = 0; e < asked.size(); e++) {
      List<EnqueueResult> results = enqueued.get(e).join();
      assertThat(results).hasSize(asked.get(e).size());
      for (int j = 0; j < results.size(); j++) {
        Job returned = results.get(j).job();
        assertThat(results.get(j).deduplicated()).isFalse();
        assertThat(returned.createdAt()).isEqualTo(at(e));
        assertStoredAsAsked(returned, asked.get(e).get(j));
        Job read = store.get(returned.id()).orElseThrow();
        assertStoredAsAsked(read, asked.get(e).get(j));
        assertThat(read.createdAt()).isEqualTo(at(e));
      }
    }
    assertThat(sqlite().writer().groupCommit().enqueuesStoredTogether() - togetherBefore)
        .isEqualTo(5);
  }

  @Test
  void anEnqueueThatFailsInALaterSharedStatementFailsAloneAndTheOthersAreStoredOnce()
      throws Exception {
    // Stands for any failure of one Enqueue's rows: its jobs' type is refused by a trigger.
    update(
        "CREATE TRIGGER refuse_type BEFORE INSERT ON jobs WHEN NEW.type = 'refused'"
            + " BEGIN SELECT RAISE(ABORT, 'type refused'); END");
    long togetherBefore = sqlite().writer().groupCommit().enqueuesStoredTogether();
    List<NewJob> first = new ArrayList<>();
    for (int n = 0; n < 70; n++) {
      first.add(named("t", n));
    }
    // 72 jobs in all: a statement of 64 (with payloads kept apart) goes in before this one fails.
    List<NewJob> refused = List.of(named("refused", 70));
    List<NewJob> last = List.of(named("t", 71));

    List<CompletableFuture<List<EnqueueResult>>> enqueued =
        store.writeTogether(
            () ->
                List.of(
                    store.enqueueAsync(first, T0),
                    store.enqueueAsync(refused, T0),
                    store.enqueueAsync(last, T0)));

    assertThatThrownBy(() -> enqueued.get(1).join())
        .isInstanceOf(CompletionException.class)
        .hasMessageContaining("type refused");
    List<NewJob> asked = new ArrayList<>(first);
    asked.addAll(last);
    List<Job> stored = new ArrayList<>();
    enqueued.get(0).join().forEach(result -> stored.add(result.job()));
    enqueued.get(2).join().forEach(result -> stored.add(result.job()));
    assertThat(stored).hasSize(asked.size());
    for (int i = 0; i < asked.size(); i++) {
      assertStoredAsAsked(store.get(stored.get(i).id()).orElseThrow(), asked.get(i));
    }
    assertThat(query("SELECT count(*) FROM jobs")).isEqualTo("71");
    // The kept-apart payloads of n = 0, 7 ... 63.
    assertThat(query("SELECT count(*) FROM job_payloads")).isEqualTo("10");
    assertThat(sqlite().writer().groupCommit().enqueuesStoredTogether()).isEqualTo(togetherBefore);
    DatabaseFile.assertQueueCountsAreTheJobs(dataDir);
  }

  @Test
  void aLeaseAfterEnqueuesStoredTogetherSeesTheirJobs() {
    long togetherBefore = sqlite().writer().groupCommit().enqueuesStoredTogether();

    List<Job> leased =
        store
            .writeTogether(
                () -> {
                  store.enqueueAsync(List.of(named("t", 1)), T0);
                  store.enqueueAsync(List.of(named("t", 2)), T0);
                  return store.leaseAsync(spec("w", 10, at(60)), T0);
                })
            .join();

    assertThat(leased).hasSize(2);
    assertThat(sqlite().writer().groupCommit().enqueuesStoredTogether() - togetherBefore)
        .isEqualTo(2);
  }

  @Test
  void anEnqueueWithAKeyBetweenPlainOnesRunsOnItsOwnInOrder() {
    List<CompletableFuture<List<EnqueueResult>>> enqueued =
        store.writeTogether(
            () ->
                List.of(
                    store.enqueueAsync(List.of(named("t", 1)), T0),
                    store.enqueueAsync(List.of(job("t").key("k").build()), T0),
                    store.enqueueAsync(List.of(named("t", 2)), T0),
                    store.enqueueAsync(List.of(job("t").key("k").build()), T0)));

    long[] ids = enqueued.stream().mapToLong(f -> f.join().get(0).job().id()).toArray();
    assertThat(ids[0]).isLessThan(ids[1]);
    assertThat(ids[1]).isLessThan(ids[2]);
    assertThat(enqueued.get(3).join().get(0).deduplicated()).isTrue();
    assertThat(ids[3]).isEqualTo(ids[1]);
  }

  @Test
  void nothingButPlainJobsWithoutDependenciesIsStoredTogether() {
    Instant now = T0;
    assertThat(NewJobRows.PlainEnqueue.of(List.of(named("t", 1)), now)).isNotNull();
    assertThat(NewJobRows.PlainEnqueue.of(List.of(named("t", 1), job("t").key("k").build()), now))
        .isNull();
    assertThat(NewJobRows.PlainEnqueue.of(List.of(job("t").unique("u", true).build()), now))
        .isNull();
    assertThat(NewJobRows.PlainEnqueue.of(List.of(job("t").dependsOn(1L).build()), now)).isNull();
  }
}
