package io.antrean.coordinator.store.sqlite.young;

import java.io.Closeable;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.annotation.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The log of the young jobs' changes: records appended in order, each numbered by its position (one
 * more than the record before it), made durable together by {@link #sync}. The records live in
 * segment files {@code young-<first position>.log} in one directory; {@link #startSegment} seals
 * the current one (a fold does, so that what it folded can go as whole files) and {@link
 * #dropFolded} deletes the sealed segments whose every record has been folded.
 *
 * <p>Each record is framed ({@link LogFrames}) with its length, a CRC32C and its position. Records
 * appended as one unit (a group commit's: {@link #append(byte[], boolean)}) carry a flag in the
 * length's word on every record but their last, covered by the CRC: a unit comes back whole or not
 * at all. {@link #open} replays the records past the last fold and cuts a torn tail off the last
 * segment, from the start of a unit whose last record is not there (a write a crash interrupted was
 * never synced, so never promised; a batch Enqueue stays all or none); damage anywhere else means
 * the file is not what was synced, and fails the open.
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

  private static final Pattern SEGMENT = Pattern.compile("young-(\\d{20})\\.log");
  private static final Logger log = LoggerFactory.getLogger(YoungJobLog.class);
  // What one write() call hands RandomAccessFile at most.
  private static final int WRITE_PIECE_BYTES = 8 << 10;

  private final Path directory;
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
  private long nextPosition;

  /** One record and its position. */
  public record Entry(long position, byte[] record) {}

  private YoungJobLog(Path directory, List<Long> segments, long nextPosition) {
    this.directory = directory;
    this.segments = segments;
    this.nextPosition = nextPosition;
  }

  /**
   * Opens the log in {@code directory} (created if missing): hands every record past {@code
   * foldedUpTo} to {@code replay}, oldest first, cuts a torn tail, deletes the segments wholly
   * folded, then starts a new segment for the records to come.
   *
   * @param foldedUpTo the position of the last record already folded (0 when none)
   * @throws IOException if the directory or a segment cannot be read or written
   * @throws IllegalStateException if a segment other than the last is damaged, or positions skip
   */
  public static YoungJobLog open(Path directory, long foldedUpTo, Consumer<Entry> replay)
      throws IOException {
    Objects.requireNonNull(replay, "replay");
    if (!Files.isDirectory(directory)) {
      Files.createDirectories(directory);
      FileForce.forceDirectory(directory.toAbsolutePath().getParent());
    }
    List<Long> firsts = segmentsIn(directory);
    List<Long> kept = new ArrayList<>();
    // Segments wholly folded (the next one starts at or before the fold's end) go unread: their
    // deletions are not synced, so a crash may keep one whose later neighbour's deletion lasted.
    // One that cannot be deleted now is kept for a later fold to try again.
    while (firsts.size() > 1 && firsts.get(1) - 1 <= foldedUpTo) {
      long first = firsts.remove(0);
      if (!delete(directory, first)) {
        kept.add(first);
      }
    }
    // Where the next segment must start: right after the last record seen, or, for the oldest,
    // no later than right after the fold (a gap there is records lost).
    long follows = foldedUpTo + 1;
    for (int i = 0; i < firsts.size(); i++) {
      long first = firsts.get(i);
      boolean newest = i == firsts.size() - 1;
      if (i == 0 ? first > follows : first != follows) {
        throw new IllegalStateException(
            "young jobs' log: segment " + first + " does not follow position " + (follows - 1));
      }
      long end = replaySegment(directory, first, newest, foldedUpTo, replay);
      if (end >= first) {
        kept.add(first);
      } else {
        Files.delete(segmentFile(directory, first)); // no record in it: nothing to keep
      }
      follows = end + 1;
    }
    YoungJobLog log = new YoungJobLog(directory, kept, Math.max(follows, foldedUpTo + 1));
    log.dropFolded(foldedUpTo);
    log.openSegment();
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
    ensureRoom(LogFrames.HEADER_BYTES + record.length);
    LogFrames.put(unwritten, position, record, moreFollow);
    return position;
  }

  /** Writes every record appended so far and waits until the disk has them. */
  public synchronized void sync() throws IOException {
    write();
    current.force();
  }

  /**
   * Writes every record appended so far to the file, without waiting for the disk: a {@link #force}
   * that starts after this returns makes them durable.
   */
  public synchronized void write() throws IOException {
    // In pieces the JDK copies on the stack: a larger write would allocate native memory each time.
    for (int from = 0; from < unwritten.position(); from += WRITE_PIECE_BYTES) {
      currentFile.write(
          unwritten.array(), from, Math.min(WRITE_PIECE_BYTES, unwritten.position() - from));
    }
    unwritten.clear();
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
      // sealed meanwhile: startSegment synced it whole before closing it
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
    sync();
    // The new segment is current before the sealed one closes: a force() that finds its channel
    // closed then sees it is no longer current, and knows it was synced whole.
    FileForce sealed = current;
    RandomAccessFile sealedFile = currentFile;
    openSegment();
    sealedFile.close();
    sealed.close();
  }

  /**
   * Deletes the sealed segments whose every record is at or before {@code foldedUpTo}; the segment
   * being appended to stays. A segment that cannot be deleted is said in the log and tried again at
   * the next call: it only takes room, as replay passes over what is folded. Any thread: the files
   * are deleted outside the log's lock, so appends, writes and syncs go on meanwhile.
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
      if (!delete(directory, first)) {
        failed.add(first);
      }
    }
    if (!failed.isEmpty()) {
      synchronized (this) {
        undeleted.addAll(0, failed);
      }
    }
  }

  private static boolean delete(Path directory, long first) {
    Path file = segmentFile(directory, first);
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

  /**
   * Forgets the records appended since the last {@link #write}: their group failed, and no later
   * sync (at {@link #close}, say) may make them durable. A write that failed part way left only a
   * unit without its last record, which replay cuts.
   */
  public synchronized void discardUnwritten() {
    unwritten.clear();
  }

  /** How many records the segment being appended to holds. */
  public synchronized long recordsInCurrentSegment() {
    return nextPosition - segments.get(segments.size() - 1);
  }

  /** The position the next record will get. */
  public synchronized long nextPosition() {
    return nextPosition;
  }

  /** Syncs what was appended and closes the current segment. */
  @Override
  public synchronized void close() throws IOException {
    if (current != null) {
      FileForce closing = current;
      try {
        sync();
      } finally {
        current = null; // before the close, as in startSegment
        try {
          currentFile.close();
        } finally {
          closing.close();
        }
      }
    }
  }

  private void openSegment() throws IOException {
    Path file = Files.createFile(segmentFile(directory, nextPosition));
    currentFile = new RandomAccessFile(file.toFile(), "rw");
    current = FileForce.open(file);
    segments.add(nextPosition);
    // The new file's name outlives a power loss as its records do.
    FileForce.forceDirectory(directory);
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

  /**
   * Replays one segment's records past {@code foldedUpTo}, a unit once its last record is read;
   * returns the position of the last record kept, or {@code first - 1} when it keeps none. A torn
   * tail of the newest segment, from the start of a unit left without its last record, is cut off.
   */
  private static long replaySegment(
      Path directory, long first, boolean newest, long foldedUpTo, Consumer<Entry> replay)
      throws IOException {
    Path file = segmentFile(directory, first);
    ByteBuffer bytes = ByteBuffer.wrap(Files.readAllBytes(file));
    long expected = first;
    List<Entry> unit = new ArrayList<>();
    int unitStart = 0;
    while (bytes.hasRemaining()) {
      int start = bytes.position();
      if (unit.isEmpty()) {
        unitStart = start;
      }
      LogFrames.Framed framed = LogFrames.next(bytes, expected);
      if (framed == null) {
        bytes.position(start);
        break;
      }
      unit.add(framed.entry());
      expected++;
      if (!framed.moreFollow()) {
        unit.stream().filter(e -> e.position() > foldedUpTo).forEach(replay);
        unit.clear();
      }
    }
    if (bytes.hasRemaining() || !unit.isEmpty()) {
      int cut = unit.isEmpty() ? bytes.position() : unitStart;
      if (!newest) {
        throw new IllegalStateException(
            "young jobs' log: segment " + first + " is damaged at byte " + cut);
      }
      try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
        channel.truncate(cut);
        channel.force(false);
      }
      expected -= unit.size();
    }
    return expected - 1;
  }

  private static List<Long> segmentsIn(Path directory) throws IOException {
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

  private static Path segmentFile(Path directory, long first) {
    return directory.resolve(String.format(Locale.ROOT, "young-%020d.log", first));
  }
}
