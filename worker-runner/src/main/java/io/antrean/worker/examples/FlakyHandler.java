package io.antrean.worker.examples;

import com.google.protobuf.Struct;
import io.antrean.worker.JobContext;
import io.antrean.worker.JobHandler;
import io.antrean.worker.JobHandlerProvider;
import io.antrean.worker.RetryableException;
import java.time.Duration;

/**
 * Example type {@code flaky}: payload {@code {"failures": N, "retryAfterMs": M}}. Throws a {@link
 * RetryableException} while the attempt number is at most N (1 by default), asking for a retry
 * after M ms when M is given, then succeeds with {@code {"attempt": k}}. Shows the retry path end
 * to end. Stateless and thread-safe.
 */
public final class FlakyHandler implements JobHandler, JobHandlerProvider {
  /** The job type this handler serves. */
  public static final String TYPE = "flaky";

  /** Used by {@link java.util.ServiceLoader}. */
  public FlakyHandler() {}

  @Override
  public String type() {
    return TYPE;
  }

  @Override
  public JobHandler create() {
    return this;
  }

  @Override
  public byte[] handle(JobContext ctx) {
    Struct payload = JsonPayload.parse(ctx);
    long failures = JsonPayload.wholeNumber(payload, "failures", 1, 0, 1_000);
    long retryAfterMs = JsonPayload.wholeNumber(payload, "retryAfterMs", -1, 0, 86_400_000);
    if (ctx.attempt() <= failures) {
      String message =
          "simulated transient failure on attempt " + ctx.attempt() + " of " + failures;
      throw retryAfterMs < 0
          ? new RetryableException(message)
          : new RetryableException(message, Duration.ofMillis(retryAfterMs));
    }
    return JsonPayload.utf8("{\"attempt\":" + ctx.attempt() + "}");
  }
}
