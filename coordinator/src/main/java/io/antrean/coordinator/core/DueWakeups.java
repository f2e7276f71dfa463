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
 */
final class DueWakeups {
  private static final long BUCKET_MILLIS = 10;

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
    Bucket bucket = new Bucket(queue, bucketMillis + BUCKET_MILLIS);
    if (scheduled.putIfAbsent(bucket, Boolean.TRUE) != null) {
      return;
    }
    long delayMillis =
        Math.max(
            0, Duration.between(clock.instant(), Instant.ofEpochMilli(bucket.atMillis)).toMillis());
    scheduler.schedule(
        () -> {
          scheduled.remove(bucket);
          wake.accept(queue);
        },
        delayMillis,
        TimeUnit.MILLISECONDS);
  }

  private record Bucket(String queue, long atMillis) {}
}
