package io.antrean.coordinator.store.sqlite;

import io.antrean.coordinator.store.EnqueueResult;
import io.antrean.coordinator.store.jdbc.SessionWork;
import io.antrean.coordinator.store.sqlite.NewJobRows.PlainEnqueue;
import io.antrean.coordinator.store.sqlite.young.YoungJobs;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import javax.annotation.Nullable;

/**
 * One write operation handed to the {@link SqliteWriter}, and what it produced inside its
 * transaction until the commit decides what its caller gets. Not thread-safe: the thread that holds
 * the writer's connection runs it; its future is completed once, after the commit.
 */
final class WriteTask<T> {
  private final String name;
  private final SessionWork<T> operation;
  @Nullable private final PlainEnqueue plainEnqueue;
  @Nullable private final YoungForm<T> youngForm;
  private final boolean mayBeGathered;
  private final boolean touchesJobs;
  private final CompletableFuture<T> result = new CompletableFuture<>();
  private T value;
  private Throwable failure;

  WriteTask(String name, SessionWork<T> operation) {
    this(name, operation, null, null, true, true);
  }

  private WriteTask(
      String name,
      SessionWork<T> operation,
      @Nullable PlainEnqueue plainEnqueue,
      @Nullable YoungForm<T> youngForm,
      boolean mayBeGathered,
      boolean touchesJobs) {
    this.name = name;
    this.operation = operation;
    this.plainEnqueue = plainEnqueue;
    this.youngForm = youngForm;
    this.mayBeGathered = mayBeGathered;
    this.touchesJobs = touchesJobs;
  }

  /**
   * An operation that neither reads nor changes the jobs' rows (a queue's pause, say): young jobs
   * stay young through it.
   */
  static <T> WriteTask<T> apartFromJobs(String name, SessionWork<T> operation) {
    return new WriteTask<>(name, operation, null, null, true, false);
  }

  /** Whether the operation reads or changes the jobs' rows, so that young jobs fold first. */
  boolean touchesJobs() {
    return touchesJobs;
  }

  /**
   * A group that only folds the young jobs, for a read that must find them in the database: handed
   * over at once even inside {@link SqliteWriter#together}, whose writes wait for its end.
   */
  static WriteTask<Void> fold() {
    return new WriteTask<>("fold the young jobs", c -> null, null, null, false, true);
  }

  /** Whether a {@link SqliteWriter#together} on the submitting thread may keep it for its end. */
  boolean mayBeGathered() {
    return mayBeGathered;
  }

  /**
   * An operation's form on the young jobs ({@link YoungWork}), run instead of the operation where
   * young jobs are kept, without folding them first.
   */
  interface YoungForm<T> {
    /** The operation's value; null when only the rows can answer, after a fold. */
    @Nullable
    T run(CachedConnection connection, YoungJobs young) throws SQLException;
  }

  /** How a {@link YoungForm} went. */
  enum YoungRun {
    /** It gave the operation's value. */
    DONE,
    /** It threw: that is the operation's failure, and its savepoint must be rolled back. */
    FAILED,
    /** It could not answer: the savepoint must be rolled back, then the young jobs folded. */
    MUST_FOLD
  }

  /** An operation that has a form on the young jobs. */
  static <T> WriteTask<T> withYoungForm(
      String name, SessionWork<T> operation, YoungForm<T> youngForm) {
    return new WriteTask<>(name, operation, null, youngForm, true, true);
  }

  /**
   * An Enqueue whose jobs' rows are all it writes: a group may store them in statements shared with
   * the next such Enqueue ({@link #stored}); else, or if that fails, it stores them alone.
   */
  static WriteTask<List<EnqueueResult>> enqueue(PlainEnqueue enqueue) {
    return new WriteTask<>("enqueue", enqueue::storeAlone, enqueue, null, true, true);
  }

  /** What an Enqueue made by {@link #enqueue} stores; null for every other operation. */
  @Nullable
  PlainEnqueue plainEnqueue() {
    return plainEnqueue;
  }

  /**
   * The value of an Enqueue made by {@link #enqueue}, stored in statements shared with others
   * instead of by running its operation.
   */
  @SuppressWarnings("unchecked") // enqueue() is the only way to a plainEnqueue, and its T
  void stored(List<EnqueueResult> results) {
    if (plainEnqueue == null) {
      throw new IllegalStateException(name + " is not a plain Enqueue");
    }
    value = (T) results;
  }

  /** What the caller gets: completed by {@link #complete} or {@link #fail}. */
  CompletableFuture<T> result() {
    return result;
  }

  /** Runs the operation; false when it failed and its savepoint must be rolled back. */
  boolean runIn(CachedConnection connection) {
    try {
      value = operation.run(connection);
      return true;
    } catch (SQLException | RuntimeException | Error e) {
      keepFailure(e);
      return false;
    }
  }

  /** What the operation threw, as its caller gets it: an SQL error translated. */
  private void keepFailure(Throwable e) {
    failure = e instanceof SQLException sql ? SqliteDialect.INSTANCE.translate(name, sql) : e;
  }

  /** Whether the operation has a form on the young jobs. */
  boolean hasYoungForm() {
    return youngForm != null;
  }

  /** Runs the operation's form on the young jobs, which it must have. */
  YoungRun runYoungIn(CachedConnection connection, YoungJobs young) {
    T youngValue;
    try {
      youngValue = youngForm.run(connection, young);
    } catch (SQLException | RuntimeException | Error e) {
      keepFailure(e);
      return YoungRun.FAILED;
    }
    if (youngValue == null) {
      return YoungRun.MUST_FOLD;
    }
    value = youngValue;
    return YoungRun.DONE;
  }

  /** After the commit: the operation's value, or what the operation threw. */
  void complete() {
    if (failure != null) {
      result.completeExceptionally(failure);
    } else {
      result.complete(value);
    }
  }

  /** The transaction as a whole failed, or never ran: nothing of the operation was kept. */
  void fail(Throwable cause) {
    result.completeExceptionally(cause);
  }
}
