package io.antrean.coordinator.store.sqlite.young;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * An fsync through {@link FileForce} survives an interrupt of the thread that makes it, keeps that
 * interrupt for its owner, and fails once the file is closed; a force that failed fails every force
 * after it.
 */
@Timeout(30)
class FileForceTest {
  @TempDir Path directory;

  @Test
  void anInterruptedThreadForcesAndKeepsItsInterruptAndTheNextForceWorks() throws IOException {
    Path file = Files.writeString(directory.resolve("f"), "data");
    try (FileForce force = FileForce.open(file)) {
      Thread.currentThread().interrupt();
      try {
        force.force();
        force.force();
        FileForce.forceDirectory(directory);
        assertThat(Thread.currentThread().isInterrupted()).isTrue();
      } finally {
        Thread.interrupted();
      }
      force.force(); // another thread's force after the interrupt finds the file open
    }
  }

  @Test
  void aForceAfterCloseThrows() throws IOException {
    FileForce force = FileForce.open(Files.writeString(directory.resolve("f"), "data"));
    force.close();

    assertThatThrownBy(force::force).isInstanceOf(ClosedChannelException.class);
  }

  @Test
  void aForceAfterOneThatFailedFailsTooThoughTheDiskWouldNowSayYes() throws IOException {
    Path file = Files.writeString(directory.resolve("f"), "data");
    AtomicInteger failures = new AtomicInteger(1);
    try (FileForce force =
        FileForce.open(
            file,
            f ->
                new FailingForceChannel(FileChannel.open(f, StandardOpenOption.WRITE), failures))) {
      assertThatThrownBy(force::force).hasMessage("Input/output error");
      assertThat(failures.get()).isZero(); // the next fsync of the descriptor would succeed

      assertThatThrownBy(force::force)
          .isInstanceOf(IOException.class)
          .hasMessageContaining("an earlier fsync")
          .hasRootCauseMessage("Input/output error");
    }
  }
}
