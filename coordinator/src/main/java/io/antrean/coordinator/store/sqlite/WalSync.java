package io.antrean.coordinator.store.sqlite;

import io.antrean.coordinator.store.StoreUnavailableException;
import io.antrean.coordinator.store.sqlite.young.FileForce;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import javax.annotation.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes the writer's commits durable after the fact: the writer connection commits with {@code
 * synchronous=NORMAL}, which in WAL mode writes the commit's frames to the WAL file but does not
 * fsync it, and lets go of the connection; whoever answers for the commit then calls {@link
 * #awaitDurable} with its number, which fsyncs the WAL file (an {@code fdatasync}) unless an fsync
 * begun after that commit has already ended. The next group's statements so run while the last
 * group's fsync is on its way to the disk, and one fsync covers every commit written before it.
 *
 * <p>An fsync covers everything written to the file before it began, whichever descriptor wrote it;
 * the WAL is only ever appended to or rewritten from its start after a checkpoint, so a lost tail
 * after a power failure is a suffix of the commits, none of them answered. A change may be seen by
 * a read before it is durable (at most one fsync earlier); no answer that acknowledges it comes
 * first. After a failed fsync the kernel may have dropped the pages it could not write, so every
 * later call fails too: the store answers nothing as durable until it is opened again.
 *
 * <p>Thread-safe: fsyncs run one at a time.
 */
final class WalSync implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(WalSync.class);

  /** What fsyncs the WAL file; a seam for tests. */
  interface Force {
    void force() throws IOException;
  }

  private final Force force;
  private final Object lock = new Object();
  private final AtomicLong written = new AtomicLong();
  private volatile long durable;
  // The last commits that wrote to the WAL, and to the other file: a sync fsyncs only the files
  // the commits since the last one wrote to. Set before the commit's number is published.
  private volatile long walWrittenBy;
  private volatile long otherWrittenBy;

  // Set once, under the lock; read without it by requireSound, which must not wait for an fsync.
  @Nullable private volatile IOException broken;

  // Another file whose writes each commit's fsync makes durable too: the young jobs' log.
  @Nullable private volatile Force alsoForce;

  WalSync(Force force) {
    this.force = Objects.requireNonNull(force, "force");
  }

  /**
   * Makes every fsync of the WAL fsync {@code also} too, right before: what was written to it
   * before a commit was numbered is durable with that commit, and no later.
   */
  void alsoForce(Force also) {
    this.alsoForce = Objects.requireNonNull(also, "also");
  }

  /** Fsyncs {@code wal}, the WAL file beside the database. */
  static WalSync of(Path wal) {
    return new WalSync(new WalFile(wal));
  }

  /**
   * Numbers a commit that has just returned (its frames are in the WAL file), taken to have written
   * to both files; call while still holding the writer connection, so numbers follow the order of
   * the commits.
   */
  long committed() {
    return committed(true, true);
  }

  /**
   * Numbers a commit that has just returned, as {@link #committed()}, saying which files it wrote
   * to: one that wrote no page to the WAL (a group of young jobs alone) or nothing to the other
   * file is durable without an fsync of that file, as an fsync of a file nobody wrote to since the
   * last one still costs a flush of the disk's cache (about 50 µs here).
   */
  long committed(boolean wroteWal, boolean wroteOther) {
    long commit = written.get() + 1;
    if (wroteWal) {
      walWrittenBy = commit;
    }
    if (wroteOther) {
      otherWrittenBy = commit;
    }
    written.set(commit); // after the marks: a sync that sees the number sees them
    return commit;
  }

  /** Whether commit {@code commit} and every one before it are on disk already; any thread. */
  boolean isDurable(long commit) {
    return durable >= commit;
  }

  /**
   * Returns once commit {@code commit} and every one before it are on disk.
   *
   * @throws StoreUnavailableException if the fsync failed, now or before
   */
  void awaitDurable(long commit) {
    if (durable >= commit) {
      return;
    }
    synchronized (lock) {
      if (broken != null) {
        throw failed(broken);
      }
      if (durable >= commit) {
        return;
      }
      long upTo = written.get();
      try {
        // The other file first: a commit that folds young jobs into the database (made durable by
        // the WAL's fsync) must not outlast, in a crash between the two, the records it folded.
        Force also = alsoForce;
        if (also != null && otherWrittenBy > durable) {
          also.force();
        }
        if (walWrittenBy > durable) {
          force.force();
        }
      } catch (IOException | RuntimeException e) {
        broken = e instanceof IOException io ? io : new IOException(e);
        log.error(
            "fsync of the SQLite WAL failed; every write fails until the store is reopened", e);
        throw failed(broken);
      }
      durable = upTo;
    }
  }

  /**
   * Fails once an fsync failed: nothing written since is known durable, so no write can be answered
   * until the store is reopened. Never waits for an fsync on its way.
   *
   * @throws StoreUnavailableException after a failed fsync
   */
  void requireSound() {
    IOException failure = broken;
    if (failure != null) {
      throw failed(failure);
    }
  }

  /**
   * Numbers a commit just made outside the writer (the schema's migration at open) and returns once
   * it is durable.
   */
  void syncAll() {
    awaitDurable(committed());
  }

  private static StoreUnavailableException failed(IOException e) {
    return new StoreUnavailableException(
        "the SQLite WAL could not be synced to disk; changes since the last sync may be lost: "
            + e.getMessage(),
        e);
  }

  /** Closes the WAL file's descriptor, once no commit is left to sync. */
  @Override
  public void close() {
    synchronized (lock) {
      if (force instanceof WalFile file) {
        file.close();
      }
    }
  }

  /**
   * The WAL file through a descriptor of its own, opened at the first fsync (after the first
   * commit, so the file exists) and kept: SQLite keeps the WAL file while its connection is open,
   * and once the last one closes it has checkpointed the WAL into the database file and synced
   * that, so an fsync that comes after (through this descriptor, of the file then deleted) loses
   * nothing either.
   */
  private static final class WalFile implements Force {
    private final Path path;
    // Its fsyncs survive an interrupt of the thread that makes them: one on a caller's thread.
    @Nullable private FileForce file;

    WalFile(Path path) {
      this.path = path;
    }

    @Override
    public void force() throws IOException {
      if (file == null) {
        file = FileForce.open(path);
        // The file's name in its directory must last too.
        forceDirectory(path.toAbsolutePath().getParent());
      }
      file.force();
    }

    private static void forceDirectory(Path directory) throws IOException {
      try {
        FileForce.forceDirectory(directory);
      } catch (IOException e) {
        // Not every platform lets a directory be opened or synced; Linux does.
        if (System.getProperty("os.name", "").startsWith("Linux")) {
          throw e;
        }
      }
    }

    void close() {
      if (file != null) {
        try {
          file.close();
        } catch (IOException e) {
          // Nothing was written through it.
        }
        file = null;
      }
    }
  }
}
