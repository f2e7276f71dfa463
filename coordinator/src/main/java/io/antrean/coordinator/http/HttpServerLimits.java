package io.antrean.coordinator.http;

import java.time.Duration;

/**
 * The HTTP server's connection limit and timeouts; docs/limits.md describes each with its flag.
 *
 * @param requestTimeout the time a client has to send its whole request body, counted from the
 *     request's first byte; past it the call is answered 408 {@code REQUEST_TIMEOUT} and the
 *     connection closed
 * @param responseTimeout the time a client has to take an answer once it is written; past it the
 *     connection is aborted
 * @param idleTimeout how long a connection may go without a byte moving either way (between
 *     requests, or a client that stops sending its headers or stops reading); past it the
 *     connection is closed
 * @param maxConnections open connections at most; past it the server accepts no new connection
 *     until one closes (new ones wait in the operating system's accept queue)
 */
public record HttpServerLimits(
    Duration requestTimeout, Duration responseTimeout, Duration idleTimeout, int maxConnections) {

  /** 10 s to send a request, 30 s to take the answer, 30 s idle, 256 connections. */
  public static final HttpServerLimits DEFAULTS =
      new HttpServerLimits(
          Duration.ofSeconds(10), Duration.ofSeconds(30), Duration.ofSeconds(30), 256);

  /**
   * @throws IllegalArgumentException when a timeout is under a millisecond or {@code
   *     maxConnections} is under 1
   */
  public HttpServerLimits {
    for (Duration d : new Duration[] {requestTimeout, responseTimeout, idleTimeout}) {
      if (d.toMillis() < 1) {
        throw new IllegalArgumentException("HTTP timeouts must be at least 1 ms, got " + d);
      }
    }
    if (maxConnections < 1) {
      throw new IllegalArgumentException(
          "maxConnections must be at least 1, got " + maxConnections);
    }
  }
}
