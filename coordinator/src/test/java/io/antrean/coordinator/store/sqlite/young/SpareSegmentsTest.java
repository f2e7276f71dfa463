package io.antrean.coordinator.store.sqlite.young;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A spare segment is whole zeros, synced, when a segment takes it by its name; the next one is made
 * on the making thread, and none is handed out before it is whole. Folded segments with the full
 * room are kept as spares, a few at most, and taken before the zeros; an earlier run's are kept at
 * the next open, or deleted when no spares are made.
 */
@Timeout(30)
class SpareSegmentsTest {
  private static final int BYTES = 8192;

  @TempDir Path directory;

  private static void assertZeros(Path file) throws IOException {
    byte[] bytes = Files.readAllBytes(file);
    assertThat(bytes).hasSize(BYTES);
    for (int i = 0; i < bytes.length; i++) {
      assertThat(bytes[i]).as("byte %d", i).isZero();
    }
  }

  @Test
  void eachSpareIsTakenWholeUnderItsSegmentsNameAndTheNextIsMadeApart() throws IOException {
    try (SpareSegments spares = SpareSegments.makeFirst(directory, BYTES)) {
      Path first = directory.resolve("first");
      assertThat(spares.takeAs(first)).isTrue();
      assertZeros(first);

      Path second = directory.resolve("second");
      await().atMost(Duration.ofSeconds(20)).until(() -> spares.takeAs(second));
      assertZeros(second);
    }
  }

  @Test
  void aSpareThatCannotBeMadeIsNotHandedOutAndIsTriedAgain() throws IOException {
    Path blocked = Files.createDirectory(directory.resolve(SpareSegments.FILE_NAME));
    Path blocker = Files.createFile(blocked.resolve("blocker"));
    try (SpareSegments spares = SpareSegments.makeFirst(directory, BYTES)) {
      Path target = directory.resolve("segment");
      assertThat(spares.takeAs(target)).isFalse();
      assertThat(Files.exists(target)).isFalse();

      Files.delete(blocker);
      Files.delete(blocked);
      await().atMost(Duration.ofSeconds(20)).until(() -> spares.takeAs(target));
      assertZeros(target);
    }
  }

  private Path folded(String name, int bytes) throws IOException {
    return Files.write(directory.resolve(name), new byte[bytes]);
  }

  private List<Path> recycledFiles() throws IOException {
    try (Stream<Path> files = Files.list(directory)) {
      return files.filter(f -> f.getFileName().toString().startsWith("young-recycled-")).toList();
    }
  }

  @Test
  void foldedSegmentsWithTheFullRoomAreKeptAFewAtMostAndTakenBeforeTheZeros() throws Exception {
    try (SpareSegments spares = SpareSegments.makeFirst(directory, BYTES)) {
      assertThat(spares.recycle(folded("short", BYTES - 1))).isFalse(); // grown, or cut at an open
      assertThat(directory.resolve("short")).exists();

      List<Object> kept = new ArrayList<>();
      for (int i = 0; i < SpareSegments.MAX_RECYCLED; i++) {
        Path segment = folded("folded-" + i, BYTES);
        kept.add(Files.getAttribute(segment, "unix:ino"));
        assertThat(spares.recycle(segment)).isTrue();
        assertThat(segment).doesNotExist();
      }
      assertThat(spares.recycle(folded("one too many", BYTES))).isFalse();
      assertThat(recycledFiles()).hasSize(SpareSegments.MAX_RECYCLED);

      for (int i = 0; i < SpareSegments.MAX_RECYCLED; i++) {
        Path target = directory.resolve("segment-" + i);
        assertThat(spares.takeAs(target)).isTrue();
        assertThat(Files.getAttribute(target, "unix:ino")).isEqualTo(kept.get(i)); // oldest first
      }
      assertThat(recycledFiles()).isEmpty();
      Path zeros = directory.resolve("zeros");
      assertThat(spares.takeAs(zeros)).isTrue(); // then the spare of zeros
      assertZeros(zeros);
    }
  }

  @Test
  void recycledSparesAnEarlierRunLeftAreKeptWithTheFullRoomAndDeletedWithoutSpares()
      throws Exception {
    try (SpareSegments spares = SpareSegments.makeFirst(directory, BYTES)) {
      spares.recycle(folded("a", BYTES));
      spares.recycle(folded("b", BYTES));
    }
    Path cut = recycledFiles().get(0);
    Files.write(cut, new byte[BYTES / 2]); // not the full room: deleted at the open
    Path whole = recycledFiles().get(1);
    Object inode = Files.getAttribute(whole, "unix:ino");

    try (SpareSegments spares = SpareSegments.makeFirst(directory, BYTES)) {
      assertThat(recycledFiles()).containsExactly(whole);
      Path target = directory.resolve("segment");
      assertThat(spares.takeAs(target)).isTrue();
      assertThat(Files.getAttribute(target, "unix:ino")).isEqualTo(inode);
      assertThat(spares.recycle(target)).isTrue(); // its name not one taken before
      assertThat(recycledFiles()).hasSize(1).doesNotContain(whole);
    }

    SpareSegments.none(directory, BYTES).close();
    assertThat(recycledFiles()).isEmpty();
    assertThat(directory.resolve(SpareSegments.FILE_NAME)).doesNotExist();
  }
}
