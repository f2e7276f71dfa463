package io.antrean.coordinator.store.sqlite.young;

import java.io.Closeable;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import javax.annotation.Nullable;

/**
 * The log of the young jobs' changes: records appended in order, each numbered by its position (one
 * more than the record before it), made durable together by {@link #sync}. The records live in
 * segment files {@code young-<first position>.log} in one directory, each written into room made
 * ahead of it ({@link SpareSegments}): a write that would not fit in the current segment seals it
 * and starts the next, as {@link #startSegment} does, and {@link #dropFolded} lets go of the sealed
 * segments whose every record has been folded, whose files the next segments reuse.
 *
 * <p>Each segment starts with a header holding a salt the log draws at each open, and each record
 * is framed ({@link LogFrames}) with its length, a CRC32C (salted) and its position. Records
 * appended as one unit (a group commit's: {@link #append(byte[], boolean)}) carry a flag in the
 * length's word on every record but their last, covered by the CRC: a unit comes back whole or not
 * at all. {@link #open} replays the records past the last fold ({@link LogReplay}) and cuts a torn
 * tail off the last segment, from the start of a unit whose last record is not there (a write a
 * crash interrupted was never synced, so never promised; a batch Enqueue stays all or none); damage
 * anywhere else means the file is not what was synced, and fails the open.
 *
 * <p>A thread's interrupt does not fail the log: records are written with plain writes and synced
 * through a {@link FileForce}, as a store's writes may run on callers' threads.
 *
 * <p>Thread-safe: appends, writes, syncs and segment changes are serialized; {@link #force} runs
 * beside them.
 */
public final class YoungJobLog implements Closeable {
  /** The most bytes one record may hold. */
  public static final int MAX_RECORD_BYTES = 64 << 20;

  /**
   * The room each segment is made with: a write that would not fit in what is left seals the
   * segment and goes to the next (one larger than the room goes to a segment of its own, which
   * grows).
   */
  public static final int SEGMENT_BYTES = 4 << 20;

  // What one write() call hands RandomAccessFile at most.
  private static final int WRITE_PIECE_BYTES = 8 << 10;

  private final Path directory;
  private final SpareSegments spares;
  // Drawn at each open, written in every segment's header and mixed into its records' CRCs.
  private final long salt = drawSalt();
  // The first position of every segment on disk, oldest first; the last one is being appended to.
  private final List<Long> segments;
  // Segments folded and let go whose deletion failed, oldest first: tried again at the next drop.
  private final List<Long> undeleted = new ArrayList<>();
  // Read by force() on other threads; replaced only after the segment it held was synced, and
  // before that segment's descriptors are closed. Null once the log is closed.
  @Nullable private volatile FileForce current;
  // The segment being appended to, written without a channel an interrupt could close.
  @Nullable private RandomAccessFile currentFile;
  private ByteBuffer unwritten = ByteBuffer.allocate(64 << 10);
  // The bytes written to the current segment.
  private long segmentBytes;
  private long nextPosition;
  // The position of the first record appended and not yet written.
  private long firstUnwritten;
  // Why a segment could not be sealed or started: every later write fails with it.
  @Nullable private IOException failed;

  /** One record and its position. */
  public record Entry(long position, byte[] record) {}

  private YoungJobLog(
      Path directory, SpareSegments spares, List<Long> segments, long nextPosition) {
    this.directory = directory;
    this.spares = spares;
    this.segments = segments;
    this.nextPosition = nextPosition;
    this.firstUnwritten = nextPosition;
  }

  /**
   * Opens the log in {@code directory} (created if missing) with segments of {@link
   * #SEGMENT_BYTES}: hands every record past {@code foldedUpTo} to {@code replay}, oldest first,
   * cuts a torn tail, lets go of the segments wholly folded, then starts a new segment for the
   * records to come.
   *
   * @param foldedUpTo the position of the last record already folded (0 when none)
   * @throws IOException if the directory or a segment cannot be read or written
   * @throws IllegalStateException if a segment other than the last is damaged, or positions skip
   */
  public static YoungJobLog open(Path directory, long foldedUpTo, Consumer<Entry> replay)
      throws IOException {
    return open(directory, foldedUpTo, replay, SEGMENT_BYTES, true);
  }

  /**
   * {@link #open(Path, long, Consumer)} for a log only read and folded, never appended to (young
   * jobs off): its segments are files it creates, no spare is made ahead of them.
   */
  public static YoungJobLog openWithoutSpares(
      Path directory, long foldedUpTo, Consumer<Entry> replay) throws IOException {
    return open(directory, foldedUpTo, replay, SEGMENT_BYTES, false);
  }

  /** {@link #open(Path, long, Consumer)} with segments of {@code segmentBytes}. */
  static YoungJobLog open(Path directory, long foldedUpTo, Consumer<Entry> replay, int segmentBytes)
      throws IOException {
    return open(directory, foldedUpTo, replay, segmentBytes, true);
  }

  private static YoungJobLog open(
      Path directory, long foldedUpTo, Consumer<Entry> replay, int segmentBytes, boolean makeSpares)
      throws IOException {
    Objects.requireNonNull(replay, "replay");
    if (segmentBytes <= 0) {
      throw new IllegalArgumentException("segments of " + segmentBytes + " bytes");
    }
    if (!Files.isDirectory(directory)) {
      Files.createDirectories(directory);
      FileForce.forceDirectory(directory.toAbsolutePath().getParent());
    }
    LogReplay.Replayed replayed = LogReplay.replay(directory, foldedUpTo, replay);
    SpareSegments spares =
        makeSpares
            ? SpareSegments.makeFirst(directory, segmentBytes)
            : SpareSegments.none(directory, segmentBytes);
    YoungJobLog log =
        new YoungJobLog(
            directory, spares, new ArrayList<>(replayed.segments()), replayed.nextPosition());
    try {
      log.dropFolded(foldedUpTo);
      synchronized (log) {
        log.openSegment(log.nextPosition);
      }
    } catch (IOException | RuntimeException e) {
      spares.close();
      throw e;
    }
    return log;
  }

  /**
   * Appends a record that stands alone; it is durable once a {@link #sync} that started after this
   * call returns.
   *
   * @return the record's position
   */
  public long append(byte[] record) {
    return append(record, false);
  }

  /**
   * Appends a record of a unit that replay gives back whole or not at all: {@code moreFollow} on
   * every record of the unit but its last, all appended before the next {@link #write}.
   *
   * @return the record's position
   */
  public synchronized long append(byte[] record, boolean moreFollow) {
    if (record.length > MAX_RECORD_BYTES) {
      throw new IllegalArgumentException(
          "a record of " + record.length + " bytes is over " + MAX_RECORD_BYTES);
    }
    long position = nextPosition++;
    if (unwritten.position() == 0) {
      firstUnwritten = position;
    }
    ensureRoom(LogFrames.HEADER_BYTES + record.length);
    LogFrames.put(unwritten, salt, position, record, moreFollow);
    return position;
  }

  /** Writes every record appended so far and waits until the disk has them. */
  public synchronized void sync() throws IOException {
    write();
    current.force();
  }

  /**
   * Writes every record appended so far to the file, without waiting for the disk: a {@link #force}
   * that starts after this returns makes them durable. Records that would not fit in the room left
   * in the current segment go to a new one, the current one synced whole first.
   */
  public synchronized void write() throws IOException {
    if (failed != null) {
      throw new IOException("the young jobs' log could not start a segment; reopen it", failed);
    }
    int pending = unwritten.position();
    if (pending == 0) {
      return;
    }
    if (segmentBytes > LogFrames.SEGMENT_HEADER_BYTES
        && segmentBytes + pending + LogFrames.SEAL_BYTES > spares.bytes()) {
      seal(firstUnwritten);
    }
    // In pieces the JDK copies on the stack: a larger write would allocate native memory each time.
    for (int from = 0; from < unwritten.position(); from += WRITE_PIECE_BYTES) {
      currentFile.write(
          unwritten.array(), from, Math.min(WRITE_PIECE_BYTES, unwritten.position() - from));
    }
    unwritten.clear();
    segmentBytes += pending;
  }

  /**
   * Waits until the disk has every record written before this call; may run on any thread, beside
   * appends and writes (a segment sealed meanwhile was synced whole when it was sealed).
   */
  public void force() throws IOException {
    FileForce segment = current;
    if (segment == null) {
      return; // closed: synced whole on the way
    }
    try {
      segment.force();
    } catch (ClosedChannelException e) {
      if (segment == current) {
        throw e; // closed under the force, not sealed: nothing is known synced
      }
      // sealed meanwhile: seal() synced it whole before closing it
    }
  }

  /**
   * Syncs the current segment and starts a new one: the records appended from now on go to it, so
   * that the ones before can be deleted as a whole once folded.
   */
  public synchronized void startSegment() throws IOException {
    if (segments.get(segments.size() - 1) == nextPosition) {
      return; // the current segment holds nothing yet
    }
    write();
    seal(nextPosition);
  }

  /**
   * Seals the current segment, written so far, and starts the one whose first record is at {@code
   * first}: the seal, which says where the next segment starts, is written after the records and
   * synced with them. The new segment is current before the sealed one closes, so that a force()
   * that finds its channel closed sees it is no longer current, and knows it was synced whole.
   */
  private void seal(long first) throws IOException {
    FileForce sealed = current;
    RandomAccessFile sealedFile = currentFile;
    try {
      ByteBuffer seal = ByteBuffer.allocate(LogFrames.SEAL_BYTES);
      LogFrames.putSeal(seal, salt, first);
      sealedFile.write(seal.array());
      sealed.force();
      openSegment(first);
    } catch (IOException | RuntimeException e) {
      // The seal may be on the disk: a record written after it would never be read back.
      failed = e instanceof IOException io ? io : new IOException(e);
      throw e;
    }
    try {
      sealedFile.close();
    } finally {
      sealed.close();
    }
  }

  /**
   * Lets go of the sealed segments whose every record is at or before {@code foldedUpTo}: each is
   * kept as a spare for a segment to come if {@link SpareSegments#recycle} takes it, deleted
   * otherwise; the segment being appended to stays. A segment that cannot be deleted is said in the
   * log and tried again at the next call: it only takes room, as replay passes over what is folded.
   * Any thread: the files are renamed or deleted outside the log's lock, so appends, writes and
   * syncs go on meanwhile.
   */
  public void dropFolded(long foldedUpTo) {
    List<Long> folded;
    synchronized (this) {
      folded = new ArrayList<>(undeleted);
      undeleted.clear();
      while (segments.size() > 1 && segments.get(1) - 1 <= foldedUpTo) {
        folded.add(segments.remove(0));
      }
      if (current == null && !segments.isEmpty() && nextPosition - 1 <= foldedUpTo) {
        folded.add(segments.remove(0));
      }
    }
    List<Long> failed = new ArrayList<>();
    for (long first : folded) {
      if (!spares.recycle(SegmentFiles.of(directory, first))
          && !SegmentFiles.delete(directory, first)) {
        failed.add(first);
      }
    }
    if (!failed.isEmpty()) {
      synchronized (this) {
        undeleted.addAll(0, failed);
      }
    }
  }

  /**
   * Forgets the records appended since the last {@link #write}: their group failed, and no later
   * sync (at {@link #close}, say) may make them durable. A write that failed part way left only a
   * unit without its last record, which replay cuts.
   */
  public synchronized void discardUnwritten() {
    unwritten.clear();
  }

  /** The position the next record will get. */
  public synchronized long nextPosition() {
    return nextPosition;
  }

  /**
   * Syncs what was appended, closes the current segment and stops making spares. After a sync that
   * failed, a {@link #force} still running or made later fails too.
   */
  @Override
  public synchronized void close() throws IOException {
    spares.close();
    if (current != null) {
      FileForce closing = current;
      boolean synced = false;
      try {
        sync();
        synced = true;
      } finally {
        if (synced) {
          current = null; // before the close, as in seal()
        }
        try {
          currentFile.close();
        } finally {
          closing.close();
        }
      }
    }
  }

  // Makes the segment whose first record is at first current, from the spare if one is ready.
  private void openSegment(long first) throws IOException {
    Path file = SegmentFiles.of(directory, first);
    if (!spares.takeAs(file)) {
      Files.createFile(file);
    }
    RandomAccessFile opened = new RandomAccessFile(file.toFile(), "rw");
    FileForce force = null;
    try {
      force = FileForce.open(file); // before any write it must cover
      ByteBuffer header = ByteBuffer.allocate(LogFrames.SEGMENT_HEADER_BYTES);
      LogFrames.putSegmentHeader(header, salt);
      opened.write(header.array()); // synced with the segment's first records
      // The new file's name outlives a power loss as its records do.
      FileForce.forceDirectory(directory);
    } catch (IOException | RuntimeException e) {
      try {
        opened.close();
        if (force != null) {
          force.close();
        }
      } catch (IOException closing) {
        e.addSuppressed(closing);
      }
      throw e;
    }
    currentFile = opened;
    current = force;
    segments.add(first);
    segmentBytes = LogFrames.SEGMENT_HEADER_BYTES;
  }

  private static long drawSalt() {
    SecureRandom random = new SecureRandom();
    long salt;
    do {
      salt = random.nextLong();
    } while (salt == LogFrames.NO_SALT);
    return salt;
  }

  private void ensureRoom(int bytes) {
    if (unwritten.remaining() < bytes) {
      ByteBuffer larger =
          ByteBuffer.allocate(Math.max(unwritten.capacity() * 2, unwritten.position() + bytes));
      unwritten.flip();
      larger.put(unwritten);
      unwritten = larger;
    }
  }
}
