package io.antrean.coordinator.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.antrean.coordinator.job.DependsOn;
import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.job.NewJob;
import io.antrean.coordinator.job.RetryPolicy;
import io.antrean.coordinator.store.Completion;
import io.antrean.coordinator.store.LeaseClaim;
import io.antrean.coordinator.store.LeaseRenewal;
import io.antrean.coordinator.store.LeaseSpec;
import io.antrean.coordinator.store.QueueCounts;
import io.antrean.coordinator.store.sqlite.young.YoungJobs;
import io.antrean.coordinator.store.sqlite.young.YoungJobs.YoungJob;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A young job folded into the database reads back as the job a plain Enqueue stores, under the id
 * it was given, and the ids the table hands out after it go on past it; one leased, extended or
 * completed while young folds as the rows its operations write; a fold rolled back with its
 * operation leaves no row and the jobs young.
 */
@Timeout(30)
class YoungFoldsTest extends SqliteStoreFixture {
  private static final Instant NOW = Instant.parse("2026-12-07T07:30:00.000001Z");
  private final YoungJobs young = new YoungJobs();

  private static NewJob job(byte[] payload) {
    return new NewJob(
        "mail",
        "send",
        payload,
        "application/json",
        2,
        NOW.plusSeconds(3),
        null,
        null,
        new RetryPolicy(4, Duration.ofSeconds(2), 3.0, Duration.ofMinutes(1), 2),
        "00-trace-span-01",
        "tenant-1",
        null,
        DependsOn.NONE);
  }

  private SqliteWriter writer() {
    return ((SqliteJobStore) store).writer();
  }

  /** Makes {@code jobs} young under fresh ids and folds them, in one operation. */
  private List<Long> foldAsYoung(List<NewJob> jobs) {
    return writer()
        .execute(
            "fold",
            c -> {
              young.beginGroup();
              long id = YoungFolds.nextJobId(c);
              List<Long> ids = new java.util.ArrayList<>();
              for (NewJob j : jobs) {
                ids.add(young.create(id++, j, NOW).id());
              }
              YoungFolds.fold(c, young);
              young.commitGroup();
              return ids;
            });
  }

  @Test
  void aFoldedJobReadsBackAsTheJobAnEnqueueStores() {
    byte[] small = "{\"n\":1}".getBytes(StandardCharsets.UTF_8);
    byte[] large = new byte[5000]; // kept apart from the row
    large[4999] = 9;
    Job enqueued = store.enqueue(List.of(job(small)), NOW).get(0).job();

    List<Long> ids = foldAsYoung(List.of(job(small), job(large)));

    assertThat(ids).containsExactly(enqueued.id() + 1, enqueued.id() + 2);
    Job folded = store.get(ids.get(0)).orElseThrow();
    assertThat(folded)
        .usingRecursiveComparison()
        .ignoringFields("id", "payload")
        .isEqualTo(enqueued);
    assertThat(folded.payload()).isEqualTo(small);
    assertThat(store.get(ids.get(1)).orElseThrow().payload()).isEqualTo(large);
    assertThat(young.isEmpty()).isTrue();
    assertThat(store.stats("mail", NOW).get(0).scheduled()).isEqualTo(3); // due in 3 s
    assertThat(store.enqueue(List.of(job(small)), NOW).get(0).job().id())
        .isEqualTo(enqueued.id() + 3);
  }

  @Test
  void jobsLeasedExtendedAndCompletedWhileYoungFoldAsTheRowsTheirOperationsWrite()
      throws Exception {
    byte[] payload = "{\"n\":2}".getBytes(StandardCharsets.UTF_8);
    Instant leasedAt = NOW.plusSeconds(5);
    Instant heartbeatAt = NOW.plusSeconds(6);
    Instant doneAt = NOW.plusSeconds(7);
    // The operations themselves, on the database's rows.
    store.enqueue(List.of(job(payload), job(payload)), NOW);
    List<Job> leased =
        store.lease(new LeaseSpec("w-1", "mail", Set.of(), 2, leasedAt.plusSeconds(30)), leasedAt);
    Job running = leased.get(0);
    Job done = leased.get(1);
    store.heartbeat(
        "w-1",
        List.of(new LeaseRenewal(running.id(), LeaseClaim.of(running), "half way")),
        heartbeatAt.plusSeconds(30),
        heartbeatAt);
    store.completeAll(
        "w-1",
        List.of(new Completion(done.id(), LeaseClaim.of(done), new byte[] {4, 2}, "text/plain")),
        doneAt);

    // The same, young, then folded.
    List<Long> ids =
        writer()
            .execute(
                "young",
                c -> {
                  byte[] runningDigest = digest(running);
                  byte[] doneDigest = digest(done);
                  young.beginGroup();
                  long id = YoungFolds.nextJobId(c);
                  long first = young.create(id, job(payload), NOW).id();
                  long second = young.create(id + 1, job(payload), NOW).id();
                  young.lease(first, "w-1", runningDigest, leasedAt.plusSeconds(30), leasedAt);
                  young.lease(second, "w-1", doneDigest, leasedAt.plusSeconds(30), leasedAt);
                  young.extend(
                      first,
                      YoungJobs.FIRST_TOKEN,
                      heartbeatAt.plusSeconds(30),
                      "half way",
                      heartbeatAt);
                  young.succeed(
                      second, YoungJobs.FIRST_TOKEN, new byte[] {4, 2}, "text/plain", doneAt);
                  YoungFolds.fold(c, young);
                  young.commitGroup();
                  return List.of(first, second);
                });

    assertThat(row("jobs", "id", ids.get(0))).isEqualTo(row("jobs", "id", running.id()));
    assertThat(row("jobs", "id", ids.get(1))).isEqualTo(row("jobs", "id", done.id()));
    assertThat(row("attempts", "job_id", ids.get(0)))
        .isEqualTo(row("attempts", "job_id", running.id()));
    assertThat(row("attempts", "job_id", ids.get(1)))
        .isEqualTo(row("attempts", "job_id", done.id()));
    QueueCounts counts = store.stats("mail", doneAt).get(0);
    assertThat(counts.running()).isEqualTo(2);
    assertThat(counts.succeeded()).isEqualTo(2);
    assertThat(counts.pending()).isZero();
    assertThat(store.get(ids.get(1)).orElseThrow().result()).containsExactly(4, 2);
    DatabaseFile.assertQueueCountsAreTheJobs(dataDir);
  }

  private byte[] digest(Job leased) throws SQLException {
    return HexFormat.of()
        .parseHex(query("SELECT hex(lease_id_sha256) FROM jobs WHERE id = " + leased.id()));
  }

  /** Every column of a table's rows for one job but their own ids and the job's, as text. */
  private String row(String table, String idColumn, long id) throws SQLException {
    // One text per row (a query's text is its last column's): each column quoted, joined by |.
    String columns =
        query(
            "SELECT group_concat('quote(' || name || ')', ' || ''|'' || ')"
                + " FROM pragma_table_info('"
                + table
                + "') WHERE name NOT IN ('id', 'job_id')");
    return query("SELECT " + columns + " FROM " + table + " WHERE " + idColumn + " = " + id);
  }

  @Test
  void theNextIdGoesPastJobsThatAreGone() throws Exception {
    long first = store.enqueue(List.of(job(new byte[0])), NOW).get(0).job().id();
    update("DELETE FROM jobs");

    assertThat(foldAsYoung(List.of(job(new byte[0])))).containsExactly(first + 1);
  }

  @Test
  void aFoldRolledBackWithItsOperationLeavesTheJobsYoung() {
    assertThatThrownBy(
            () ->
                writer()
                    .execute(
                        "fold",
                        c -> {
                          young.beginGroup();
                          int mark = young.mark();
                          young.create(YoungFolds.nextJobId(c), job(new byte[0]), NOW);
                          young.commitGroup();
                          young.beginGroup();
                          mark = young.mark();
                          try {
                            YoungFolds.fold(c, young);
                            throw new IllegalStateException("the operation fails after the fold");
                          } catch (IllegalStateException e) {
                            young.rollbackTo(mark);
                            young.commitGroup();
                            throw e;
                          }
                        }))
        .hasMessageContaining("fails after the fold");

    assertThat(young.all()).extracting(YoungJob::id).hasSize(1);
    assertThat(store.stats("mail", NOW).get(0).scheduled()).isZero();
  }
}
