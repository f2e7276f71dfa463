package io.antrean.coordinator.store.sqlite.young;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A spare segment is whole zeros, synced, when a segment takes it by its name; the next one is made
 * on the making thread, and none is handed out before it is whole.
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
}
