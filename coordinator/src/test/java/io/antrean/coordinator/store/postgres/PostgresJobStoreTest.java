package io.antrean.coordinator.store.postgres;

import static io.antrean.coordinator.store.TestJobs.T0;
import static io.antrean.coordinator.store.TestJobs.at;
import static io.antrean.coordinator.store.TestJobs.job;
import static io.antrean.coordinator.store.TestJobs.spec;
import static io.antrean.coordinator.store.TestJobs.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.job.JobState;
import io.antrean.coordinator.job.LeaseId;
import io.antrean.coordinator.job.NewJob;
import io.antrean.coordinator.store.JobQuery;
import io.antrean.coordinator.store.JobStore;
import io.antrean.coordinator.store.JobStoreContract;
import io.antrean.coordinator.store.LeaseClaim;
import io.antrean.coordinator.store.LeaseLostException;
import io.antrean.coordinator.store.StoreUnavailableException;
import io.antrean.coordinator.store.TestJobs;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The contract on PostgreSQL (each test in a fresh schema of the one test server), plus what a
 * shared database adds: durability across reopening, migrations, durable commits.
 */
class PostgresJobStoreTest extends JobStoreContract {
  @RegisterExtension static final TestPostgres postgres = new TestPostgres();

  private PostgresOptions options;

  @Override
  protected JobStore openStore() {
    options = postgres.freshSchema();
    return PostgresJobStore.open(options);
  }

  private PostgresJobStore postgresStore() {
    return (PostgresJobStore) store;
  }

  @Override
  public void reopenStore() {
    reopen();
  }

  @Override
  public void awaitJobsReadyHeard() {
    try {
      assertThat(postgresStore().awaitListening(Duration.ofSeconds(20))).as("listening").isTrue();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted while waiting for the LISTEN", e);
    }
  }

  private void reopen() {
    store.close();
    store = PostgresJobStore.open(options);
  }

  private String queryOnTheStoresPool(String sql) {
    return postgresStore()
        .transactions()
        .autoCommitted(
            "test query",
            tx -> {
              try (ResultSet rows = tx.prepare(sql).executeQuery()) {
                rows.next();
                return rows.getString(1);
              }
            });
  }

  @Test
  void leaseIdGrantedThroughOneStoreHoldsThroughAnotherOnTheSameDatabase() {
    enqueue("t");
    Job leased = leaseOne("w");
    try (PostgresJobStore other = PostgresJobStore.open(options)) {
      LeaseClaim guessed = new LeaseClaim(token(leased), LeaseId.generate());
      assertThatThrownBy(() -> other.complete(leased.id(), guessed, "w", null, null, at(1)))
          .isInstanceOf(LeaseLostException.class);
      assertThat(other.complete(leased.id(), claim(leased), "w", null, null, at(2)).state())
          .isEqualTo(JobState.SUCCEEDED);
    }
  }

  @Test
  void queuePauseIsSeenByAnotherStoreOnTheSameDatabase() {
    Job pending = enqueue("t");
    try (PostgresJobStore other = PostgresJobStore.open(options)) {
      store.setQueuePaused(TestJobs.QUEUE, true, at(1));

      assertThat(other.pausedQueues()).containsOnlyKeys(TestJobs.QUEUE);
      assertThat(other.lease(spec("w", 10, at(30)), at(2))).isEmpty();

      other.setQueuePaused(TestJobs.QUEUE, false, at(3));
      assertThat(store.lease(spec("w", 10, at(30)), at(4)))
          .singleElement()
          .satisfies(j -> assertThat(j.id()).isEqualTo(pending.id()));
    }
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
    Job leased = leaseOne("w");
    store.complete(leased.id(), claim(leased), "w", utf8("done"), "text/plain", at(1));
    enqueue("resize");
    Job stillRunning = leaseOne("w", at(2), at(30));

    reopen();

    Job done = reload(leased.id());
    assertThat(done.state()).isEqualTo(JobState.SUCCEEDED);
    assertThat(done.result()).isEqualTo(utf8("done"));
    assertThat(reload(stillRunning.id()).lease()).isEqualTo(stillRunning.lease());
    assertThat(store.runningLeases()).hasSize(1);
    assertThat(
            store.enqueue(List.of(job("email").key("k").payload("{\"to\":\"x\"}").build()), at(3)))
        .singleElement()
        .satisfies(r -> assertThat(r.job().id()).isEqualTo(pending.id()));
    assertThat(enqueue("next").id()).isGreaterThan(stillRunning.id());
  }

  @Test
  void fencingTokensKeepGrowingAcrossReopening() {
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
    try (Connection connection = postgres.connect();
        Statement statement = connection.createStatement()) {
      statement.execute("DELETE FROM " + options.schema() + ".jobs WHERE id = " + newest.id());
    }
    store = PostgresJobStore.open(options);

    assertThat(enqueue("t").id()).isGreaterThan(newest.id());
  }

  @Test
  void deletedJobsLeaveNoHistoryOrKeysBehind() {
    Job dead = deadLetter(job("a").key("ka").build(), at(1), "boom");
    succeeded(job("b").key("kb").build(), at(2));
    Job kept = succeeded(job("c").key("kc").build(), at(50));
    assertThat(queryOnTheStoresPool("SELECT count(*) FROM attempts")).isEqualTo("3");

    assertThat(store.purgeDeadLetters(List.of(dead.id()))).isEqualTo(1);
    assertThat(store.deleteFinished(JobState.SUCCEEDED, at(10), 10)).isEqualTo(1);

    String survivor = String.valueOf(kept.id());
    assertThat(queryOnTheStoresPool("SELECT string_agg(DISTINCT job_id::text, ',') FROM attempts"))
        .isEqualTo(survivor);
    assertThat(queryOnTheStoresPool("SELECT string_agg(job_id::text, ',') FROM idempotency_keys"))
        .isEqualTo(survivor);
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
  void reopeningAppliesNoMigrationTwice() {
    reopen();

    assertThat(
            queryOnTheStoresPool(
                "SELECT string_agg(version, ',' ORDER BY installed_rank)"
                    + " FROM flyway_schema_history WHERE type = 'SQL' AND success"))
        .as("each migration applied once, in order")
        .isEqualTo("1,2,3.1,4,5,6,7,8,9,10,11,12,13,14,15,16,17");
  }

  @Test
  void commitsAreSynchronousEvenWhereTheSessionDefaultIsOff() {
    String url = options.jdbcUrl();
    String asyncUrl =
        url + (url.contains("?") ? "&" : "?") + "options=-c%20synchronous_commit%3Doff";
    store.close();
    store =
        PostgresJobStore.open(
            new PostgresOptions(
                asyncUrl,
                options.user(),
                options.password(),
                options.poolSize(),
                options.schema(),
                options.connectionTimeout()));

    assertThat(queryOnTheStoresPool("SHOW synchronous_commit")).isEqualTo("on");
  }

  @Test
  void instantsOutsideWhatPostgresqlStoresAreRefusedAsBadInput() {
    Instant tooLate = Timestamps.MAX.plusSeconds(1);

    assertThatThrownBy(() -> store.enqueue(List.of(job("t").runAt(tooLate).build()), at(0)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(enqueue(job("t").runAt(Timestamps.MAX).build()).runAt()).isEqualTo(Timestamps.MAX);
    assertThat(enqueue(job("t").runAt(Timestamps.MIN).build()).runAt()).isEqualTo(Timestamps.MIN);
    assertThat(store.list(new JobQuery(null, null, null, null, 10)).jobs())
        .extracting(Job::runAt)
        .containsExactly(Timestamps.MIN, Timestamps.MAX);
  }

  @Test
  void aBatchStoresEachJobAsGivenUnderItsOwnIdAcrossTheWholeRangeOfInstants() {
    List<Instant> runAts =
        List.of(
            Timestamps.MIN,
            Instant.parse("-0043-03-15T11:00:00.000007Z"),
            Instant.parse("0000-12-31T23:59:59.999999Z"),
            Instant.parse("0001-01-01T00:00:00Z"),
            T0.plusNanos(123_456_789),
            Instant.parse("+10000-01-01T00:00:00.000001Z"),
            Timestamps.MAX);
    List<NewJob> batch = new ArrayList<>();
    for (int i = 0; i < runAts.size(); i++) {
      batch.add(
          job("type-" + i)
              .queue(i % 2 == 0 ? "even" : "odd")
              .payload("{\"n\":" + i + "}")
              .priority(i - 3)
              .runAt(runAts.get(i))
              .maxLeaseExpiries(i + 1)
              .traceParent(i % 3 == 0 ? null : "00-" + i)
              .concurrencyKey(i % 2 == 0 ? "key-" + i : null)
              .build());
    }

    List<Job> stored =
        store.enqueue(batch, at(5).plusNanos(999)).stream().map(r -> r.job()).toList();

    assertThat(stored)
        .extracting(Job::type)
        .containsExactly("type-0", "type-1", "type-2", "type-3", "type-4", "type-5", "type-6");
    assertThat(stored)
        .extracting(Job::runAt)
        .containsExactlyElementsOf(
            runAts.stream().map(t -> t.truncatedTo(ChronoUnit.MICROS)).toList());
    assertThat(stored).extracting(Job::createdAt).containsOnly(at(5));
    for (Job job : stored) {
      assertThat(reload(job.id())).usingRecursiveComparison().isEqualTo(job);
    }
  }

  @Test
  void aBatchWhosePayloadsPassOneStatementsShareGoesInSeveralInOrder() {
    int mebibyte = 1 << 20;
    int jobs = (int) (PostgresEnqueue.MAX_STATEMENT_PAYLOAD_BYTES / mebibyte) + 2;
    List<NewJob> batch = new ArrayList<>();
    for (int i = 0; i < jobs; i++) {
      byte[] payload = new byte[mebibyte];
      Arrays.fill(payload, (byte) i);
      batch.add(job("big-" + i).payload(payload, "application/octet-stream").build());
    }

    List<Job> stored = store.enqueue(batch, at(0)).stream().map(r -> r.job()).toList();

    assertThat(stored).hasSize(jobs);
    for (int i = 0; i < jobs; i++) {
      Job reloaded = reload(stored.get(i).id());
      assertThat(reloaded.type()).isEqualTo("big-" + i);
      assertThat(reloaded.payload()).isEqualTo(batch.get(i).payload());
    }
  }

  @Test
  void aGroupOfEnqueuesCommitsInOneStatementOnlyWhenItsPayloadsFitOne() {
    int half = (int) (PostgresEnqueue.MAX_STATEMENT_PAYLOAD_BYTES / 2);
    NewJob halfFull = job("t").payload(new byte[half], "application/octet-stream").build();
    NewJob overFull = job("t").payload(new byte[half * 2 + 1], "application/octet-stream").build();

    assertThat(PostgresEnqueue.fitsOneStatement(List.of(halfFull, halfFull))).isTrue();
    assertThat(PostgresEnqueue.fitsOneStatement(List.of(halfFull, halfFull, job("t").build())))
        .isFalse();
    assertThat(PostgresEnqueue.fitsOneStatement(List.of(overFull))).isTrue();
  }

  @Test
  void aPoolOfOneConnectionServesEveryCall() {
    store.close();
    store = PostgresJobStore.open(options.withPoolSize(1));

    enqueue(job("t").key("k").build());
    Job leased = leaseOne("w");
    store.complete(leased.id(), claim(leased), "w", null, null, at(1));

    assertThat(reload(leased.id()).state()).isEqualTo(JobState.SUCCEEDED);
  }

  @Test
  void unreachableDatabaseFailsToOpenAsUnavailable() {
    PostgresOptions nowhere =
        PostgresOptions.of("jdbc:postgresql://127.0.0.1:1/none", "nobody", "secret-password")
            .withConnectionTimeout(Duration.ofSeconds(1));

    assertThatThrownBy(() -> PostgresJobStore.open(nowhere))
        .isInstanceOf(StoreUnavailableException.class)
        .hasMessageNotContaining("secret-password");
  }

  @Test
  void optionsNeverShowThePassword() {
    PostgresOptions withSecrets =
        PostgresOptions.of("jdbc:postgresql://db/antrean?password=url-secret", "antrean", "secret");

    assertThat(withSecrets.toString()).doesNotContain("secret").contains("antrean");
  }
}
