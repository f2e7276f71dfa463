package io.antrean.bench;

import com.google.protobuf.ByteString;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.OptionalLong;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The JSON payloads bench jobs carry: {@code {"run":"…","sentMicros":N,"bench":"antrean",
 * "pad":"xx…"}}, padded to about the requested size. {@code sentMicros} is when the bench sent the
 * job, in microseconds since the epoch on this machine's clock, which the {@code bench.noop}
 * handler's reported start is compared with; {@code run} is random per instance, so jobs left over
 * from another run are told apart. Immutable and thread-safe.
 */
final class BenchPayload {
  /** The smallest size asked for; the payload is never shorter than its fixed fields anyway. */
  static final int MIN_BYTES = 16;

  /** The largest size asked for: the coordinator's default payload limit. */
  static final int MAX_BYTES = 1 << 20;

  private static final String MIDDLE = ",\"bench\":\"antrean\",\"pad\":\"";
  private static final String SUFFIX = "\"}";
  // Room for the widest long, so that the size hardly varies with the time stamp.
  private static final int NUMBER_WIDTH = 20;

  private final String prefix;
  private final ByteString prefixBytes;
  private final String pad;
  private final ByteString untimed;

  /**
   * @param bytes the size to aim at, {@link #MIN_BYTES} to {@link #MAX_BYTES}
   */
  BenchPayload(int bytes) {
    if (bytes < MIN_BYTES || bytes > MAX_BYTES) {
      throw new IllegalArgumentException(
          "payload size must be " + MIN_BYTES + " to " + MAX_BYTES + " bytes, got " + bytes);
    }
    byte[] run = new byte[4];
    ThreadLocalRandom.current().nextBytes(run);
    this.prefix = "{\"run\":\"" + HexFormat.of().formatHex(run) + "\",\"sentMicros\":";
    this.prefixBytes = ByteString.copyFromUtf8(prefix);
    int fixed = prefix.length() + NUMBER_WIDTH + MIDDLE.length() + SUFFIX.length();
    this.pad = "x".repeat(Math.max(0, bytes - fixed));
    this.untimed = stamped(0);
  }

  /** One payload with {@code sentMicros} 0, shared by every job of a throughput scenario. */
  ByteString untimed() {
    return untimed;
  }

  /** A payload that carries {@code sentMicros}. */
  ByteString stamped(long sentMicros) {
    return ByteString.copyFrom(prefix + sentMicros + MIDDLE + pad + SUFFIX, StandardCharsets.UTF_8);
  }

  /**
   * The {@code sentMicros} of a payload this instance made; empty for anything else, such as a job
   * another run or another producer put in the queue.
   */
  OptionalLong sentMicros(ByteString payload) {
    int start = prefixBytes.size();
    if (payload.size() <= start || !payload.startsWith(prefixBytes)) {
      return OptionalLong.empty();
    }
    int end = start;
    int limit = Math.min(payload.size(), start + NUMBER_WIDTH + 1);
    while (end < limit && payload.byteAt(end) != ',') {
      end++;
    }
    try {
      return OptionalLong.of(
          Long.parseLong(payload.substring(start, end).toString(StandardCharsets.US_ASCII)));
    } catch (NumberFormatException notOurs) {
      return OptionalLong.empty();
    }
  }
}
