package io.antrean.coordinator.store.sqlite.young;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The young jobs' log writes into segments made ahead of need with room for their records: a write
 * that would not fit goes to the next segment, a sealed segment ends at its seal or where zeros run
 * to its end and anything else there is damage, a torn tail of the newest is cut back to its last
 * whole unit, a spare left by an earlier run is made again, and without spares the log goes on in
 * files it creates itself.
 */
@Timeout(30)
class YoungJobLogSegmentsTest {
  private static final int SEGMENT = YoungJobLogTest.SEGMENT;
  private static final int RECORDS = 600;

  @TempDir Path directory;

  private final List<String> replayed = new ArrayList<>();
  private final List<Long> positions = new ArrayList<>();

  private YoungJobLog open() throws IOException {
    replayed.clear();
    positions.clear();
    return YoungJobLog.open(
        directory,
        0,
        e -> {
          replayed.add(new String(e.record(), UTF_8));
          positions.add(e.position());
        },
        SEGMENT);
  }

  /** Appends and writes {@link #RECORDS} records, one write each, as groups of one. */
  private static void writeRecords(YoungJobLog log) throws IOException {
    for (int i = 1; i <= RECORDS; i++) {
      log.append(("record " + i).getBytes(UTF_8));
      log.write();
    }
    log.sync();
  }

  private void assertAllCameBack() {
    assertThat(replayed).hasSize(RECORDS).startsWith("record 1").endsWith("record " + RECORDS);
    assertThat(positions)
        .containsExactlyElementsOf(LongStream.rangeClosed(1, RECORDS).boxed().toList());
  }

  @Test
  void recordsPastASegmentsRoomGoToTheNextAndComeBackInOrder() throws IOException {
    try (YoungJobLog log = open()) {
      writeRecords(log);
      List<Path> segments = LogFiles.segments(directory);
      assertThat(segments).hasSizeGreaterThanOrEqualTo(4); // about 26 bytes a record framed
      assertThat(Files.size(segments.get(0))).isEqualTo(SEGMENT); // the spare made at the open
      for (Path segment : segments) {
        // Spares overwritten, or, where the making thread was behind, files that grew to the room.
        assertThat(Files.size(segment)).isLessThanOrEqualTo(SEGMENT);
      }
    }

    try (YoungJobLog log = open()) {
      assertAllCameBack();
      assertThat(log.nextPosition()).isEqualTo(RECORDS + 1);
    }
  }

  @Test
  void aSealedSegmentEndsAtItsSealWhateverFollowsAndADamagedSealFailsTheOpen() throws IOException {
    try (YoungJobLog log = open()) {
      writeRecords(log);
    }
    Path sealed = LogFiles.segments(directory).get(0);
    try (RandomAccessFile file = new RandomAccessFile(sealed.toFile(), "rw")) {
      file.seek(SEGMENT - 1);
      file.write(1); // after the seal, as a reused file's old records
    }
    try (YoungJobLog log = open()) {
      assertAllCameBack();
    }

    LogFiles.flip(sealed, LogFiles.sealAt(sealed), 1);
    assertThatThrownBy(this::open)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("damaged");
  }

  @Test
  void aSealedSegmentOfZerosAfterItsRecordsAndNoSealEndsCleanly() throws IOException {
    // As an earlier release sealed them, and as the newest segment of zeros is left at a close.
    try (YoungJobLog log = open()) {
      writeRecords(log);
    }
    Path sealed = LogFiles.segments(directory).get(0);
    LogFiles.overwrite(sealed, LogFiles.sealAt(sealed), new byte[LogFrames.SEAL_BYTES]);

    try (YoungJobLog log = open()) {
      assertAllCameBack();
    }
  }

  @Test
  void aSpareLeftByAnEarlierRunIsMadeAgain() throws IOException {
    byte[] garbage = new byte[100];
    java.util.Arrays.fill(garbage, (byte) 0x55);
    Files.write(directory.resolve(SpareSegments.FILE_NAME), garbage);

    try (YoungJobLog log = open()) {
      log.append("a".getBytes(UTF_8));
    }
    Path segment = LogFiles.segments(directory).get(0);
    byte[] bytes = Files.readAllBytes(segment);
    assertThat(bytes).hasSize(SEGMENT);
    int recordEnd = LogFiles.FIRST_TEXT + 1;
    for (int i = recordEnd; i < bytes.length; i++) {
      assertThat(bytes[i]).as("byte %d", i).isZero();
    }
    try (YoungJobLog log = open()) {
      assertThat(replayed).containsExactly("a");
    }
  }

  @Test
  void withoutSparesTheSegmentsAreFilesTheLogCreatesAndItGoesOn() throws IOException {
    // Where the spare would be made, something that cannot be deleted.
    Path blocked = Files.createDirectory(directory.resolve(SpareSegments.FILE_NAME));
    Files.createFile(blocked.resolve("blocker"));

    try (YoungJobLog log = open()) {
      writeRecords(log);
      List<Path> segments = LogFiles.segments(directory);
      assertThat(segments).hasSizeGreaterThanOrEqualTo(4);
      for (Path segment : segments.subList(0, segments.size() - 1)) {
        assertThat(Files.size(segment)).isBetween(SEGMENT - 40L, (long) SEGMENT); // grown, full
      }
    }

    try (YoungJobLog log = open()) {
      assertAllCameBack();
    }
  }

  @Test
  void aTornTailIsCutAndTheLogGoesOnFromBeforeIt() throws IOException {
    try (YoungJobLog log = open()) {
      YoungJobLogTest.append(log, "whole");
      YoungJobLogTest.append(log, "torn by the crash");
    }
    LogFiles.cutTail(
        LogFiles.segments(directory).get(0), 3); // the last record's write never finished

    try (YoungJobLog log = open()) {
      assertThat(replayed).containsExactly("whole");
      assertThat(YoungJobLogTest.append(log, "after")).isEqualTo(2);
    }
    try (YoungJobLog log = open()) {
      assertThat(replayed).containsExactly("whole", "after");
      assertThat(positions).containsExactly(1L, 2L);
    }
  }

  @Test
  void aUnitTornInItsLastRecordIsCutWhole() throws IOException {
    try (YoungJobLog log = open()) {
      YoungJobLogTest.append(log, "alone");
      YoungJobLogTest.appendUnit(log, "a batch's first job", "its second", "its third");
    }
    LogFiles.cutTail(LogFiles.segments(directory).get(0), 3);

    try (YoungJobLog log = open()) {
      assertThat(replayed).containsExactly("alone");
      assertThat(log.nextPosition()).isEqualTo(2);
    }
  }

  @Test
  void garbageAfterTheLastRecordIsCutAsATornTail() throws IOException {
    try (YoungJobLog log = open()) {
      YoungJobLogTest.append(log, "whole");
    }
    Files.write(
        LogFiles.segments(directory).get(0),
        new byte[] {0, 0, 0, 9, 1, 2},
        StandardOpenOption.APPEND);

    try (YoungJobLog log = open()) {
      assertThat(replayed).containsExactly("whole");
      assertThat(log.nextPosition()).isEqualTo(2);
    }
  }

  @Test
  void aDamagedRecordInASealedSegmentFailsTheOpen() throws IOException {
    try (YoungJobLog log = open()) {
      YoungJobLogTest.append(log, "sealed");
      log.startSegment();
      YoungJobLogTest.append(log, "newest");
    }
    Path sealed = LogFiles.segments(directory).get(0);
    LogFiles.flip(sealed, LogFiles.FIRST_TEXT, 1); // the record's text

    assertThatThrownBy(() -> open())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("damaged");
  }

  @Test
  void aSealOfAnotherRunOrNamingAnotherPositionFailsTheOpen() throws IOException {
    try (YoungJobLog log = open()) {
      writeRecords(log);
    }
    Path sealed = LogFiles.segments(directory).get(0);
    int at = LogFiles.sealAt(sealed);
    long salt = LogFiles.salt(sealed);
    long next =
        Long.parseLong(LogFiles.segments(directory).get(1).getFileName().toString(), 6, 26, 10);

    writeSeal(sealed, at, salt + 1, next);
    assertThatThrownBy(this::open).hasMessageContaining("damaged");
    writeSeal(sealed, at, salt, next + 1);
    assertThatThrownBy(this::open).hasMessageContaining("damaged");
    writeSeal(sealed, at, salt, next);
    try (YoungJobLog log = open()) {
      assertAllCameBack();
    }
  }

  private static void writeSeal(Path segment, int at, long salt, long next) throws IOException {
    ByteBuffer seal = ByteBuffer.allocate(LogFrames.SEAL_BYTES);
    LogFrames.putSeal(seal, salt, next);
    LogFiles.overwrite(segment, at, seal.array());
  }

  @Test
  void aCrashBetweenASealAndTheNextSegmentLeavesTheNewestEndingInItsSeal() throws IOException {
    try (YoungJobLog log = open()) {
      YoungJobLogTest.append(log, "sealed");
      log.startSegment();
    }
    Files.delete(LogFiles.segments(directory).get(1)); // the next segment's name never lasted

    try (YoungJobLog log = open()) {
      assertThat(replayed).containsExactly("sealed");
      assertThat(log.nextPosition()).isEqualTo(2);
      YoungJobLogTest.append(log, "after");
    }
    try (YoungJobLog log = open()) {
      assertThat(replayed).containsExactly("sealed", "after");
    }
  }

  @Test
  void aSegmentThatCouldNotBeStartedFailsEveryLaterWrite() throws IOException {
    YoungJobLog log = open();
    YoungJobLogTest.append(log, "before");
    log.sync();
    // Where the next segment goes, something neither the spare nor a new file can replace.
    Path blocked = Files.createDirectory(SegmentFiles.of(directory, log.nextPosition()));
    Path blocker = Files.createFile(blocked.resolve("blocker"));

    assertThatThrownBy(log::startSegment).isInstanceOf(IOException.class);
    // Written now, it would follow the seal, and no open would read it back.
    YoungJobLogTest.append(log, "after the failure");
    assertThatThrownBy(log::sync).hasMessageContaining("could not start a segment");
    assertThatThrownBy(log::close).isInstanceOf(IOException.class);

    Files.delete(blocker);
    Files.delete(blocked);
    try (YoungJobLog reopened = open()) {
      assertThat(replayed).containsExactly("before");
      assertThat(reopened.nextPosition()).isEqualTo(2);
    }
  }

  @Test
  void segmentsOfTheReleaseBeforeTheSaltsAreReadBackAndTheLogGoesOn() throws IOException {
    // No header, records framed without a salt from the first byte, zeros after them.
    writeUnsalted(SegmentFiles.of(directory, 1), "old 1", "old 2");
    writeUnsalted(SegmentFiles.of(directory, 3), "old 3");

    try (YoungJobLog log = open()) {
      assertThat(replayed).containsExactly("old 1", "old 2", "old 3");
      assertThat(log.nextPosition()).isEqualTo(4);
      YoungJobLogTest.append(log, "new");
    }
    try (YoungJobLog log = open()) {
      assertThat(replayed).containsExactly("old 1", "old 2", "old 3", "new");
    }
  }

  private static void writeUnsalted(Path segment, String... records) throws IOException {
    String name = segment.getFileName().toString();
    long position = Long.parseLong(name, "young-".length(), name.indexOf('.'), 10);
    ByteBuffer bytes = ByteBuffer.allocate(SEGMENT);
    for (String record : records) {
      // Framed by hand as that release did: length, CRC32C of the position and the bytes, position.
      byte[] text = record.getBytes(UTF_8);
      CRC32C crc = new CRC32C();
      crc.update(ByteBuffer.allocate(Long.BYTES).putLong(0, position));
      crc.update(text);
      bytes.putInt(text.length).putInt((int) crc.getValue()).putLong(position++).put(text);
    }
    Files.write(segment, bytes.array());
  }

  @Test
  void aDamagedHeaderInASealedSegmentFailsTheOpen() throws IOException {
    try (YoungJobLog log = open()) {
      writeRecords(log);
    }
    LogFiles.flip(LogFiles.segments(directory).get(0), Integer.BYTES + 2, 0x10); // in its salt

    assertThatThrownBy(this::open)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("damaged");
  }
}
