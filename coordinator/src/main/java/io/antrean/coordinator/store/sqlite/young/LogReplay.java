package io.antrean.coordinator.store.sqlite.young;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads a {@link YoungJobLog}'s segments back at its open: hands every record past the last fold to
 * the replay, oldest first, a unit once its last record is read; cuts a torn tail off the newest
 * segment; and refuses damage anywhere else.
 *
 * <p>A segment's records may be followed by zeros, the room written ahead for records to come
 * ({@link SpareSegments}), or by the records of the folded segment whose file it reuses. A segment
 * ends cleanly after its last whole unit at its seal ({@link LogFrames#putSeal}), written when the
 * next segment began, or where zeros run to the end of the file. Anything else there is a torn tail
 * in the newest segment (a write a crash interrupted was never synced, so never promised; or the
 * old records of a reused file), cut from the start of that unit; in a sealed one, which was synced
 * whole with its seal before the next began (or, newest at an earlier open, was cut to its end or
 * ended in zeros there), it is damage. A segment's header gives the salt of its records' CRCs
 * ({@link LogFrames}); one without, of the release before the salts, has none. Stateless.
 */
final class LogReplay {
  private static final Logger log = LoggerFactory.getLogger(LogReplay.class);

  /** The segments kept, oldest first, and the position the next record gets. */
  record Replayed(List<Long> segments, long nextPosition) {}

  private LogReplay() {}

  /**
   * Replays the segments in {@code directory}; those wholly folded are deleted unread, and the
   * newest one if it holds no record.
   *
   * @throws IllegalStateException if a segment other than the newest is damaged, or positions skip
   */
  static Replayed replay(Path directory, long foldedUpTo, Consumer<YoungJobLog.Entry> replay)
      throws IOException {
    List<Long> firsts = SegmentFiles.in(directory);
    List<Long> kept = new ArrayList<>();
    // Segments wholly folded (the next one starts at or before the fold's end) go unread: their
    // deletions are not synced, so a crash may keep one whose later neighbour's deletion lasted.
    // One that cannot be deleted now is kept for a later fold to try again.
    while (firsts.size() > 1 && firsts.get(1) - 1 <= foldedUpTo) {
      long first = firsts.remove(0);
      if (!SegmentFiles.delete(directory, first)) {
        kept.add(first);
      }
    }
    // Where the next segment must start: right after the last record seen, or, for the oldest,
    // no later than right after the fold (a gap there is records lost).
    long follows = foldedUpTo + 1;
    for (int i = 0; i < firsts.size(); i++) {
      long first = firsts.get(i);
      boolean newest = i == firsts.size() - 1;
      if (i == 0 ? first > follows : first != follows) {
        throw new IllegalStateException(
            "young jobs' log: segment " + first + " does not follow position " + (follows - 1));
      }
      long end = replaySegment(directory, first, newest, foldedUpTo, replay);
      if (end >= first) {
        kept.add(first);
      } else {
        Files.delete(SegmentFiles.of(directory, first)); // no record in it: nothing to keep
      }
      follows = end + 1;
    }
    return new Replayed(kept, Math.max(follows, foldedUpTo + 1));
  }

  /**
   * Replays one segment's records past {@code foldedUpTo}; returns the position of the last record
   * kept, or {@code first - 1} when it keeps none.
   */
  private static long replaySegment(
      Path directory,
      long first,
      boolean newest,
      long foldedUpTo,
      Consumer<YoungJobLog.Entry> replay)
      throws IOException {
    Path file = SegmentFiles.of(directory, first);
    ByteBuffer bytes = ByteBuffer.wrap(Files.readAllBytes(file));
    long salt = LogFrames.segmentSalt(bytes);
    long expected = first;
    List<YoungJobLog.Entry> unit = new ArrayList<>();
    int unitStart = 0;
    while (bytes.hasRemaining()) {
      int start = bytes.position();
      if (unit.isEmpty()) {
        unitStart = start;
      }
      LogFrames.Framed framed = LogFrames.next(bytes, salt, expected);
      if (framed == null) {
        bytes.position(start);
        break;
      }
      unit.add(framed.entry());
      expected++;
      if (!framed.moreFollow()) {
        unit.stream().filter(e -> e.position() > foldedUpTo).forEach(replay);
        unit.clear();
      }
    }
    boolean cleanEnd =
        unit.isEmpty() && (LogFrames.sealAt(bytes, salt, expected) || zerosToTheEnd(bytes));
    if (!cleanEnd) {
      int cut = unit.isEmpty() ? bytes.position() : unitStart;
      if (!newest) {
        throw new IllegalStateException(
            "young jobs' log: segment " + first + " is damaged at byte " + cut);
      }
      log.info(
          "young jobs' log: {} bytes after the last whole record of segment {} cut (a write never"
              + " synced, or the old records of a reused file)",
          bytes.limit() - cut,
          first);
      try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
        channel.truncate(cut);
        channel.force(false);
      }
      expected -= unit.size();
    }
    return expected - 1;
  }

  // Whether every byte from the buffer's position on is zero (true when none is left).
  private static boolean zerosToTheEnd(ByteBuffer bytes) {
    for (int i = bytes.position(); i < bytes.limit(); i++) {
      if (bytes.get(i) != 0) {
        return false;
      }
    }
    return true;
  }
}
