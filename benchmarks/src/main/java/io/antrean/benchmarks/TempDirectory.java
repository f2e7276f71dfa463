package io.antrean.benchmarks;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * Directories for benchmark databases. They are made under the directory named by the system
 * property {@value #BASE_PROPERTY}, or under {@code java.io.tmpdir}: put them on the disk you mean
 * to measure, since a store's writes wait for fsync and a tmpfs makes fsync free.
 */
public final class TempDirectory {
  /** The system property naming where benchmark databases go. */
  public static final String BASE_PROPERTY = "antrean.bench.dir";

  private TempDirectory() {}

  /** A new empty directory whose name starts with {@code prefix}. */
  public static Path create(String prefix) {
    try {
      String base = System.getProperty(BASE_PROPERTY);
      if (base == null) {
        return Files.createTempDirectory(prefix);
      }
      Path parent = Files.createDirectories(Path.of(base));
      return Files.createTempDirectory(parent, prefix);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create a directory for " + prefix, e);
    }
  }

  /** Deletes the directory and everything in it; a missing directory is fine. */
  public static void delete(Path dir) {
    if (dir == null || !Files.exists(dir)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete " + dir, e);
    }
  }
}
