package io.antrean.coordinator.security;

import java.net.InetAddress;
import java.net.UnknownHostException;
import javax.annotation.Nullable;

/**
 * Secure by default: a coordinator bound only to loopback may run open (a dev mode); bound to any
 * other address it needs TLS and authentication, or an explicit {@code --insecure}.
 */
public final class ExposureCheck {
  private ExposureCheck() {}

  /** What the coordinator runs with, and what the check decided. */
  public enum Verdict {
    /** TLS and authentication are on. */
    SECURE,
    /** Loopback only, without TLS or authentication: the dev mode. */
    LOOPBACK_DEV_MODE,
    /** Exposed without TLS or authentication, as {@code --insecure} asked. */
    EXPOSED_INSECURE
  }

  /**
   * @param hosts every address the coordinator binds (gRPC and HTTP)
   * @throws IllegalStateException with the reason and the way out, when a non-loopback address
   *     would be served without TLS or authentication and {@code insecure} is false
   */
  public static Verdict check(boolean tls, boolean auth, boolean insecure, String... hosts) {
    if (tls && auth) {
      return Verdict.SECURE;
    }
    String exposed = null;
    for (String host : hosts) {
      if (host != null && !isLoopback(host)) {
        exposed = host;
      }
    }
    if (exposed == null) {
      return Verdict.LOOPBACK_DEV_MODE;
    }
    if (insecure) {
      return Verdict.EXPOSED_INSECURE;
    }
    throw new IllegalStateException(
        "refusing to listen on "
            + exposed
            + " without "
            + (tls ? "" : "TLS (--tls-cert, --tls-key)")
            + (!tls && !auth ? " and " : "")
            + (auth ? "" : "authentication (--token-file)")
            + ": anyone who reaches the port could run, read and delete jobs. Give them, bind to"
            + " 127.0.0.1, or pass --insecure to accept the risk.");
  }

  /** True for loopback addresses and names that resolve only to loopback. */
  static boolean isLoopback(@Nullable String host) {
    if (host == null) {
      return false;
    }
    String h =
        host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
    if (h.equalsIgnoreCase("localhost")) {
      return true;
    }
    try {
      InetAddress[] all = InetAddress.getAllByName(h);
      for (InetAddress a : all) {
        if (!a.isLoopbackAddress()) {
          return false;
        }
      }
      return all.length > 0;
    } catch (UnknownHostException e) {
      return false;
    }
  }
}
