package io.antrean.coordinator.store.sqlite.young;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * A young jobs' log's files in a test: its segments, and the damage a crash or a disk leaves in
 * them.
 */
final class LogFiles {
  private LogFiles() {}

  /** The segments in {@code directory}, oldest first; not the spare. */
  static List<Path> segments(Path directory) throws IOException {
    try (Stream<Path> files = Files.list(directory)) {
      return files
          .filter(f -> !f.getFileName().toString().equals(SpareSegments.FILE_NAME))
          .sorted()
          .toList();
    }
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
