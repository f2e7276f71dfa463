package io.antrean.client.bench;

import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;

/**
 * Opens the channels the bench talks through. The command's own opener dials the coordinator in
 * plaintext; tests hand in one that opens in-process channels.
 */
@FunctionalInterface
interface ChannelOpener {
  /** Dials {@code target} ({@code host:port} or any gRPC target) without TLS. */
  ChannelOpener PLAINTEXT =
      target ->
          Grpc.newChannelBuilder(target, InsecureChannelCredentials.create())
              .userAgent("antrean-bench")
              .build();

  /** A new channel to {@code target}; the caller shuts it down. */
  ManagedChannel open(String target);
}
