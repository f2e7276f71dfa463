package io.antrean.worker.examples;

import io.antrean.worker.JobContext;
import io.antrean.worker.JobHandler;
import io.antrean.worker.JobHandlerProvider;
import io.antrean.worker.PermanentException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Example type {@code crash}: payload {@code {"mode": "halt"}} (the default) kills the worker's JVM
 * at once with exit status 137, as an out-of-memory kill would, without releasing anything. It is a
 * poison job for testing lease expiry and the coordinator's lease-expiry budget. Any other mode
 * fails permanently. Never register it in a worker that does real work.
 */
public final class CrashHandler implements JobHandler, JobHandlerProvider {
  /** The job type this handler serves. */
  public static final String TYPE = "crash";

  private static final Logger log = LoggerFactory.getLogger(CrashHandler.class);
  private static final int HALT_STATUS = 137;

  /** Used by {@link java.util.ServiceLoader}. */
  public CrashHandler() {}

  @Override
  public String type() {
    return TYPE;
  }

  /** Only when asked for by name: it halts the JVM. */
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
    String mode = JsonPayload.text(JsonPayload.parse(ctx), "mode");
    if (mode == null || mode.equals("halt")) {
      log.error(
          "job {} asked the worker to crash; halting with status {}", ctx.jobId(), HALT_STATUS);
      Runtime.getRuntime().halt(HALT_STATUS);
    }
    throw new PermanentException("unknown crash mode: " + mode + " (known: halt)");
  }
}
