package io.antrean.coordinator.store.sqlite;

import io.antrean.coordinator.store.StoreUnavailableException;
import io.antrean.coordinator.store.sqlite.young.LoggedChange;
import io.antrean.coordinator.store.sqlite.young.YoungChange;
import io.antrean.coordinator.store.sqlite.young.YoungCreations;
import io.antrean.coordinator.store.sqlite.young.YoungJobLog;
import io.antrean.coordinator.store.sqlite.young.YoungJobs;
import io.antrean.coordinator.store.sqlite.young.YoungJobs.YoungJob;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import javax.annotation.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The young jobs of a SQLite store (kept while {@link SqliteOptions#youngJobs}): a plain Enqueue's
 * jobs are kept in memory ({@link YoungJobs}) and in their log ({@link YoungJobLog}) instead of the
 * jobs' table, and every other operation folds them into the table first, so that it finds the
 * database as it would have been. Driven by {@link GroupCommit}, on the thread that holds the
 * writer's connection; {@link #hasYoung} may be read from any thread.
 */
final class YoungLayer implements AutoCloseable {
  private static final Logger logger = LoggerFactory.getLogger(YoungLayer.class);
  private static final String FOLDED_UP_TO = "SELECT folded_up_to FROM young_log_folds";
  private static final String FOLD = "UPDATE young_log_folds SET folded_up_to = ?";

  /** The most jobs kept young: past it, the next group folds first. */
  static final int MAX_YOUNG_JOBS = 50_000;

  /** The most payload and result bytes kept young: past it, the next group folds first. */
  static final long MAX_YOUNG_BYTES = 64L << 20;

  // No run of Enqueues makes more young jobs, or payload bytes, than this: memory holds at most
  // the bound and one run.
  static final int MAX_RUN_JOBS = MAX_YOUNG_JOBS / 10;
  static final long MAX_RUN_BYTES = MAX_YOUNG_BYTES / 10;

  /**
   * A short fold: how far under the bound a fold at the bound takes them, so each pause is short.
   */
  static final int SHORT_FOLD_JOBS = 250;

  /**
   * The most young jobs a quiet fold takes ({@link QuietFolds}): about a millisecond of the writer,
   * which a write that comes during it waits for.
   */
  static final int QUIET_FOLD_JOBS = 50;

  private static final long SHORT_FOLD_BYTES = 1L << 20;

  private final YoungJobs young;
  private final YoungJobLog log;
  private final WalSync sync;
  private final boolean accepting;
  // Where the young jobs' creations (and some of jobs folded since) are in the log.
  private final YoungCreations creations;
  private volatile boolean hasYoung;
  // System.nanoTime() when the oldest young job's creation was written; 0 when none is young.
  private volatile long oldestYoungNanos;
  // Jobs created before this System.nanoTime() may fold in the next group in a transaction, a
  // quiet fold asked; 0 when none is asked.
  private volatile long quietFoldBefore;
  @Nullable private QuietFolds quietFolds;
  // Set once the log failed to write: every group fails from then on.
  @Nullable private volatile IOException broken;
  // The fold of the open group, if it folded: the log's position it covers, and the largest id of
  // the jobs it wrote.
  private long foldedInGroup = -1;
  private long foldedThroughId = -1;
  private int foldedJobsInGroup;
  // How many jobs the committed folds wrote, from the open on.
  private volatile long foldedJobs;
  // The segments the committed folds let go, deleted once their commits are durable.
  private final FoldedSegments foldedSegments;

  private YoungLayer(
      YoungJobs young, YoungJobLog log, WalSync sync, boolean accepting, YoungCreations creations) {
    this.young = young;
    this.log = log;
    this.sync = sync;
    this.accepting = accepting;
    this.creations = creations;
    this.foldedSegments = FoldedSegments.deletingApart(log, sync);
    this.hasYoung = !young.isEmpty();
    this.oldestYoungNanos = creations.oldestNanos();
  }

  /**
   * Opens the log in {@code directory} and rebuilds the young jobs from the records past the last
   * fold this database recorded, passing over those of jobs the table has (an id at or below its
   * high mark): a fold of the oldest leaves records of jobs it folded after its mark.
   *
   * @param accepting whether plain Enqueues make new young jobs; false when young jobs are off and
   *     the layer is opened only to fold what a log left by an earlier run still holds
   */
  static YoungLayer open(
      Path directory, CachedConnection connection, WalSync sync, boolean accepting)
      throws SQLException {
    long folded;
    try (ResultSet row = connection.prepare(FOLDED_UP_TO).executeQuery()) {
      row.next();
      folded = row.getLong(1);
    }
    // Every young job's id is above every id the table has had: a fold takes the oldest first.
    long highMark = YoungFolds.nextJobId(connection) - 1;
    YoungJobs young = new YoungJobs();
    YoungCreations creations = new YoungCreations();
    long[] passedOver = {0};
    try {
      Consumer<YoungJobLog.Entry> replay =
          e -> {
            YoungChange change = YoungChange.fromRecord(e.record());
            if (change.jobId() <= highMark) {
              passedOver[0]++;
              return;
            }
            young.replay(change);
            if (change instanceof YoungChange.Created) {
              creations.created(change.jobId(), e.position(), System.nanoTime());
            }
          };
      // A log only folded is never appended to: no segment is made for it ahead of need.
      YoungJobLog log =
          accepting
              ? YoungJobLog.open(directory, folded, replay)
              : YoungJobLog.openWithoutSpares(directory, folded, replay);
      if (passedOver[0] > 0 || !young.isEmpty()) {
        logger.info(
            "young jobs' log replayed: {} jobs young again, {} records passed over (jobs up to id"
                + " {} are rows already)",
            young.size(),
            passedOver[0],
            highMark);
      }
      return new YoungLayer(young, log, sync, accepting, creations);
    } catch (IOException e) {
      throw new UncheckedIOException("opening the young jobs' log in " + directory, e);
    }
  }

  /**
   * Folds the young jobs, if any, for a read that must find the database as it would have been
   * without them; where this thread cannot wait for the writer (its own, the completer), the read
   * finds the rows alone.
   */
  static void foldBeforeRead(@Nullable YoungLayer young, SqliteWriter writer) {
    if (young != null && young.hasYoung() && writer.mayWait()) {
      writer.await(() -> writer.submit(WriteTask.fold()));
    }
  }

  /** Whether plain Enqueues make young jobs. */
  boolean accepting() {
    return accepting;
  }

  /** Whether some job is young: an operation outside the young path must fold first. */
  boolean hasYoung() {
    return hasYoung;
  }

  void beginGroup() {
    young.beginGroup();
    foldedInGroup = -1;
    foldedThroughId = -1;
    foldedJobsInGroup = 0;
  }

  /** As {@link YoungEnqueues#runEnd} while young jobs are kept; else {@code end}. */
  int runEnd(List<WriteTask<?>> group, int from, int end) {
    return accepting ? YoungEnqueues.runEnd(group, from, end) : end;
  }

  /** Keeps the jobs of these plain Enqueues young ({@link YoungEnqueues#store}). */
  void store(CachedConnection connection, List<WriteTask<?>> enqueues) throws SQLException {
    YoungEnqueues.store(connection, young, enqueues);
  }

  /**
   * Runs the task's form on the young jobs ({@link WriteTask.YoungForm}), if it has one and young
   * jobs are kept, in its own savepoint and mark: what it changed is undone if it failed or could
   * not answer.
   *
   * @return whether the task ran; if not, it must run on the rows after {@link #foldFirst}
   */
  boolean ranYoung(CachedConnection connection, WriteTask<?> task) throws SQLException {
    if (!accepting || !task.hasYoungForm()) {
      return false;
    }
    connection.execute("SAVEPOINT operation");
    int mark = young.mark();
    WriteTask.YoungRun run = task.runYoungIn(connection, young);
    if (run != WriteTask.YoungRun.DONE) {
      connection.execute("ROLLBACK TO operation");
      young.rollbackTo(mark);
    }
    connection.execute("RELEASE operation");
    return run != WriteTask.YoungRun.MUST_FOLD;
  }

  /**
   * Whether memory holds as many young jobs, or as many of their bytes, as it may: they are folded
   * before more are made, which bounds the memory they take and the log a start-up replays.
   */
  boolean full() {
    return young.size() >= MAX_YOUNG_JOBS || young.bytes() >= MAX_YOUNG_BYTES;
  }

  /**
   * Folds every young job into the jobs' table, in the group's transaction, and records how far the
   * log is folded; the segments before go once this commit is durable.
   */
  void foldFirst(CachedConnection connection) throws SQLException {
    if (young.isEmpty()) {
      return;
    }
    long lastId = young.lastId();
    foldedUpTo(connection, () -> YoungFolds.fold(connection, young), lastId);
  }

  /**
   * Folds the oldest young jobs in the group's transaction if memory holds as many as it may
   * ({@link #full}: down to {@link #SHORT_FOLD_JOBS} under the bound, about what the groups before
   * added), or else if a quiet fold was asked ({@link #askQuietFold}: at most {@link
   * #QUIET_FOLD_JOBS} of those created before it); the log is folded up to the oldest job left
   * young.
   */
  void foldOldestIfDue(CachedConnection connection) throws SQLException {
    List<YoungJob> oldest;
    long quiet = quietFoldBefore;
    if (full()) {
      oldest =
          young.oldestBeyond(MAX_YOUNG_JOBS - SHORT_FOLD_JOBS, MAX_YOUNG_BYTES - SHORT_FOLD_BYTES);
    } else if (quiet != 0) {
      quietFoldBefore = 0;
      long through = creations.lastIdCreatedBefore(quiet, QUIET_FOLD_JOBS);
      oldest = young.oldestThrough(through, QUIET_FOLD_JOBS);
    } else {
      return;
    }
    if (oldest.isEmpty()) {
      return;
    }
    long lastId = oldest.get(oldest.size() - 1).id();
    foldedUpTo(connection, () -> YoungFolds.fold(connection, young, oldest), lastId);
  }

  private interface Fold {
    /** Folds; returns how many jobs. */
    int run() throws SQLException;
  }

  private void foldedUpTo(CachedConnection connection, Fold fold, long lastId) throws SQLException {
    // The segments the folds before let go, those whose commits are durable: not waited for here,
    // where it would hold the writer for a sync; a later fold drops the rest. The log starts its
    // segments itself, as each one's room is used, so a fold seals none on this thread.
    foldedSegments.dropDurable();
    foldedJobsInGroup += fold.run();
    long upTo = creations.foldedUpTo(lastId, log.nextPosition() - 1);
    var update = connection.prepare(FOLD);
    update.setLong(1, upTo);
    update.executeUpdate();
    foldedInGroup = upTo;
    foldedThroughId = lastId;
  }

  /**
   * Writes the group's records to the log's file, right after its COMMIT and before the commit is
   * numbered ({@link WalSync#committed}): the fsync that makes the commit durable, before its
   * answers, makes them durable too ({@link #forceLog}).
   *
   * @return whether the group had records to write
   */
  boolean writeRecords() throws IOException {
    try {
      List<LoggedChange> records = young.commitGroupRecords();
      long written = System.nanoTime();
      for (int i = 0; i < records.size(); i++) {
        LoggedChange record = records.get(i);
        // The group's records are one unit: a batch Enqueue comes back from a crash whole or not.
        long position = log.append(record.record(), i < records.size() - 1);
        if (record.change() instanceof YoungChange.Created) {
          creations.created(record.change().jobId(), position, written);
        }
      }
      if (!records.isEmpty()) {
        log.write();
      }
      return !records.isEmpty();
    } catch (IOException | RuntimeException e) {
      // The rows committed and memory moved on: whatever failed, the log is behind them. The
      // group fails, so no later sync may make its records durable.
      log.discardUnwritten();
      broken = e instanceof IOException io ? io : new IOException(e);
      throw broken;
    }
  }

  /**
   * The group committed as {@code commit}: a fold in it lets its segments go once the commit is
   * durable.
   */
  void committed(long commit) {
    if (foldedInGroup >= 0) {
      foldedSegments.folded(foldedInGroup, commit);
      creations.foldedThrough(foldedThroughId);
      foldedJobs += foldedJobsInGroup;
    }
    hasYoung = !young.isEmpty();
    oldestYoungNanos = hasYoung ? creations.oldestNanos() : 0;
  }

  /** How many jobs the committed folds wrote since the open; any thread. */
  long foldedJobs() {
    return foldedJobs;
  }

  /**
   * {@link System#nanoTime} when the oldest young job's creation was written, or 0 when none is
   * young; any thread.
   */
  long oldestYoungNanos() {
    return oldestYoungNanos;
  }

  /**
   * Asks the next group in a transaction (not one of young Enqueues alone) to fold the oldest young
   * jobs created before {@code nanos} ({@link System#nanoTime}), at most {@link #QUIET_FOLD_JOBS}
   * of them; any thread.
   */
  void askQuietFold(long nanos) {
    quietFoldBefore = nanos;
  }

  /** Whether a quiet fold was asked that no group has taken yet, for tests. */
  boolean quietFoldAsked() {
    return quietFoldBefore != 0;
  }

  /** Folds the young jobs in quiet moments ({@link QuietFolds}) from now until {@link #close}. */
  void foldWhenQuiet(SqliteWriter writer, Duration after) {
    quietFolds = new QuietFolds(this, writer, after).start();
  }

  /** Fsyncs what the log's file was given ({@link WalSync#alsoForce}); any thread. */
  void forceLog() throws IOException {
    log.force();
  }

  /**
   * Fails if the log could not take a group's records: what it holds past them is unknown, so no
   * write goes on until the store is reopened and replays what is there.
   *
   * @throws StoreUnavailableException once the log failed
   */
  void requireSoundLog() {
    IOException failure = broken;
    if (failure != null) {
      throw new StoreUnavailableException(
          "the young jobs' log failed to write; every write fails until the store is reopened",
          failure);
    }
  }

  /** The group did not commit: its changes to the young jobs are undone. */
  void abandoned() {
    young.abandonGroup();
  }

  @Override
  public void close() {
    if (quietFolds != null) {
      quietFolds.close();
    }
    foldedSegments.close();
    try {
      log.close();
    } catch (IOException e) {
      throw new UncheckedIOException("closing the young jobs' log", e);
    }
  }
}
