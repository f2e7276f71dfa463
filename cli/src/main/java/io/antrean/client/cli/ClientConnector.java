package io.antrean.client.cli;

import io.antrean.channel.ChannelSecurity;
import io.antrean.client.AntreanClient;
import io.antrean.client.GrpcAntreanClient;
import java.time.Duration;

/**
 * Opens the client a command talks through. The CLI's own connector dials the coordinator; tests
 * hand in one that borrows an in-process channel.
 */
@FunctionalInterface
interface ClientConnector {
  /** Dials {@code target} over gRPC; the returned client owns its channel. */
  ClientConnector GRPC =
      new ClientConnector() {
        @Override
        public AntreanClient connect(String target, Duration timeout) {
          return connect(target, timeout, ChannelSecurity.none());
        }

        @Override
        public AntreanClient connect(String target, Duration timeout, ChannelSecurity security) {
          return GrpcAntreanClient.forTarget(target).timeout(timeout).security(security).build();
        }
      };

  /**
   * Opens a client; the caller closes it.
   *
   * @param target the coordinator: {@code host:port}, a comma-separated list, or {@code
   *     dns:///name:port}
   * @param timeout the deadline of each call
   */
  AntreanClient connect(String target, Duration timeout);

  /**
   * Opens a client that proves itself with {@code security} (TLS, client certificate, token);
   * connectors that dial nothing ignore it.
   */
  default AntreanClient connect(String target, Duration timeout, ChannelSecurity security) {
    return connect(target, timeout);
  }
}
