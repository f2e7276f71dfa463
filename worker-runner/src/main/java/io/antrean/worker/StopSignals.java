package io.antrean.worker;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;
import javax.annotation.concurrent.GuardedBy;

/**
 * SIGTERM and SIGINT for the runnable worker, trapped from the first moment of {@code main}: a
 * signal that arrives while the JVM is still starting (parsing options, loading handlers, building
 * the channel) is remembered instead of letting the JVM exit with 143, and the worker then does not
 * start, or is stopped as soon as it has started. Thread-safe; the action runs on the signal's
 * thread (or the attaching one, for signals that came before) and must not block.
 */
final class StopSignals {
  private final Object lock = new Object();

  @GuardedBy("lock")
  private boolean trapped;

  @GuardedBy("lock")
  private final List<String> beforeAttach = new ArrayList<>();

  @GuardedBy("lock")
  private int count;

  @GuardedBy("lock")
  private BiConsumer<String, Integer> action;

  /**
   * Traps SIGTERM and SIGINT from now on. Idempotent.
   *
   * @return this
   */
  StopSignals trap() {
    synchronized (lock) {
      if (trapped) {
        return this;
      }
      trapped = true;
    }
    SignalTrap.install(this::onSignal, "TERM", "INT");
    return this;
  }

  /** Whether a stop signal has arrived. */
  boolean stopRequested() {
    synchronized (lock) {
      return count > 0;
    }
  }

  /**
   * Hands every signal from now on to {@code newAction}, with the signal's name and how many have
   * arrived so far (1 for the first), after replaying, in order, those that arrived before.
   */
  void attach(BiConsumer<String, Integer> newAction) {
    synchronized (lock) {
      for (int i = 0; i < beforeAttach.size(); i++) {
        newAction.accept(beforeAttach.get(i), i + 1);
      }
      beforeAttach.clear();
      action = newAction;
    }
  }

  /** Called by the trap, and by tests in place of a real signal. */
  void onSignal(String name) {
    synchronized (lock) {
      count++;
      if (action == null) {
        beforeAttach.add(name);
      } else {
        action.accept(name, count);
      }
    }
  }
}
