package io.antrean.coordinator.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/** Runs one task on many threads released at the same instant, with bounded waits throughout. */
public final class Concurrently {
  private static final long WAIT_SECONDS = 20;

  /** A task that may throw. */
  @FunctionalInterface
  public interface Task {
    void run() throws Exception;
  }

  private Concurrently() {}

  /**
   * Starts {@code task} on {@code threads} threads behind one latch and waits for all of them.
   * Rethrows (wrapped) the first failure of any thread; fails if a thread does not finish in time.
   */
  public static void run(int threads, Task task) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      CountDownLatch ready = new CountDownLatch(threads);
      CountDownLatch start = new CountDownLatch(1);
      List<Future<?>> futures = new ArrayList<>();
      for (int i = 0; i < threads; i++) {
        futures.add(
            pool.submit(
                () -> {
                  ready.countDown();
                  assertThat(start.await(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();
                  task.run();
                  return null;
                }));
      }
      assertThat(ready.await(WAIT_SECONDS, TimeUnit.SECONDS)).as("all threads ready").isTrue();
      start.countDown();
      for (Future<?> future : futures) {
        future.get(WAIT_SECONDS, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
      assertThat(pool.awaitTermination(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();
    }
  }
}
