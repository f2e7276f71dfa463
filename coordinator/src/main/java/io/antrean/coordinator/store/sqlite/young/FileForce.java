package io.antrean.coordinator.store.sqlite.young;

import java.io.Closeable;
import java.io.IOException;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import javax.annotation.concurrent.GuardedBy;

/**
 * Fsyncs one file's data ({@code fdatasync}) through a descriptor of its own that a thread's
 * interrupt does not take away: the young jobs' log segments and SQLite's WAL are synced on
 * callers' threads too (a quiet moment's write runs on its caller's), and a {@link FileChannel} is
 * closed, for every thread, by an interrupt of one that uses it. Such a force goes on through a
 * spare descriptor, opened with the first one and so before any write it must cover (an fsync makes
 * durable every write to the file made before it began, whichever descriptor made it; and a write
 * error the kernel reports once per descriptor open at the time reaches the spare too, though the
 * interrupt hid it from the first), keeps the interrupt for after, and opens a new spare.
 * Thread-safe.
 */
public final class FileForce implements Closeable {
  // A force that an interrupt closes this often in a row gives up.
  private static final int MAX_ATTEMPTS = 3;

  private final Path file;

  @GuardedBy("this")
  private FileChannel channel;

  // Opened before any write the next force of channel covers; takes over when an interrupt closes
  // it.
  @GuardedBy("this")
  private FileChannel spare;

  @GuardedBy("this")
  private boolean closed;

  private FileForce(Path file, FileChannel channel, FileChannel spare) {
    this.file = file;
    this.channel = channel;
    this.spare = spare;
  }

  /** Opens {@code file}, which must exist, for fsyncs; before the writes they are to cover. */
  public static FileForce open(Path file) throws IOException {
    FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE);
    try {
      return new FileForce(file, channel, FileChannel.open(file, StandardOpenOption.WRITE));
    } catch (IOException | RuntimeException e) {
      channel.close();
      throw e;
    }
  }

  /**
   * Waits until the disk has every write made to the file before this call.
   *
   * @throws ClosedChannelException after {@link #close}
   * @throws IOException if the fsync failed
   */
  public void force() throws IOException {
    boolean interrupted = false;
    try {
      for (int attempt = 1; ; attempt++) {
        FileChannel used = current();
        try {
          used.force(false);
          return;
        } catch (ClosedChannelException e) {
          // This thread's interrupt, or another's while this one forced, or close().
          interrupted |= Thread.interrupted();
          if (attempt == MAX_ATTEMPTS || !spareFor(used)) {
            throw e;
          }
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /**
   * Makes the entries of {@code directory} (a file created or deleted in it) durable, through a
   * descriptor of its own, as uninterruptibly as {@link #force}.
   */
  public static void forceDirectory(Path directory) throws IOException {
    boolean interrupted = false;
    try {
      for (int attempt = 1; ; attempt++) {
        try (FileChannel dir = FileChannel.open(directory, StandardOpenOption.READ)) {
          dir.force(true);
          return;
        } catch (ClosedByInterruptException e) {
          interrupted |= Thread.interrupted();
          if (attempt == MAX_ATTEMPTS) {
            throw e;
          }
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private synchronized FileChannel current() throws ClosedChannelException {
    if (closed) {
      throw new ClosedChannelException();
    }
    return channel;
  }

  // The spare takes over from the channel an interrupt closed, unless another force saw to it
  // already, and a new spare opens; false once closed.
  private synchronized boolean spareFor(FileChannel closedOne) throws IOException {
    if (closed) {
      return false;
    }
    if (channel == closedOne) {
      channel = spare;
      spare = FileChannel.open(file, StandardOpenOption.WRITE);
    }
    return true;
  }

  /** Closes the descriptors; a force after this throws {@link ClosedChannelException}. */
  @Override
  public synchronized void close() throws IOException {
    closed = true;
    try {
      channel.close();
    } finally {
      spare.close();
    }
  }
}
