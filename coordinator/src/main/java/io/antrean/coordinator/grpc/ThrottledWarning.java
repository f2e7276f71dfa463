package io.antrean.coordinator.grpc;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import javax.annotation.Nullable;

/**
 * A warning about something that may happen on every request (a client sending garbage): the first
 * occurrence is reported at once, later ones are counted and reported at most once per interval, as
 * one line with the count, so the log grows by a bounded amount however fast they come.
 * Thread-safe.
 */
final class ThrottledWarning {
  private final String what;
  private final long intervalNanos;
  private final LongSupplier nanoTime;
  private final Consumer<String> sink;
  private final AtomicLong unreported = new AtomicLong();
  private final AtomicLong total = new AtomicLong();
  private final AtomicLong nextReportAt;

  /**
   * @param what what is counted, as a plural noun phrase ("unparseable gRPC requests")
   * @param nanoTime a monotonic clock in nanoseconds; tests pass a fake one
   * @param sink where report lines go, for example a logger's warn
   */
  ThrottledWarning(String what, Duration interval, LongSupplier nanoTime, Consumer<String> sink) {
    this.what = what;
    this.intervalNanos = interval.toNanos();
    this.nanoTime = nanoTime;
    this.sink = sink;
    this.nextReportAt = new AtomicLong(nanoTime.getAsLong());
  }

  /**
   * Counts one occurrence and reports when the interval since the last report has passed.
   *
   * @param latest a short description of this occurrence, without stack trace or payload
   */
  void record(@Nullable String latest) {
    unreported.incrementAndGet();
    total.incrementAndGet();
    long now = nanoTime.getAsLong();
    long due = nextReportAt.get();
    if (now - due >= 0 && nextReportAt.compareAndSet(due, now + intervalNanos)) {
      long count = unreported.getAndSet(0);
      sink.accept(
          count
              + " "
              + what
              + " since the last report ("
              + total.get()
              + " in all); reported at most once per "
              + Duration.ofNanos(intervalNanos).toSeconds()
              + " s; latest: "
              + latest);
    }
  }

  /** Occurrences counted since this object was made. */
  long total() {
    return total.get();
  }
}
