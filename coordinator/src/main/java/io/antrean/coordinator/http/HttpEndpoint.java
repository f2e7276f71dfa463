package io.antrean.coordinator.http;

/**
 * Where the HTTP API listens, and the limits of its server.
 *
 * @param host the address to bind, for example {@code 127.0.0.1} or {@code 0.0.0.0}
 * @param port the port; 0 picks a free one
 */
public record HttpEndpoint(String host, int port, HttpServerLimits limits) {
  public HttpEndpoint {
    if (port < 0 || port > 65_535) {
      throw new IllegalArgumentException("HTTP port must be between 0 and 65535, got " + port);
    }
  }

  /** An endpoint with the default limits ({@link HttpServerLimits#DEFAULTS}). */
  public HttpEndpoint(String host, int port) {
    this(host, port, HttpServerLimits.DEFAULTS);
  }
}
