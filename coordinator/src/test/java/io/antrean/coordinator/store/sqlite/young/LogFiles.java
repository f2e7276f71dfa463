package io.antrean.coordinator.store.sqlite.young;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A young jobs' log's files in a test: its segments, and the damage a crash or a disk leaves in
 * them.
 */
final class LogFiles {
  private LogFiles() {}

  /** The segments in {@code directory}, oldest first; not the spares. */
  static List<Path> segments(Path directory) throws IOException {
    return SegmentFiles.in(directory).stream()
        .map(first -> SegmentFiles.of(directory, first))
        .toList();
  }

  /**
   * Takes the last {@code bytes} of the segment's records back to the zeros they overwrote, as a
   * write a crash interrupted.
   */
  static void cutTail(Path file, int bytes) throws IOException {
    int end = recordsEnd(file);
    try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
      f.seek(end - bytes);
      f.write(new byte[bytes]);
    }
  }

  /** Where the segment's records end: after its last byte that is not zero (their text's). */
  static int recordsEnd(Path file) throws IOException {
    byte[] bytes = Files.readAllBytes(file);
    int end = bytes.length;
    while (end > 0 && bytes[end - 1] == 0) {
      end--;
    }
    return end;
  }

  /** Where the seal of a sealed segment is: after its last record. */
  static int sealAt(Path segment) throws IOException {
    String name = segment.getFileName().toString();
    long expected = Long.parseLong(name.substring("young-".length(), name.indexOf('.')));
    ByteBuffer bytes = ByteBuffer.wrap(Files.readAllBytes(segment));
    long salt = LogFrames.segmentSalt(bytes);
    int start = bytes.position();
    while (LogFrames.next(bytes, salt, expected) != null) {
      start = bytes.position();
      expected++;
    }
    bytes.position(start);
    if (!LogFrames.sealAt(bytes, salt, expected)) {
      throw new AssertionError(segment + " has no seal after its last record");
    }
    return start;
  }

  /** Where the first record's text is in a segment. */
  static final int FIRST_TEXT = LogFrames.SEGMENT_HEADER_BYTES + LogFrames.HEADER_BYTES;

  /** The salt in the segment's header. */
  static long salt(Path segment) throws IOException {
    return LogFrames.segmentSalt(ByteBuffer.wrap(Files.readAllBytes(segment)));
  }

  /** Writes {@code bytes} over the file's from {@code at}. */
  static void overwrite(Path file, int at, byte[] bytes) throws IOException {
    try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
      f.seek(at);
      f.write(bytes);
    }
  }

  /** Flips the {@code mask} bits of the file's byte at {@code index}. */
  static void flip(Path file, int index, int mask) throws IOException {
    byte[] bytes = Files.readAllBytes(file);
    bytes[index] ^= (byte) mask;
    Files.write(file, bytes);
  }

  /**
   * Puts a directory holding an entry in the segment's place, which a delete fails on until the
   * returned entry is deleted.
   */
  static Path undeletable(Path segment) throws IOException {
    Files.delete(segment);
    Files.createDirectory(segment);
    return Files.createFile(segment.resolve("blocker"));
  }
}
