package io.antrean.coordinator.store.jdbc;

import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Who to tell when a rate limit that held jobs back gets its next token: a lease that a token
 * bucket cut short reports the queue and the instant ({@link JdbcSession#leasableAt}), and this
 * process's waiting Lease calls on that queue look again then, instead of at the next event or
 * sweep. Each process hears only of its own leases: its waiting calls are the ones that found the
 * bucket empty. Thread-safe.
 */
public final class TokenWakeups {
  private static final Logger log = LoggerFactory.getLogger(TokenWakeups.class);

  private final List<BiConsumer<String, Instant>> listeners = new CopyOnWriteArrayList<>();

  /** Adds a listener of (queue, instant of the next token). */
  public void subscribe(BiConsumer<String, Instant> listener) {
    listeners.add(listener);
  }

  /** Tells every listener; one that throws is logged and the others still hear it. */
  public void leasableAt(String queue, Instant at) {
    for (BiConsumer<String, Instant> listener : listeners) {
      try {
        listener.accept(queue, at);
      } catch (RuntimeException e) {
        log.warn("token wake-up listener failed for queue {}", queue, e);
      }
    }
  }
}
