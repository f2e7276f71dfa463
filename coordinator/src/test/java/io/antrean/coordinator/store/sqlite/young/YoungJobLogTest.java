package io.antrean.coordinator.store.sqlite.young;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.antrean.coordinator.store.sqlite.young.YoungJobLog.Entry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The young jobs' log gives back, after a reopen, every record synced past the last fold, in order
 * and with its position; it drops what was folded by whole segments, cuts a torn tail and refuses a
 * damaged sealed segment. Its segments are made ahead of need with room for {@link #SEGMENT} bytes,
 * which the records overwrite: zeros after a segment's records are its end.
 */
@Timeout(30)
class YoungJobLogTest {
  /** The room each segment of the logs opened here is made with. */
  static final int SEGMENT = 4096;

  @TempDir Path directory;

  private final List<String> replayed = new ArrayList<>();
  private final List<Long> positions = new ArrayList<>();

  private YoungJobLog open(long foldedUpTo) throws IOException {
    replayed.clear();
    positions.clear();
    return YoungJobLog.open(directory, foldedUpTo, this::replay, SEGMENT);
  }

  private void replay(Entry entry) {
    replayed.add(new String(entry.record(), UTF_8));
    positions.add(entry.position());
  }

  static long append(YoungJobLog log, String record) {
    return log.append(record.getBytes(UTF_8));
  }

  @Test
  void recordsSyncedComeBackInOrderWithTheirPositions() throws IOException {
    try (YoungJobLog log = open(0)) {
      assertThat(append(log, "new 1")).isEqualTo(1);
      assertThat(append(log, "lease 1")).isEqualTo(2);
      log.sync();
      assertThat(append(log, "done 1")).isEqualTo(3);
    }

    try (YoungJobLog log = open(0)) {
      assertThat(replayed).containsExactly("new 1", "lease 1", "done 1");
      assertThat(positions).containsExactly(1L, 2L, 3L);
      assertThat(log.nextPosition()).isEqualTo(4);
      assertThat(append(log, "new 2")).isEqualTo(4);
    }
    try (YoungJobLog log = open(0)) {
      assertThat(replayed).containsExactly("new 1", "lease 1", "done 1", "new 2");
    }
  }

  @Test
  void recordsUpToTheFoldAreNotReplayedAndTheirSegmentsGo() throws IOException {
    try (YoungJobLog log = open(0)) {
      append(log, "a");
      append(log, "b");
      log.startSegment();
      append(log, "c");
      log.startSegment();
      append(log, "d");
      assertThat(LogFiles.segments(directory)).hasSize(3);
      log.dropFolded(2); // a and b folded: their segment goes, c's stays
      assertThat(LogFiles.segments(directory)).hasSize(2);
    }

    try (YoungJobLog log = open(3)) {
      assertThat(replayed).containsExactly("d");
      assertThat(positions).containsExactly(4L);
      assertThat(append(log, "e")).isEqualTo(5);
    }
    try (YoungJobLog log = open(5)) {
      assertThat(replayed).isEmpty();
      assertThat(log.nextPosition()).isEqualTo(6);
      assertThat(LogFiles.segments(directory)).hasSize(1); // only the one begun at this open
    }
  }

  @Test
  void anEmptySegmentIsNotSealed() throws IOException {
    try (YoungJobLog log = open(0)) {
      log.startSegment();
      log.startSegment();
      append(log, "a");
      assertThat(LogFiles.segments(directory)).hasSize(1);
    }
    try (YoungJobLog log = open(0)) {
      assertThat(replayed).containsExactly("a");
    }
  }

  static void appendUnit(YoungJobLog log, String... records) {
    for (int i = 0; i < records.length; i++) {
      log.append(records[i].getBytes(UTF_8), i < records.length - 1);
    }
  }

  @Test
  void aUnitWhoseLastRecordNeverReachedTheDiskComesBackNotAtAll() throws IOException {
    try (YoungJobLog log = open(0)) {
      append(log, "alone");
      appendUnit(log, "b1", "b2", "b3");
      // A group's first records written, its last not (the crash came at a record's boundary).
      log.append("c1".getBytes(UTF_8), true);
      log.append("c2".getBytes(UTF_8), true);
    }

    try (YoungJobLog log = open(0)) {
      assertThat(replayed).containsExactly("alone", "b1", "b2", "b3");
      assertThat(append(log, "after")).isEqualTo(5); // where c1 was: the unit is cut off
    }
    try (YoungJobLog log = open(0)) {
      assertThat(replayed).containsExactly("alone", "b1", "b2", "b3", "after");
    }
  }

  @Test
  void aSealedSegmentThatEndsInsideAUnitFailsTheOpen() throws IOException {
    try (YoungJobLog log = open(0)) {
      append(log, "alone");
      log.append("u1".getBytes(UTF_8), true); // its unit never ends in this segment
      log.startSegment();
      append(log, "newest");
    }

    assertThatThrownBy(() -> open(0))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("damaged");
  }

  @Test
  void theFlagThatJoinsAUnitIsCoveredByItsRecordsCrc() throws IOException {
    try (YoungJobLog log = open(0)) {
      appendUnit(log, "b1", "b2");
      append(log, "alone");
    }
    // Clear b1's flag: read as a record alone, it would come back without b2's unit.
    LogFiles.flip(LogFiles.segments(directory).get(0), LogFrames.SEGMENT_HEADER_BYTES, 0x40);

    try (YoungJobLog log = open(0)) {
      assertThat(replayed).isEmpty(); // b1 reads as torn: the tail from it is cut
      assertThat(log.nextPosition()).isEqualTo(1);
    }
  }

  @Test
  void aMissingSegmentFailsTheOpen() throws IOException {
    try (YoungJobLog log = open(0)) {
      append(log, "a");
      log.startSegment();
      append(log, "b");
      log.startSegment();
      append(log, "c");
    }
    Files.delete(LogFiles.segments(directory).get(1)); // b's segment, never folded

    assertThatThrownBy(() -> open(0))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("does not follow");
  }

  @Test
  void aFoldedSegmentLeftBehindALaterOnesDeletionIsPassedOver() throws IOException {
    try (YoungJobLog log = open(0)) {
      append(log, "a");
      log.startSegment();
      append(log, "b");
      log.startSegment();
      append(log, "c");
    }
    // Folded up to b; a crash kept a's segment while b's deletion lasted.
    Files.delete(LogFiles.segments(directory).get(1));

    try (YoungJobLog log = open(2)) {
      assertThat(replayed).containsExactly("c");
      assertThat(log.nextPosition()).isEqualTo(4);
    }
    assertThat(LogFiles.segments(directory)).hasSize(2); // c's, and the new one
  }

  @Test
  void aFoldedSegmentThatCannotBeDeletedAtTheOpenIsKeptUnread() throws IOException {
    try (YoungJobLog log = open(0)) {
      append(log, "a");
      log.startSegment();
      append(log, "b");
    }
    // a's segment, wholly folded, in a form that cannot be deleted.
    LogFiles.undeletable(LogFiles.segments(directory).get(0));

    try (YoungJobLog log = open(1)) {
      assertThat(replayed).containsExactly("b");
      append(log, "c");
    }
  }

  @Test
  void recordsDiscardedAfterAFailedGroupAreNotWrittenAtTheClose() throws IOException {
    try (YoungJobLog log = open(0)) {
      append(log, "kept");
      log.sync();
      appendUnit(log, "of", "a", "failed group");
      log.discardUnwritten();
    }

    open(0).close();
    assertThat(replayed).containsExactly("kept");
  }

  @Test
  void aLogThatStartsAfterTheFoldHasLostRecords() throws IOException {
    try (YoungJobLog log = open(0)) {
      append(log, "a");
      log.startSegment();
      append(log, "b");
    }
    Files.delete(LogFiles.segments(directory).get(0)); // a was never folded

    assertThatThrownBy(() -> open(0)).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void aRecordOverTheLimitIsRefused() throws IOException {
    try (YoungJobLog log = open(0)) {
      assertThatThrownBy(() -> log.append(new byte[YoungJobLog.MAX_RECORD_BYTES + 1]))
          .isInstanceOf(IllegalArgumentException.class);
      assertThat(log.nextPosition()).isEqualTo(1);
    }
  }

  @Test
  void recordsLargerThanTheBufferGoThrough() throws IOException {
    byte[] large = new byte[200 << 10];
    large[large.length - 1] = 7;
    try (YoungJobLog log = open(0)) {
      append(log, "small");
      log.append(large);
    }
    List<byte[]> records = new ArrayList<>();
    try (YoungJobLog log = YoungJobLog.open(directory, 0, e -> records.add(e.record()), SEGMENT)) {
      assertThat(records).hasSize(2);
      assertThat(records.get(1)).isEqualTo(large);
    }
  }

  @Test
  void anInterruptedThreadWritesAndSyncsAndTheLogGoesOn() throws IOException {
    YoungJobLog log = open(0);
    append(log, "before");
    log.write();

    // A caller's thread, interrupted, that writes in a quiet moment: a FileChannel would close for
    // every thread, and fail the store until it is reopened.
    Thread.currentThread().interrupt();
    try {
      log.force();
      append(log, "while interrupted");
      log.sync();
      log.startSegment();
      assertThat(Thread.currentThread().isInterrupted()).isTrue(); // kept for its owner
    } finally {
      Thread.interrupted();
    }
    append(log, "after");
    log.sync();
    log.close();

    open(0).close();
    assertThat(replayed).containsExactly("before", "while interrupted", "after");
  }

  @Test
  void aSegmentThatCannotBeDeletedStaysAndGoesAtALaterFold() throws IOException {
    YoungJobLog log = open(0);
    append(log, "a");
    log.startSegment();
    append(log, "b");
    log.sync();
    Path sealed = LogFiles.segments(directory).get(0);
    Path blocker = LogFiles.undeletable(sealed);

    log.dropFolded(1); // says so in the log, fails nothing
    assertThat(LogFiles.segments(directory)).contains(sealed);

    Files.delete(blocker);
    log.dropFolded(1);
    assertThat(LogFiles.segments(directory)).doesNotContain(sealed).hasSize(1);
    log.close();
  }

  @Test
  void aForceBesideSegmentsStartedOneAfterAnotherNeverFails() throws Exception {
    YoungJobLog log = open(0);
    AtomicBoolean rolling = new AtomicBoolean(true);
    AtomicReference<Throwable> failed = new AtomicReference<>();
    AtomicInteger forces = new AtomicInteger();
    // A group's fsync (on the answering thread) while a fold on the writer seals the segment.
    Thread forcing =
        new Thread(
            () -> {
              try {
                while (rolling.get() || forces.get() == 0) {
                  log.force();
                  forces.incrementAndGet();
                }
              } catch (Throwable e) {
                failed.set(e);
              }
            });
    forcing.start();
    try {
      for (int i = 0; i < 2_000 && failed.get() == null; i++) {
        log.append(new byte[] {(byte) i});
        log.write();
        log.startSegment();
      }
    } finally {
      rolling.set(false);
      forcing.join();
    }

    assertThat(failed.get()).isNull();
    assertThat(forces.get()).isPositive();
    log.close();
  }
}
