package io.antrean.coordinator.store.sqlite.young;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The names of the young jobs' log segments, {@code young-<first position>.log} in the log's
 * directory, and of the folded ones kept to be written over, {@code young-recycled-<n>.log}: how
 * one is named, which are there, how one goes. Stateless.
 */
final class SegmentFiles {
  private static final Pattern SEGMENT = Pattern.compile("young-(\\d{20})\\.log");
  private static final Pattern RECYCLED = Pattern.compile("young-recycled-(\\d{1,18})\\.log");
  private static final Logger log = LoggerFactory.getLogger(SegmentFiles.class);

  private SegmentFiles() {}

  /** The file of the segment whose first record is at {@code first}. */
  static Path of(Path directory, long first) {
    return directory.resolve(String.format(Locale.ROOT, "young-%020d.log", first));
  }

  /** The first positions of the segments in {@code directory}, oldest first. */
  static List<Long> in(Path directory) throws IOException {
    return numbers(directory, SEGMENT);
  }

  /** The file of the folded segment kept to be written over as the {@code n}th. */
  static Path recycled(Path directory, long n) {
    return directory.resolve("young-recycled-" + n + ".log");
  }

  /** The numbers of the folded segments kept in {@code directory}, in order. */
  static List<Long> recycledIn(Path directory) throws IOException {
    return numbers(directory, RECYCLED);
  }

  // The numbers in the names of the files in the directory that match the pattern, in order.
  private static List<Long> numbers(Path directory, Pattern names) throws IOException {
    List<Long> numbers = new ArrayList<>();
    try (Stream<Path> files = Files.list(directory)) {
      files.forEach(
          f -> {
            Matcher m = names.matcher(f.getFileName().toString());
            if (m.matches()) {
              numbers.add(Long.parseLong(m.group(1)));
            }
          });
    }
    numbers.sort(null);
    return numbers;
  }

  /**
   * Deletes a segment; false, said in the log, if it could not be: it only takes room, as replay
   * passes over what is folded, and the caller tries again later.
   */
  static boolean delete(Path directory, long first) {
    Path file = of(directory, first);
    try {
      Files.deleteIfExists(file);
      return true;
    } catch (IOException | RuntimeException e) {
      log.warn(
          "could not delete {}, a folded segment of the young jobs' log; tried again later",
          file,
          e);
      return false;
    }
  }
}
