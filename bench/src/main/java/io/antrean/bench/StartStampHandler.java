package io.antrean.bench;

import com.google.protobuf.ByteString;
import io.antrean.worker.JobContext;
import io.antrean.worker.JobHandler;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The in-process workers' {@code bench.noop} handler: does nothing and succeeds with the instant it
 * started as its result, {@code {"startedAtMicros":N}} (microseconds since the epoch), as the
 * runnable worker's {@code bench.noop} handler does, so {@code latency} reads the start of every
 * job the same way whichever workers ran it. Stateless and thread-safe.
 */
final class StartStampHandler implements JobHandler {
  private static final Pattern STAMP = Pattern.compile("\"startedAtMicros\"\\s*:\\s*(\\d{1,19})");

  private final Clock clock;

  StartStampHandler(Clock clock) {
    this.clock = clock;
  }

  @Override
  public byte[] handle(JobContext ctx) {
    long micros = epochMicros(clock.instant());
    return ("{\"startedAtMicros\":" + micros + "}").getBytes(StandardCharsets.US_ASCII);
  }

  /** Microseconds since the epoch, the unit both ends of a latency sample are stamped in. */
  static long epochMicros(Instant instant) {
    return ChronoUnit.MICROS.between(Instant.EPOCH, instant);
  }

  /**
   * The start a {@code bench.noop} handler reported in a job's result; empty when the result has
   * none (a handler that does not report its start).
   */
  static OptionalLong startedAtMicros(ByteString result) {
    Matcher matcher = STAMP.matcher(result.toString(StandardCharsets.UTF_8));
    if (!matcher.find()) {
      return OptionalLong.empty();
    }
    try {
      return OptionalLong.of(Long.parseLong(matcher.group(1)));
    } catch (NumberFormatException tooLarge) {
      return OptionalLong.empty();
    }
  }
}
