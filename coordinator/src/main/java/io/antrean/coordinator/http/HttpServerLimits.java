package io.antrean.coordinator.http;

import java.time.Duration;

/**
 * The JDK HTTP server's connection limits and timeouts. The JDK reads them from system properties
 * once, when the first server of the process is created, so they are process-wide: {@link
 * #applyDefaults} sets each property the operator did not set ({@code -D} on the command line wins)
 * and {@link #effective} reads back what the server will use.
 *
 * @param requestTimeout the time a client has to send the request line, headers and the whole body
 *     ({@code sun.net.httpserver.maxReqTime}); past it the connection is closed and its thread
 *     freed
 * @param responseTimeout the time from the end of the request to the end of the answer ({@code
 *     sun.net.httpserver.maxRspTime}), which drops clients that do not read
 * @param idleTimeout how long a kept-alive connection may sit idle ({@code
 *     sun.net.httpserver.idleInterval}); a new connection that sends nothing gets the shorter of
 *     this and the request timeout
 * @param maxConnections open connections at most ({@code jdk.httpserver.maxConnections}); more are
 *     accepted and closed at once
 */
public record HttpServerLimits(
    Duration requestTimeout, Duration responseTimeout, Duration idleTimeout, int maxConnections) {

  static final String REQUEST_TIMEOUT = "sun.net.httpserver.maxReqTime";
  static final String RESPONSE_TIMEOUT = "sun.net.httpserver.maxRspTime";
  static final String IDLE_TIMEOUT = "sun.net.httpserver.idleInterval";
  static final String MAX_CONNECTIONS = "jdk.httpserver.maxConnections";

  /** 10 s to send a request, 30 s to take the answer, 30 s idle, 256 connections. */
  public static final HttpServerLimits DEFAULTS =
      new HttpServerLimits(
          Duration.ofSeconds(10), Duration.ofSeconds(30), Duration.ofSeconds(30), 256);

  public HttpServerLimits {
    for (Duration d : new Duration[] {requestTimeout, responseTimeout, idleTimeout}) {
      if (d.toSeconds() < 1) {
        throw new IllegalArgumentException("HTTP timeouts are whole seconds, at least 1 s: " + d);
      }
    }
    if (maxConnections < 1) {
      throw new IllegalArgumentException(
          "maxConnections must be at least 1, got " + maxConnections);
    }
  }

  /**
   * Sets the properties to these limits (times in whole seconds, rounded down); call before the
   * first HTTP server of the process is created, later calls have no effect on the JDK server.
   */
  public void apply() {
    System.setProperty(REQUEST_TIMEOUT, Long.toString(requestTimeout.toSeconds()));
    System.setProperty(RESPONSE_TIMEOUT, Long.toString(responseTimeout.toSeconds()));
    System.setProperty(IDLE_TIMEOUT, Long.toString(idleTimeout.toSeconds()));
    System.setProperty(MAX_CONNECTIONS, Integer.toString(maxConnections));
  }

  /** Sets each property not set yet to its default; call before creating the first server. */
  static synchronized void applyDefaults() {
    setIfAbsent(REQUEST_TIMEOUT, DEFAULTS.requestTimeout.toSeconds());
    setIfAbsent(RESPONSE_TIMEOUT, DEFAULTS.responseTimeout.toSeconds());
    setIfAbsent(IDLE_TIMEOUT, DEFAULTS.idleTimeout.toSeconds());
    setIfAbsent(MAX_CONNECTIONS, DEFAULTS.maxConnections);
  }

  /**
   * The limits as the properties say now (seconds for the times); a value that is not a positive
   * number counts as the default.
   */
  public static HttpServerLimits effective() {
    return new HttpServerLimits(
        Duration.ofSeconds(positive(REQUEST_TIMEOUT, DEFAULTS.requestTimeout.toSeconds())),
        Duration.ofSeconds(positive(RESPONSE_TIMEOUT, DEFAULTS.responseTimeout.toSeconds())),
        Duration.ofSeconds(positive(IDLE_TIMEOUT, DEFAULTS.idleTimeout.toSeconds())),
        (int) Math.min(Integer.MAX_VALUE, positive(MAX_CONNECTIONS, DEFAULTS.maxConnections)));
  }

  private static void setIfAbsent(String property, long value) {
    if (System.getProperty(property) == null) {
      System.setProperty(property, Long.toString(value));
    }
  }

  private static long positive(String property, long fallback) {
    Long value = Long.getLong(property);
    return value == null || value <= 0 ? fallback : value;
  }
}
