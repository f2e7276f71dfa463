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
 * directory: how one is named, which are there, how one goes. Stateless.
 */
final class SegmentFiles {
  private static final Pattern SEGMENT = Pattern.compile("young-(\\d{20})\\.log");
  private static final Logger log = LoggerFactory.getLogger(SegmentFiles.class);

  private SegmentFiles() {}

  /** The file of the segment whose first record is at {@code first}. */
  static Path of(Path directory, long first) {
    return directory.resolve(String.format(Locale.ROOT, "young-%020d.log", first));
  }

  /** The first positions of the segments in {@code directory}, oldest first. */
  static List<Long> in(Path directory) throws IOException {
    List<Long> firsts = new ArrayList<>();
    try (Stream<Path> files = Files.list(directory)) {
      files.forEach(
          f -> {
            Matcher m = SEGMENT.matcher(f.getFileName().toString());
            if (m.matches()) {
              firsts.add(Long.parseLong(m.group(1)));
            }
          });
    }
    firsts.sort(null);
    return firsts;
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
