package io.antrean.worker.testing;

import io.antrean.worker.Ticker;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/** A ticker that moves only when the test advances it. Thread-safe. */
public final class FakeTicker implements Ticker {
  private final AtomicLong nanos = new AtomicLong(1_000_000_000L);

  @Override
  public long nanos() {
    return nanos.get();
  }

  public void advance(Duration duration) {
    nanos.addAndGet(duration.toNanos());
  }
}
