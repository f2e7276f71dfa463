package io.antrean.coordinator.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.antrean.coordinator.job.DependsOn;
import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.job.NewJob;
import io.antrean.coordinator.job.RetryPolicy;
import io.antrean.coordinator.store.sqlite.young.YoungJobs;
import io.antrean.coordinator.store.sqlite.young.YoungJobs.YoungJob;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A young job folded into the database reads back as the job a plain Enqueue stores, under the id
 * it was given, and the ids the table hands out after it go on past it; a fold rolled back with its
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
