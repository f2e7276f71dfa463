package io.antrean.coordinator.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A write that a test holds: the writing thread calls {@link #hold()}, which returns once the test
 * calls {@link #release()}; the test learns that the write began with {@link #awaitWriting()}. For
 * the tests of work that gathers what arrives while a write is under way.
 */
final class HeldWrite {
  private static final long WAIT_SECONDS = 10;

  private final CountDownLatch writing = new CountDownLatch(1);
  private final CountDownLatch released = new CountDownLatch(1);

  /** On the writing thread: says the write began, then waits for {@link #release()}. */
  void hold() {
    writing.countDown();
    try {
      if (!released.await(WAIT_SECONDS, TimeUnit.SECONDS)) {
        throw new IllegalStateException("the held write was not released within 10 s");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** Whether the write has begun (and is not yet held or released). */
  boolean begun() {
    return writing.getCount() == 0;
  }

  /** On the test's thread: waits until the write began, failing after 10 s. */
  void awaitWriting() throws InterruptedException {
    assertThat(writing.await(WAIT_SECONDS, TimeUnit.SECONDS)).as("the write began").isTrue();
  }

  void release() {
    released.countDown();
  }
}
