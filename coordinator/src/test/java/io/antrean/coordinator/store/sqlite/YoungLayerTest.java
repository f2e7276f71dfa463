package io.antrean.coordinator.store.sqlite;

import static io.antrean.coordinator.store.TestJobs.T0;
import static io.antrean.coordinator.store.TestJobs.job;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.store.JobStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * With young jobs on, a plain Enqueue's jobs are in their log and not yet in the database; the
 * first operation that needs the database folds them in, under the ids the Enqueue answered; an
 * image of the data directory taken right after the Enqueue's answer (what a crash leaves) holds
 * the job.
 */
@Timeout(60)
class YoungLayerTest {
  @TempDir Path dataDir;
  @TempDir Path crashImage;
  private JobStore store;

  private JobStore open(Path dir) {
    return SqliteJobStore.open(dir, SqliteOptions.defaults().withYoungJobs(true));
  }

  @AfterEach
  void close() {
    if (store != null) {
      store.close();
    }
  }

  private String rows(Path dir) throws SQLException {
    return DatabaseFile.text(dir, "SELECT group_concat(id) FROM jobs");
  }

  /** The log's bytes that are not zeros: its records', as segments are made of zeros ahead. */
  private static long logBytes(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir.resolve(SqliteJobStore.YOUNG_LOG_DIRECTORY))) {
      long bytes = 0;
      for (Path f : files.toList()) {
        for (byte b : Files.readAllBytes(f)) {
          bytes += b != 0 ? 1 : 0;
        }
      }
      return bytes;
    }
  }

  @Test
  void anEnqueuesJobsAreInTheLogUntilAReadFoldsThem() throws Exception {
    store = open(dataDir);
    List<Job> jobs =
        store.enqueue(List.of(job("a").build(), job("b").build()), T0).stream()
            .map(r -> r.job())
            .toList();

    assertThat(rows(dataDir)).isEqualTo("null"); // no row yet
    assertThat(logBytes(dataDir)).isPositive();

    Job read = store.get(jobs.get(1).id()).orElseThrow();
    assertThat(read.type()).isEqualTo("b");
    assertThat(rows(dataDir)).isEqualTo(jobs.get(0).id() + "," + jobs.get(1).id());
    assertThat(DatabaseFile.text(dataDir, "SELECT folded_up_to FROM young_log_folds"))
        .isEqualTo("2");
  }

  @Test
  void aLogLeftByARunWithYoungJobsIsFoldedWithThemOffAndNoSpareIsMadeForIt() throws Exception {
    store = open(dataDir);
    long id = store.enqueue(List.of(job("left young").build()), T0).get(0).job().id();
    DatabaseFile.copyDataDir(dataDir, crashImage);

    JobStore rows = SqliteJobStore.open(crashImage, SqliteStoreFixture.ROWS);
    try {
      assertThat(rows.get(id).orElseThrow().type()).isEqualTo("left young");
      assertThat(rows(crashImage)).isEqualTo(String.valueOf(id));
      Path log = crashImage.resolve(SqliteJobStore.YOUNG_LOG_DIRECTORY);
      // The spare the young run left is gone, and the segment this open started holds its header
      // alone (16 bytes): no room is made ahead for a log never written. The folded one goes at
      // the next open.
      try (Stream<Path> files = Files.list(log)) {
        assertThat(files.map(f -> f.getFileName().toString()).sorted())
            .containsExactly("young-00000000000000000001.log", "young-00000000000000000002.log");
      }
      assertThat(Files.size(log.resolve("young-00000000000000000002.log"))).isEqualTo(16);
    } finally {
      rows.close();
    }
  }

  @Test
  void anEnqueueWhoseJobsStayYoungTakesNoTransactionAndAnotherThatMustWaitsForIt()
      throws Exception {
    // A lock wait of half a second: an Enqueue that began a transaction would fail in it.
    store =
        SqliteJobStore.open(
            dataDir,
            SqliteOptions.defaults().withYoungJobs(true).withBusyTimeout(Duration.ofMillis(500)));
    long first = store.enqueue(List.of(job("before").build()), T0).get(0).job().id();
    DatabaseFile.onOneConnection(
        dataDir,
        other -> {
          other.execute("BEGIN IMMEDIATE"); // the database's write lock, held elsewhere
          try {
            long young = store.enqueue(List.of(job("young").build()), T0).get(0).job().id();
            assertThat(young).isEqualTo(first + 1);
            // One with a key goes to the rows: its group must begin a transaction, and waits.
            assertThatThrownBy(() -> store.enqueue(List.of(job("keyed").key("k").build()), T0))
                .isInstanceOf(RuntimeException.class);
          } finally {
            other.execute("ROLLBACK");
          }
        });
    assertThat(store.get(first + 1).orElseThrow().type()).isEqualTo("young");
  }

  @Test
  void idsGoOnPastTheYoungJobsOnTheOtherPaths() {
    store = open(dataDir);
    long young = store.enqueue(List.of(job("a").build()), T0).get(0).job().id();
    long keyed = store.enqueue(List.of(job("k").key("key-1").build()), T0).get(0).job().id();
    long youngAgain = store.enqueue(List.of(job("c").build()), T0).get(0).job().id();

    assertThat(keyed).isEqualTo(young + 1);
    assertThat(youngAgain).isEqualTo(keyed + 1);
    assertThat(store.get(youngAgain).orElseThrow().type()).isEqualTo("c");
  }

  @Test
  void whatACrashLeavesRightAfterTheAnswerHoldsTheJob() throws Exception {
    store = open(dataDir);
    store.enqueue(List.of(job("first").build()), T0);
    store.get(1); // folded
    long id = store.enqueue(List.of(job("acknowledged").build()), T0).get(0).job().id();

    DatabaseFile.copyDataDir(
        dataDir, crashImage); // the files as they are on disk, the store still open
    JobStore recovered = open(crashImage);
    try {
      assertThat(recovered.get(id).orElseThrow().type()).isEqualTo("acknowledged");
      assertThat(recovered.get(1).orElseThrow().type()).isEqualTo("first");
      long next = recovered.enqueue(List.of(job("after").build()), T0).get(0).job().id();
      assertThat(next).isEqualTo(id + 1);
    } finally {
      recovered.close();
    }
    recovered = open(crashImage);
    try {
      assertThat(recovered.get(id + 1).orElseThrow().type()).isEqualTo("after");
      assertThat(DatabaseFile.text(crashImage, "SELECT count(*) FROM jobs")).isEqualTo("3");
    } finally {
      recovered.close();
    }
  }

  @Test
  void aJobFoldedInTheGroupThatMadeItIsNotReplayed() throws Exception {
    store = open(dataDir);
    SqliteJobStore sqlite = (SqliteJobStore) store;
    var enqueued =
        sqlite.writeTogether(
            () -> {
              var young = sqlite.enqueueAsync(List.of(job("young").build()), T0);
              var keyed = sqlite.enqueueAsync(List.of(job("keyed").key("k").build()), T0);
              return List.of(young, keyed);
            });
    long id = enqueued.get(0).join().get(0).job().id();
    long keyed = enqueued.get(1).join().get(0).job().id();
    assertThat(keyed).isEqualTo(id + 1);

    DatabaseFile.copyDataDir(dataDir, crashImage);
    JobStore recovered = open(crashImage);
    try {
      assertThat(recovered.get(id).orElseThrow().type()).isEqualTo("young");
      assertThat(DatabaseFile.text(crashImage, "SELECT count(*) FROM jobs")).isEqualTo("2");
    } finally {
      recovered.close();
    }
  }

  @Test
  void aBatchWhoseLogWriteTheCrashTornComesBackNotAtAll() throws Exception {
    store = open(dataDir);
    long alone = store.enqueue(List.of(job("alone").build()), T0).get(0).job().id();
    List<Long> batch =
        store.enqueue(List.of(job("b1").build(), job("b2").build(), job("b3").build()), T0).stream()
            .map(r -> r.job().id())
            .toList();

    // The batch's records are the log's last: a crash that tore their write (never answered) leaves
    // the first two whole and the third short.
    DatabaseFile.copyDataDir(dataDir, crashImage);
    Path segment;
    try (Stream<Path> files = Files.list(crashImage.resolve(SqliteJobStore.YOUNG_LOG_DIRECTORY))) {
      segment =
          files
              .filter(f -> f.getFileName().toString().matches("young-\\d{20}\\.log"))
              .sorted()
              .reduce((a, b) -> b)
              .orElseThrow();
    }
    // The segment was made with zeros the records overwrite: its last five bytes that are not
    // zeros go back to them, the last of them the third record's.
    byte[] bytes = Files.readAllBytes(segment);
    int end = bytes.length;
    while (bytes[end - 1] == 0) {
      end--;
    }
    java.util.Arrays.fill(bytes, end - 5, end, (byte) 0);
    Files.write(segment, bytes);

    JobStore recovered = open(crashImage);
    try {
      assertThat(recovered.get(alone).orElseThrow().type()).isEqualTo("alone");
      for (long id : batch) {
        assertThat(recovered.get(id)).as("job %d of the torn batch", id).isEmpty();
      }
    } finally {
      recovered.close();
    }
  }
}
