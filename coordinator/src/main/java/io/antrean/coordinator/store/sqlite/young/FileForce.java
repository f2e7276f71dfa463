package io.antrean.coordinator.store.sqlite.young;

import java.io.Closeable;
import java.io.IOException;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import javax.annotation.Nullable;
import javax.annotation.concurrent.GuardedBy;

/**
 * Fsyncs one file's data ({@code fdatasync}) through a descriptor of its own that a thread's
 * interrupt does not take away: the young jobs' log segments and SQLite's WAL are synced on
 * callers' threads too (a quiet moment's write runs on its caller's), and a {@link FileChannel} is
 * closed, for every thread, by an interrupt of one that uses it. Such a force goes on through a
 * spare descriptor, opened with the first one and so before any write it must cover (an fsync makes
 * durable every write to the file made before it began, whichever descriptor made it; and a write
 * error the kernel reports once per descriptor open at the time reaches the spare too, though the
 * interrupt hid it from the first), keeps the interrupt for after, and opens a new spare. A force
 * that failed otherwise fails every force after it with the same cause: the kernel reports a
 * write-back error once, and a later fsync that succeeds does not bring back the pages it dropped.
 * Thread-safe.
 */
public final class FileForce implements Closeable {
  // A force that an interrupt closes this often in a row gives up.
  private static final int MAX_ATTEMPTS = 3;

  private final Path file;
  private final Opener opener;

  @GuardedBy("this")
  private FileChannel channel;

  // Opened before any write the next force of channel covers; takes over when an interrupt closes
  // it.
  @GuardedBy("this")
  private FileChannel spare;

  @GuardedBy("this")
  private boolean closed;

  // The first force that failed other than by a close.
  @Nullable private volatile IOException failed;

  private FileForce(Path file, Opener opener, FileChannel channel, FileChannel spare) {
    this.file = file;
    this.opener = opener;
    this.channel = channel;
    this.spare = spare;
  }

  /** Opens {@code file}, which must exist, for fsyncs; before the writes they are to cover. */
  public static FileForce open(Path file) throws IOException {
    return open(file, f -> FileChannel.open(f, StandardOpenOption.WRITE));
  }

  /** How {@link #open(Path, Opener)} opens each descriptor of the file. */
  interface Opener {
    FileChannel open(Path file) throws IOException;
  }

  /** {@link #open(Path)} with descriptors from {@code opener}, the spares' too. */
  static FileForce open(Path file, Opener opener) throws IOException {
    FileChannel channel = opener.open(file);
    try {
      return new FileForce(file, opener, channel, opener.open(file));
    } catch (IOException | RuntimeException e) {
      channel.close();
      throw e;
    }
  }

  /**
   * Waits until the disk has every write made to the file before this call.
   *
   * @throws ClosedChannelException after {@link #close}
   * @throws IOException if this fsync or an earlier one failed
   */
  public void force() throws IOException {
    IOException earlier = failed;
    if (earlier != null) {
      throw new IOException("an earlier fsync of " + file + " failed", earlier);
    }
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
        } catch (IOException e) {
          failed = e;
          throw e;
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
      spare = opener.open(file);
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
