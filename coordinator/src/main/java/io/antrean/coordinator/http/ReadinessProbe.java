package io.antrean.coordinator.http;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Answers "does the store answer a cheap read within the timeout?" without letting a hung store
 * pile up threads: the read runs on one thread of its own, and callers arriving while a read is
 * still out wait for that same read. Thread-safe; {@link #close} stops the thread.
 */
final class ReadinessProbe implements AutoCloseable {
  private final Runnable read;
  private final Duration timeout;
  private final ExecutorService thread =
      Executors.newSingleThreadExecutor(
          r -> {
            Thread t = new Thread(r, "antrean-readiness");
            t.setDaemon(true);
            return t;
          });
  private final AtomicReference<CompletableFuture<Void>> inFlight = new AtomicReference<>();

  /**
   * @param read a cheap store read that throws when the store cannot answer
   */
  ReadinessProbe(Runnable read, Duration timeout) {
    this.read = read;
    this.timeout = timeout;
  }

  /** True when the read succeeded within the timeout. */
  boolean ready() {
    CompletableFuture<Void> probe = inFlight.get();
    if (probe == null || probe.isDone()) {
      CompletableFuture<Void> fresh = CompletableFuture.runAsync(read, thread);
      probe = inFlight.compareAndSet(probe, fresh) ? fresh : inFlight.get();
    }
    try {
      probe.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
      return true;
    } catch (TimeoutException | ExecutionException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  @Override
  public void close() {
    thread.shutdownNow();
  }
}
