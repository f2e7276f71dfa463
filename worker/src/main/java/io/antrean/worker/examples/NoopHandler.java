package io.antrean.worker.examples;

import io.antrean.worker.JobContext;
import io.antrean.worker.JobHandler;
import io.antrean.worker.JobHandlerProvider;

/**
 * Example type {@code bench.noop}: does nothing and succeeds with an empty result. It is the
 * handler {@code antrean bench} enqueues, so external worker processes ({@code bin/antrean worker
 * --queue bench --types bench.noop}) can take part in a benchmark and measure the queue itself, not
 * the work. Stateless and thread-safe.
 */
public final class NoopHandler implements JobHandler, JobHandlerProvider {
  /** The job type this handler serves. */
  public static final String TYPE = "bench.noop";

  private static final byte[] EMPTY = new byte[0];

  /** Used by {@link java.util.ServiceLoader}. */
  public NoopHandler() {}

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
    return EMPTY;
  }
}
