package io.antrean.coordinator.store.sqlite.young;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import javax.annotation.Nullable;
import javax.annotation.concurrent.GuardedBy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Segment files for a {@link YoungJobLog} made ahead of need: written with zeros to their full size
 * and synced, a piece at a time, on a thread of their own, so that the log's records overwrite
 * blocks the file already has. An fdatasync of such a write has no growth of the file to commit to
 * the file system's journal: 113-117 µs at the median on the development machine's disk, against
 * 157-167 µs for a file that grows with each write. The zeros after a segment's last record read
 * back as its clean end ({@link LogReplay}).
 *
 * <p>Spares of two kinds. Folded segments with the full room are kept as they are, up to {@value
 * #MAX_RECYCLED} of them ({@link #recycle}), renamed {@code young-recycled-<n>.log}: their old
 * records are overwritten in turn, and the log's seals, not zeros, end what is new in them ({@link
 * LogFrames#putSeal}). A segment takes one of those first, so that under a steady load no byte of
 * the log is written twice; otherwise the one spare of zeros, {@value #FILE_NAME}, whose taking
 * starts the making of the next. A segment takes a spare by renaming it ({@link #takeAs}); the
 * caller makes the rename durable with the directory before a record in it is promised. A spare of
 * zeros left by an earlier run, whole or not, is made again; recycled ones it left with the full
 * room are kept. Thread-safe.
 */
final class SpareSegments implements Closeable {
  /** The spare's name in the log's directory; not a segment's. */
  static final String FILE_NAME = "young-spare.log";

  /** The most folded segments kept as spares. */
  static final int MAX_RECYCLED = 4;

  private static final Logger log = LoggerFactory.getLogger(SpareSegments.class);
  private static final ByteBuffer ZEROS = ByteBuffer.allocate(64 << 10).asReadOnlyBuffer();
  // How much of a spare is written before each of its fsyncs.
  private static final int SYNC_PIECE_BYTES = 256 << 10;

  private final Path spare;
  private final int bytes;
  // Null when no spare is made.
  @Nullable private final ExecutorService maker;

  // The spare's making: true once it is whole and synced, false if it failed; null once taken.
  @GuardedBy("this")
  @Nullable
  private Future<Boolean> making;

  // Folded segments kept as spares, to be taken oldest first.
  @GuardedBy("this")
  private final Deque<Path> recycled = new ArrayDeque<>();

  // The number in the name of the next segment recycled.
  @GuardedBy("this")
  private long recycledNames;

  private SpareSegments(Path directory, int bytes, boolean making) {
    this.spare = directory.resolve(FILE_NAME);
    this.bytes = bytes;
    this.maker =
        making
            ? Executors.newSingleThreadExecutor(
                r -> {
                  Thread t = new Thread(r, "antrean-sqlite-young-log-spares");
                  t.setDaemon(true);
                  return t;
                })
            : null;
  }

  /**
   * Makes no spare: segments of {@code bytes} are files their log creates. A spare an earlier run
   * left is deleted, not to hold its room for nothing.
   */
  static SpareSegments none(Path directory, int bytes) {
    SpareSegments none = new SpareSegments(directory, bytes, false);
    for (long n : recycledIn(directory)) {
      deleteOrSay(SegmentFiles.recycled(directory, n));
    }
    deleteOrSay(none.spare);
    return none;
  }

  /**
   * Makes a spare of {@code bytes} in {@code directory} on this thread, so that the log's first
   * segment can take it, and the ones after on the making thread; on the making thread from the
   * start if an earlier run left recycled spares, which the first segment takes instead. A spare
   * that cannot be made is said in the log: the segments are then files the log creates, which grow
   * as it writes.
   */
  static SpareSegments makeFirst(Path directory, int bytes) {
    SpareSegments spares = new SpareSegments(directory, bytes, true);
    synchronized (spares) {
      spares.keepRecycledLeft();
      if (!spares.recycled.isEmpty()) {
        spares.makeNext(); // the first segment takes a recycled one: no wait for the zeros
        return spares;
      }
    }
    // If it fails, the log goes on in files it creates itself; each segment it starts tries again.
    boolean made = spares.madeOrSaid();
    synchronized (spares) {
      spares.making = CompletableFuture.completedFuture(made);
    }
    return spares;
  }

  /** How many bytes each spare holds. */
  int bytes() {
    return bytes;
  }

  /**
   * Renames the spare to {@code target} if one is ready, and starts the next; false, leaving the
   * caller to create a file of its own, if none is (the making thread behind, or failed: it is
   * tried again).
   */
  synchronized boolean takeAs(Path target) {
    if (maker == null) {
      return false;
    }
    for (Path oldest = recycled.peekFirst(); oldest != null; oldest = recycled.peekFirst()) {
      try {
        Files.move(oldest, target, StandardCopyOption.ATOMIC_MOVE);
        recycled.removeFirst();
        return true;
      } catch (IOException | RuntimeException e) {
        log.warn("could not take {}, a recycled segment of the young jobs' log", oldest, e);
        recycled.removeFirst();
        if (Files.exists(oldest)) {
          break; // left where it is, for the next open to keep or delete
        }
      }
    }
    if (making == null || !making.isDone()) {
      return false; // being made, or its making could not even start
    }
    if (!made(making)) {
      makeNext(); // the last attempt failed
      return false;
    }
    try {
      Files.move(spare, target, StandardCopyOption.ATOMIC_MOVE);
      return true;
    } catch (IOException | RuntimeException e) {
      log.warn("could not take the spare segment of the young jobs' log; made again", e);
      return false;
    } finally {
      makeNext();
    }
  }

  /**
   * Keeps the file of a folded segment as a spare if it has the full room and fewer than {@value
   * #MAX_RECYCLED} are kept, renaming it; false, the file left as it was, otherwise. The rename
   * need not be durable: a segment's name that outlives a crash is folded, and replay passes over
   * it.
   */
  synchronized boolean recycle(Path segment) {
    if (maker == null || maker.isShutdown() || recycled.size() >= MAX_RECYCLED) {
      return false;
    }
    try {
      if (!hasTheRoom(segment)) {
        return false; // a file the log created and grew, or one cut at an open
      }
      Path kept = SegmentFiles.recycled(spare.getParent(), recycledNames++);
      Files.move(segment, kept, StandardCopyOption.ATOMIC_MOVE);
      recycled.addLast(kept);
      return true;
    } catch (IOException | RuntimeException e) {
      log.warn("could not keep {}, a folded segment, as a spare; deleted", segment, e);
      return false;
    }
  }

  // Keeps the recycled spares an earlier run left with the full room, and deletes the others.
  @GuardedBy("this")
  private void keepRecycledLeft() {
    for (long n : recycledIn(spare.getParent())) {
      recycledNames = n + 1;
      Path left = SegmentFiles.recycled(spare.getParent(), n);
      if (hasTheRoom(left) && recycled.size() < MAX_RECYCLED) {
        recycled.addLast(left);
      } else {
        deleteOrSay(left);
      }
    }
  }

  // Whether the file is a regular one of the spares' size.
  private boolean hasTheRoom(Path file) {
    try {
      return Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS) && Files.size(file) == bytes;
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }

  // The numbers of the recycled spares in the directory, oldest first; none if it cannot be listed.
  private static List<Long> recycledIn(Path directory) {
    try {
      return SegmentFiles.recycledIn(directory);
    } catch (IOException | RuntimeException e) {
      log.warn("could not list the spare segments of the young jobs' log in {}", directory, e);
      return List.of();
    }
  }

  private static void deleteOrSay(Path file) {
    try {
      Files.deleteIfExists(file);
    } catch (IOException | RuntimeException e) {
      log.warn("could not delete {}, a spare segment of the young jobs' log", file, e);
    }
  }

  @GuardedBy("this")
  private void makeNext() {
    making = null;
    try {
      making = maker.submit(this::madeOrSaid);
    } catch (RejectedExecutionException e) {
      log.debug("the young jobs' log is closing: no spare made", e);
    }
  }

  // Whether a making that is done made the spare (its task says so rather than throw).
  private static boolean made(Future<Boolean> done) {
    try {
      return done.get();
    } catch (ExecutionException | CancellationException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt(); // a done future does not wait: not reached in practice
      return false;
    }
  }

  // Makes the spare; false, said in the log, if it could not be made.
  private boolean madeOrSaid() {
    try {
      make();
      return true;
    } catch (IOException | RuntimeException e) {
      if (maker != null && maker.isShutdown()) {
        log.debug("a spare segment of the young jobs' log left at the close", e);
      } else {
        log.warn("could not make a spare segment of the young jobs' log", e);
      }
      return false;
    }
  }

  // Makes the spare; one that fails part way is deleted, not to hold the room a full disk lacks.
  private void make() throws IOException {
    Files.deleteIfExists(spare);
    try {
      writeZeros();
    } catch (IOException | RuntimeException e) {
      try {
        Files.deleteIfExists(spare);
      } catch (IOException deleting) {
        e.addSuppressed(deleting);
      }
      throw e;
    }
  }

  private void writeZeros() throws IOException {
    try (FileChannel file =
        FileChannel.open(spare, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      long synced = 0;
      for (long written = 0; written < bytes; ) {
        ByteBuffer zeros = ZEROS.duplicate();
        zeros.limit((int) Math.min(zeros.capacity(), bytes - written));
        written += file.write(zeros);
        // Synced a piece at a time: the log's own fsyncs, beside, wait behind a piece at most.
        if (written - synced >= SYNC_PIECE_BYTES) {
          file.force(false);
          synced = written;
        }
      }
      file.force(true);
    }
  }

  /** Stops the making thread, waiting a little for a spare being made; any thread. */
  @Override
  public void close() {
    if (maker == null) {
      return;
    }
    maker.shutdown();
    try {
      if (!maker.awaitTermination(10, TimeUnit.SECONDS)) {
        maker.shutdownNow(); // a spare half made is made again at the next open
      }
    } catch (InterruptedException e) {
      maker.shutdownNow();
      Thread.currentThread().interrupt();
    }
  }
}
