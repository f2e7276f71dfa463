package io.antrean.worker.internal;

import io.antrean.proto.v1.WorkerInfo;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Properties;
import java.util.TreeSet;

/**
 * What this worker tells the coordinator about itself on every Lease and Heartbeat, for the
 * operators' list of workers: host, library version, queue, types, concurrency and heartbeat
 * interval. Internal; public only so that the API package can reach {@link #hostname()}.
 */
public final class SelfDescription {
  private static final String VERSION = readVersion();

  private SelfDescription() {}

  static WorkerInfo of(WorkerSettings settings) {
    return WorkerInfo.newBuilder()
        .setHost(hostname())
        .setVersion(VERSION)
        .addQueues(settings.queue())
        .addAllTypes(new TreeSet<>(settings.handlers().keySet()))
        .setConcurrency(settings.concurrency())
        .setHeartbeatInterval(ProtoDurations.of(settings.heartbeatInterval()))
        .build();
  }

  /** The worker library's version, from its build. */
  static String version() {
    return VERSION;
  }

  /**
   * This host's name: {@code $HOSTNAME} when set, else what the resolver says, else {@code
   * unknown-host}.
   *
   * @return never blank
   */
  public static String hostname() {
    String fromEnv = System.getenv("HOSTNAME");
    if (fromEnv != null && !fromEnv.isBlank()) {
      return fromEnv.strip();
    }
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException e) {
      return "unknown-host";
    }
  }

  private static String readVersion() {
    Properties p = new Properties();
    try (InputStream in = SelfDescription.class.getResourceAsStream("version.properties")) {
      if (in == null) {
        return "unknown";
      }
      p.load(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return p.getProperty("version", "unknown");
  }
}
