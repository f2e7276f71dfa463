package io.antrean.worker.examples;

import io.antrean.worker.JobContext;
import io.antrean.worker.JobHandler;
import io.antrean.worker.JobHandlerProvider;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * Example type {@code bench.noop}: does no work and succeeds with the instant it started as its
 * result, {@code {"startedAtMicros":N}} in microseconds since the epoch. It is the handler {@code
 * antrean bench} enqueues: the bench starts worker processes with it ({@code antrean worker --types
 * bench.noop}) to measure the queue itself, not the work, and its {@code latency} scenario reads
 * the start back to time enqueue to handler start, both ends on this machine's clock. Stateless and
 * thread-safe.
 */
public final class NoopHandler implements JobHandler, JobHandlerProvider {
  /** The job type this handler serves. */
  public static final String TYPE = "bench.noop";

  private final Clock clock;

  /** Used by {@link java.util.ServiceLoader}: the system clock. */
  public NoopHandler() {
    this(Clock.systemUTC());
  }

  /** A handler that reads its start from {@code clock}. */
  NoopHandler(Clock clock) {
    this.clock = clock;
  }

  @Override
  public String type() {
    return TYPE;
  }

  /** Only when asked for by name: it completes jobs without doing anything. */
  @Override
  public boolean loadedByDefault() {
    return false;
  }

  @Override
  public JobHandler create() {
    return this;
  }

  @Override
  public byte[] handle(JobContext ctx) {
    long micros = ChronoUnit.MICROS.between(Instant.EPOCH, clock.instant());
    return ("{\"startedAtMicros\":" + micros + "}").getBytes(StandardCharsets.US_ASCII);
  }
}
