package io.antrean.coordinator.store.sqlite.young;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The young jobs' log writes the segments after a fold into the files of the segments folded: the
 * records written over a folded segment's old ones come back and the old ones never do, whether the
 * reused file is sealed or the newest; damage in a sealed reused segment still fails the open; and
 * a reused file a crash left without a record of its own is dropped.
 */
@Timeout(30)
class RecycledSegmentsTest {
  private static final int SEGMENT = YoungJobLogTest.SEGMENT;

  @TempDir Path directory;

  private final List<String> replayed = new ArrayList<>();

  private YoungJobLog open(long foldedUpTo) throws IOException {
    replayed.clear();
    return YoungJobLog.open(
        directory, foldedUpTo, e -> replayed.add(new String(e.record(), UTF_8)), SEGMENT);
  }

  /** Appends {@code prefix 1} to {@code prefix n}, one write each, and syncs them. */
  private static void write(YoungJobLog log, String prefix, int n) throws IOException {
    for (int i = 1; i <= n; i++) {
      log.append((prefix + " " + i).getBytes(UTF_8));
      log.write();
    }
    log.sync();
  }

  private static Object inode(Path file) throws IOException {
    return Files.getAttribute(file, "unix:ino");
  }

  /** Drops the oldest segment as folded; returns the position of its last record. */
  private long foldTheOldest(YoungJobLog log) throws IOException {
    List<Path> segments = LogFiles.segments(directory);
    String second = segments.get(1).getFileName().toString();
    long folded = Long.parseLong(second.substring("young-".length(), second.indexOf('.'))) - 1;
    log.dropFolded(folded);
    assertThat(segments.get(0)).doesNotExist();
    return folded;
  }

  /** The segment whose file is {@code inode}. */
  private Path segmentOf(Object inode) throws IOException {
    for (Path segment : LogFiles.segments(directory)) {
      if (inode(segment).equals(inode)) {
        return segment;
      }
    }
    throw new AssertionError("no segment is the reused file");
  }

  @Test
  void aSealedSegmentInAReusedFileGivesBackItsNewRecordsAndNoneOfTheOld() throws IOException {
    long folded;
    Object reused;
    try (YoungJobLog log = open(0)) {
      write(log, "old", 300); // about 23 bytes a record framed: two segments and part of a third
      reused = inode(LogFiles.segments(directory).get(0));
      folded = foldTheOldest(log);
      // Longer than the old records, so that the new ones end inside an old one.
      write(log, "new record", 300);
      Path segment = segmentOf(reused);
      assertThat(segment).isNotEqualTo(LogFiles.segments(directory).get(0));
      assertThat(Files.size(segment)).isEqualTo(SEGMENT);
    }

    try (YoungJobLog log = open(folded)) {
      assertThat(replayed)
          .hasSize(600 - (int) folded)
          .startsWith("old " + (folded + 1))
          .endsWith("new record 300")
          .doesNotHaveDuplicates();
      assertThat(log.nextPosition()).isEqualTo(601);
    }
  }

  @Test
  void aReusedFileThatIsTheNewestSegmentIsCutAfterItsLastRecordAndTheLogGoesOn()
      throws IOException {
    long folded;
    try (YoungJobLog log = open(0)) {
      write(log, "old", 200);
      Object reused = inode(LogFiles.segments(directory).get(0));
      folded = foldTheOldest(log);
      log.startSegment(); // the next segment is the folded one's file
      write(log, "new record", 3);
      List<Path> segments = LogFiles.segments(directory);
      assertThat(inode(segments.get(segments.size() - 1))).isEqualTo(reused);
    }

    try (YoungJobLog log = open(folded)) {
      assertThat(replayed)
          .hasSize(200 - (int) folded + 3)
          .endsWith("old 200", "new record 1", "new record 2", "new record 3");
      YoungJobLogTest.append(log, "after");
    }
    try (YoungJobLog log = open(folded)) {
      assertThat(replayed).endsWith("new record 3", "after").doesNotHaveDuplicates();
      assertThat(log.nextPosition()).isEqualTo(205);
    }
  }

  @Test
  void aReusedFileACrashLeftWithoutARecordOfItsOwnIsDropped() throws IOException {
    long folded;
    try (YoungJobLog log = open(0)) {
      write(log, "old", 200);
      Object reused = inode(LogFiles.segments(directory).get(0));
      folded = foldTheOldest(log);
      log.startSegment(); // takes the folded one's file; the crash comes before a record in it
      List<Path> segments = LogFiles.segments(directory);
      assertThat(inode(segments.get(segments.size() - 1))).isEqualTo(reused);
    }

    try (YoungJobLog log = open(folded)) {
      assertThat(replayed).hasSize(200 - (int) folded).endsWith("old 200");
      assertThat(log.nextPosition()).isEqualTo(201);
      YoungJobLogTest.append(log, "after");
    }
    try (YoungJobLog log = open(folded)) {
      assertThat(replayed).endsWith("old 200", "after");
    }
  }

  @Test
  void aDamagedRecordInASealedReusedSegmentFailsTheOpen() throws IOException {
    long folded;
    Object reused;
    try (YoungJobLog log = open(0)) {
      write(log, "old", 300);
      reused = inode(LogFiles.segments(directory).get(0));
      folded = foldTheOldest(log);
      write(log, "new record", 300);
    }
    LogFiles.flip(segmentOf(reused), LogFiles.FIRST_TEXT, 1); // its first record's text

    assertThatThrownBy(() -> open(folded))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("damaged");
  }

  @Test
  void aFrameInAnOldPayloadIsNeverReadAsARecordOfTheSegmentThatReusesItsFile() throws IOException {
    int padding = 10;
    long folded;
    try (YoungJobLog log = open(0)) {
      // A client's payload holding a frame made as the record at position 4 would be, without the
      // salt the log never shows.
      ByteBuffer forged = ByteBuffer.allocate(padding + LogFrames.HEADER_BYTES + 6);
      forged.position(padding);
      LogFrames.put(forged, LogFrames.NO_SALT, 4, "forged".getBytes(UTF_8), false);
      log.append(forged.array()); // position 1
      log.sync();
      Object reused = inode(LogFiles.segments(directory).get(0));
      log.startSegment();
      YoungJobLogTest.append(log, "kept"); // position 2
      log.sync();
      folded = foldTheOldest(log);
      log.startSegment(); // from position 3, in the first segment's file
      List<Path> segments = LogFiles.segments(directory);
      assertThat(inode(segments.get(segments.size() - 1))).isEqualTo(reused);
      // A record that ends where the forged frame begins, which is numbered as it expects.
      log.append(new byte[padding]);
      log.sync();
      ByteBuffer bytes = ByteBuffer.wrap(Files.readAllBytes(segments.get(segments.size() - 1)));
      bytes.position(LogFrames.SEGMENT_HEADER_BYTES + LogFrames.HEADER_BYTES + padding);
      LogFrames.Framed there = LogFrames.next(bytes, LogFrames.NO_SALT, 4);
      assertThat(there).isNotNull(); // the forged frame is where the new record ends
      assertThat(new String(there.entry().record(), UTF_8)).isEqualTo("forged");
    }

    try (YoungJobLog log = open(folded)) {
      assertThat(replayed).hasSize(2).startsWith("kept");
      assertThat(log.nextPosition()).isEqualTo(4);
    }
  }
}
