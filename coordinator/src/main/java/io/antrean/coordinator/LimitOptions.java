package io.antrean.coordinator;

import io.antrean.coordinator.core.InFlightLimits;
import io.antrean.coordinator.http.HttpServerLimits;
import io.antrean.coordinator.store.sqlite.SqliteOptions;
import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

/**
 * The coordinator's overload limits as command-line options (a picocli mixin of {@link
 * CoordinatorMain}); every one is described in docs/limits.md. An option left out keeps the
 * built-in default.
 */
final class LimitOptions {
  /** gRPC's own default: 4 MiB. */
  static final int DEFAULT_GRPC_MAX_MESSAGE_BYTES = 4 << 20;

  /**
   * Bounds what one connection can make the server buffer: requests that arrived wait in memory
   * (off the heap, in the transport's buffers) until a call thread reads them.
   */
  static final int DEFAULT_CALLS_PER_CONNECTION = 256;

  @Option(
      names = "--max-in-flight-bytes",
      converter = ByteSizeConverter.class,
      description =
          "Request bytes held in flight at most (gRPC and HTTP), e.g. 64MiB. Default: an eighth of"
              + " the max heap, between 16MiB and 256MiB")
  Long maxInFlightBytes;

  @Option(
      names = "--max-in-flight-calls",
      description = "Unary calls in flight at most (gRPC and HTTP API). Default: 512")
  Integer maxInFlightCalls;

  @Option(
      names = "--max-long-polls",
      description = "Lease calls open at once at most. Default: 4096")
  Integer maxLongPolls;

  @Option(
      names = "--max-watch-streams",
      description = "WatchJob streams open at once at most. Default: 4096")
  Integer maxWatchStreams;

  @Option(
      names = "--overload-retry-after",
      converter = DurationConverter.class,
      description = "The retry hint sent with RESOURCE_EXHAUSTED and HTTP 429. Default: 1s")
  Duration retryAfter;

  @Option(
      names = "--grpc-max-message-size",
      converter = ByteSizeConverter.class,
      description = "The largest gRPC request message taken, e.g. 4MiB. Default: 4MiB")
  Long grpcMaxMessageBytes;

  @Option(
      names = "--max-calls-per-connection",
      description =
          "gRPC calls open at once on one client connection (HTTP/2 max concurrent streams); a"
              + " client queues more on its side. Default: 256")
  Integer maxCallsPerConnection;

  @Option(
      names = "--max-queued-writes",
      description = "SQLite: writes waiting for the writer thread at most. Default: 10000")
  Integer maxQueuedWrites;

  @Option(
      names = "--http-max-connections",
      description = "HTTP connections open at once at most; more wait to be accepted. Default: 256")
  Integer httpMaxConnections;

  @Option(
      names = "--http-request-timeout",
      converter = DurationConverter.class,
      description =
          "Time an HTTP client has to send its whole request body, from the request's first byte"
              + " (then 408). Default: 10s")
  Duration httpRequestTimeout;

  @Option(
      names = "--http-response-timeout",
      converter = DurationConverter.class,
      description = "Time an HTTP client has to take its answer. Default: 30s")
  Duration httpResponseTimeout;

  @Option(
      names = "--http-idle-timeout",
      converter = DurationConverter.class,
      description =
          "Time an HTTP connection may go without a byte moving (kept-alive, or a client stalled"
              + " in its headers or not reading). Default: 30s")
  Duration httpIdleTimeout;

  /** The in-flight limits: the options given over the defaults for this JVM's heap. */
  InFlightLimits inFlight() {
    InFlightLimits d = InFlightLimits.defaults();
    return new InFlightLimits(
        maxInFlightBytes == null ? d.maxBytes() : maxInFlightBytes,
        maxInFlightCalls == null ? d.maxCalls() : maxInFlightCalls,
        maxLongPolls == null ? d.maxLongPolls() : maxLongPolls,
        maxWatchStreams == null ? d.maxWatchStreams() : maxWatchStreams,
        retryAfter == null ? d.retryAfter() : retryAfter);
  }

  /** gRPC calls open at once on one connection. */
  int maxCallsPerConnection() {
    int value =
        maxCallsPerConnection == null ? DEFAULT_CALLS_PER_CONNECTION : maxCallsPerConnection;
    if (value < 1) {
      throw new IllegalArgumentException("--max-calls-per-connection must be at least 1");
    }
    return value;
  }

  /** The largest gRPC request message, in bytes. */
  int grpcMaxMessageBytes() {
    if (grpcMaxMessageBytes == null) {
      return DEFAULT_GRPC_MAX_MESSAGE_BYTES;
    }
    if (grpcMaxMessageBytes < 1 || grpcMaxMessageBytes > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(
          "--grpc-max-message-size must be between 1 and 2147483647 bytes");
    }
    return grpcMaxMessageBytes.intValue();
  }

  /** SQLite's options with the write queue bound given, if any. */
  SqliteOptions sqlite() {
    SqliteOptions d = SqliteOptions.defaults();
    return maxQueuedWrites == null ? d : d.withMaxQueuedWrites(maxQueuedWrites);
  }

  /** The HTTP limits: those given over the defaults. */
  HttpServerLimits http() {
    HttpServerLimits e = HttpServerLimits.DEFAULTS;
    return new HttpServerLimits(
        httpRequestTimeout == null ? e.requestTimeout() : httpRequestTimeout,
        httpResponseTimeout == null ? e.responseTimeout() : httpResponseTimeout,
        httpIdleTimeout == null ? e.idleTimeout() : httpIdleTimeout,
        httpMaxConnections == null ? e.maxConnections() : httpMaxConnections);
  }

  /** A byte count: digits with an optional KiB, MiB or GiB suffix. */
  static final class ByteSizeConverter implements ITypeConverter<Long> {
    private static final Pattern SIZE = Pattern.compile("(\\d{1,15})(kib|mib|gib)?");

    @Override
    public Long convert(String value) {
      Matcher m = SIZE.matcher(value.trim().toLowerCase(Locale.ROOT));
      if (!m.matches()) {
        throw new TypeConversionException(
            "'" + value + "' is not a byte count (digits, optionally followed by KiB, MiB or GiB)");
      }
      long n = Long.parseLong(m.group(1));
      int shift =
          m.group(2) == null
              ? 0
              : switch (m.group(2)) {
                case "kib" -> 10;
                case "mib" -> 20;
                default -> 30;
              };
      if (n > (Long.MAX_VALUE >> shift)) {
        throw new TypeConversionException("'" + value + "' is too large");
      }
      return n << shift;
    }
  }
}
