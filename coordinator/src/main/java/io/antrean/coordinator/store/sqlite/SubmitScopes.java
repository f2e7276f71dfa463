package io.antrean.coordinator.store.sqlite;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * What a thread asked, for a while, of the writes it submits to the {@link SqliteWriter}: to gather
 * them and hand them over as one unit ({@link #together}), or to queue them for the writer thread
 * even in a quiet moment ({@link #amongOthers}), because more of the caller's writes follow, or the
 * write is large, and its thread should go back to reading. Per thread; a scope inside one of its
 * kind joins it.
 */
final class SubmitScopes {
  /** The writes submitted on this thread inside {@link #together}; null outside it. */
  private final ThreadLocal<List<WriteTask<?>>> gathering = new ThreadLocal<>();

  private final ThreadLocal<Boolean> amongOthers = ThreadLocal.withInitial(() -> false);

  /** Adds the task to this thread's gathering and returns true; false outside {@link #together}. */
  boolean gathered(WriteTask<?> task) {
    List<WriteTask<?>> gathered = gathering.get();
    if (gathered == null) {
      return false;
    }
    gathered.add(task);
    return true;
  }

  /**
   * Whether this thread's writes may run on it in a quiet moment (outside {@link #amongOthers}).
   */
  boolean mayRunOnCaller() {
    return !amongOthers.get();
  }

  /**
   * Runs {@code submissions} and returns what it returns; the writes submitted on this thread
   * meanwhile go to {@code hand} as one unit at the end, if any.
   */
  <T> T together(Supplier<T> submissions, Consumer<List<WriteTask<?>>> hand) {
    if (gathering.get() != null) {
      return submissions.get();
    }
    List<WriteTask<?>> gathered = new ArrayList<>();
    gathering.set(gathered);
    try {
      return submissions.get();
    } finally {
      gathering.remove();
      if (!gathered.isEmpty()) {
        hand.accept(gathered);
      }
    }
  }

  /**
   * Runs {@code submissions}; the writes submitted on this thread meanwhile never run on it. Around
   * a {@link #together}, the gathered writes are handed over inside this scope and so queue too;
   * inside one, they are handed over after it ended, as {@link #together} alone would hand them.
   */
  <T> T amongOthers(Supplier<T> submissions) {
    if (amongOthers.get()) {
      return submissions.get();
    }
    amongOthers.set(true);
    try {
      return submissions.get();
    } finally {
      amongOthers.remove();
    }
  }
}
