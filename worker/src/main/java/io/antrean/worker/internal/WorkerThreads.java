package io.antrean.worker.internal;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Makes the worker's named threads ({@code antrean-<role>-<n>}) and routes the worker's own bugs to
 * the thread's uncaught-exception handler, which the runnable worker turns into an immediate
 * non-zero exit. Thread-safe.
 */
final class WorkerThreads implements ThreadFactory {
  private final String prefix;
  private final AtomicInteger count = new AtomicInteger();

  WorkerThreads(String role) {
    this.prefix = "antrean-" + role + "-";
  }

  @Override
  public Thread newThread(Runnable task) {
    Thread thread = new Thread(task, prefix + count.incrementAndGet());
    thread.setDaemon(false);
    return thread;
  }

  /** Hands {@code error} to the current thread's uncaught-exception handler. */
  static void reportUncaught(Throwable error) {
    Thread current = Thread.currentThread();
    current.getUncaughtExceptionHandler().uncaughtException(current, error);
  }

  /** Wraps {@code task} so that a bug in it is reported instead of silently lost. */
  static Runnable guarded(Runnable task) {
    return () -> {
      try {
        task.run();
      } catch (RuntimeException | Error e) {
        reportUncaught(e);
      }
    };
  }
}
