package io.antrean.coordinator.core;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Wakes a queue's waiting Lease calls when a delayed job or a retry becomes due: the event path for
 * jobs that are not ready when they are stored. Wake-ups of one queue within the same 10 ms are
 * merged, so a million delayed jobs do not mean a million timers. The backup sweep wakes every
 * queue periodically in case one is missed (for example after a restart). Thread-safe.
 *
 * <p>A wake-up never runs before its time by the clock that leases compare run times with: a lease
 * that ran early would find the job not yet due, and nothing would wake the queue again before the
 * waiting calls time out. The timer's own time source may run ahead of that clock, so a timer that
 * fires early waits the rest; a far wake-up is scheduled in steps of at most {@link #MAX_STEP}.
 */
final class DueWakeups {
  private static final long BUCKET_MILLIS = 10;

  /** The longest single timer; a wake-up further away looks at the clock again after it. */
  static final Duration MAX_STEP = Duration.ofHours(1);

  private final Consumer<String> wake;
  private final ScheduledExecutorService scheduler;
  private final Clock clock;
  private final Map<Bucket, Boolean> scheduled = new ConcurrentHashMap<>();

  DueWakeups(Consumer<String> wake, ScheduledExecutorService scheduler, Clock clock) {
    this.wake = wake;
    this.scheduler = scheduler;
    this.clock = clock;
  }

  /** Wakes the queue's waiters at (or just after) {@code at}. */
  void wakeAt(String queue, Instant at) {
    long bucketMillis = Math.floorDiv(at.toEpochMilli(), BUCKET_MILLIS) * BUCKET_MILLIS;
    Bucket bucket = new Bucket(queue, Instant.ofEpochMilli(bucketMillis + BUCKET_MILLIS));
    if (scheduled.putIfAbsent(bucket, Boolean.TRUE) != null) {
      return;
    }
    schedule(bucket);
  }

  private void schedule(Bucket bucket) {
    Duration left = Duration.between(clock.instant(), bucket.at());
    long delayNanos =
        left.isNegative() ? 0 : left.compareTo(MAX_STEP) > 0 ? MAX_STEP.toNanos() : left.toNanos();
    scheduler.schedule(() -> fire(bucket), delayNanos, TimeUnit.NANOSECONDS);
  }

  private void fire(Bucket bucket) {
    if (clock.instant().isBefore(bucket.at())) {
      schedule(bucket);
      return;
    }
    scheduled.remove(bucket);
    wake.accept(bucket.queue());
  }

  /** The wake-ups of one queue due in one 10 ms window, run at the window's end. */
  private record Bucket(String queue, Instant at) {}
}
