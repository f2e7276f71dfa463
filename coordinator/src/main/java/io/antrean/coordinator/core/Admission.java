package io.antrean.coordinator.core;

import io.antrean.coordinator.store.OverloadedException;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Admission control: counts what the coordinator holds in flight against {@link InFlightLimits} and
 * refuses past a limit with {@link OverloadedException}, before any work is done. A caller {@link
 * #admit}s a call, adds its request bytes to the {@link Ticket}, and closes the ticket when the
 * call is over, which gives everything back. Thread-safe and lock-free.
 */
public final class Admission {
  /** What kind of call holds a ticket; each kind has its own count. */
  public enum Kind {
    /** A call answered once: counts against calls and bytes. */
    UNARY,
    /** A Lease call, which may wait for work. */
    LONG_POLL,
    /** A WatchJob stream. */
    WATCH
  }

  private final InFlightLimits limits;
  private final AtomicLong bytes = new AtomicLong();
  private final AtomicInteger calls = new AtomicInteger();
  private final AtomicInteger longPolls = new AtomicInteger();
  private final AtomicInteger watches = new AtomicInteger();

  public Admission(InFlightLimits limits) {
    this.limits = Objects.requireNonNull(limits, "limits");
  }

  public InFlightLimits limits() {
    return limits;
  }

  /**
   * Takes one place of the kind's count.
   *
   * @throws OverloadedException when the kind's count is at its limit; nothing is then held
   */
  public Ticket admit(Kind kind) {
    switch (kind) {
      case UNARY -> take(calls, limits.maxCalls(), "in_flight_calls", "unary calls");
      case LONG_POLL -> take(longPolls, limits.maxLongPolls(), "long_polls", "waiting Lease calls");
      case WATCH -> take(watches, limits.maxWatchStreams(), "watch_streams", "WatchJob streams");
    }
    return new Ticket(kind);
  }

  /** Request bytes held now. */
  public long bytesInFlight() {
    return bytes.get();
  }

  /** Tickets of the kind held now. */
  public int inFlight(Kind kind) {
    return counter(kind).get();
  }

  private void take(AtomicInteger count, int max, String limit, String what) {
    int now;
    do {
      now = count.get();
      if (now >= max) {
        throw refuse(limit, "the coordinator holds " + now + " " + what + ", its limit");
      }
    } while (!count.compareAndSet(now, now + 1));
  }

  private AtomicInteger counter(Kind kind) {
    return switch (kind) {
      case UNARY -> calls;
      case LONG_POLL -> longPolls;
      case WATCH -> watches;
    };
  }

  private OverloadedException refuse(String limit, String why) {
    return new OverloadedException(
        limit,
        why + "; retry after " + limits.retryAfter().toMillis() + " ms",
        limits.retryAfter());
  }

  /** One admitted call's hold; {@link #close} gives it back, once. Thread-safe. */
  public final class Ticket implements AutoCloseable {
    private final Kind kind;
    private final AtomicLong held = new AtomicLong();
    private final AtomicBoolean closed = new AtomicBoolean();

    private Ticket(Kind kind) {
      this.kind = kind;
    }

    /**
     * Holds {@code n} more request bytes until the ticket is closed. A request larger than the
     * whole limit is taken only while no other bytes are in flight.
     *
     * @throws OverloadedException when that would pass the byte limit; the bytes are then not held
     */
    public void addBytes(long n) {
      if (n <= 0 || closed.get()) {
        return;
      }
      long now;
      do {
        now = bytes.get();
        if (now > 0 && now + n > limits.maxBytes()) {
          throw refuse(
              "in_flight_bytes",
              "the coordinator holds "
                  + now
                  + " bytes of requests in flight and "
                  + n
                  + " more would pass its limit of "
                  + limits.maxBytes());
        }
      } while (!bytes.compareAndSet(now, now + n));
      held.addAndGet(n);
    }

    /** Gives back the place and every byte held; later calls do nothing. */
    @Override
    public void close() {
      if (closed.compareAndSet(false, true)) {
        bytes.addAndGet(-held.getAndSet(0));
        counter(kind).decrementAndGet();
      }
    }
  }
}
