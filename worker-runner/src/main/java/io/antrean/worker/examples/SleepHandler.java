package io.antrean.worker.examples;

import io.antrean.worker.JobContext;
import io.antrean.worker.JobHandler;
import io.antrean.worker.JobHandlerProvider;

/**
 * Example type {@code sleep}: payload {@code {"ms": N}} (1000 by default). Sleeps N ms and returns
 * {@code {"sleptMs": N}}; an interruption (cancellation, lost lease, shutdown) ends the sleep at
 * once. Useful to test shutdown and cancellation. Stateless and thread-safe.
 */
public final class SleepHandler implements JobHandler, JobHandlerProvider {
  /** The job type this handler serves. */
  public static final String TYPE = "sleep";

  /** Used by {@link java.util.ServiceLoader}. */
  public SleepHandler() {}

  @Override
  public String type() {
    return TYPE;
  }

  /** Only when asked for by name: it only sleeps. */
  @Override
  public boolean loadedByDefault() {
    return false;
  }

  @Override
  public JobHandler create() {
    return this;
  }

  @Override
  public byte[] handle(JobContext ctx) throws InterruptedException {
    long ms = JsonPayload.wholeNumber(JsonPayload.parse(ctx), "ms", 1000, 0, 86_400_000);
    Thread.sleep(ms);
    return JsonPayload.utf8("{\"sleptMs\":" + ms + "}");
  }
}
