package io.antrean.bench;

import io.antrean.channel.CoordinatorChannels;
import io.grpc.ManagedChannel;

/**
 * Opens the channels the bench talks through. The command's own opener dials the coordinators the
 * way every other {@code antrean} command does; tests hand in one that opens in-process channels.
 */
@FunctionalInterface
interface ChannelOpener {
  /**
   * Dials {@code target} without TLS through {@link CoordinatorChannels}: {@code host:port}, a
   * comma-separated list (calls go round-robin over the healthy coordinators, so the bench loads
   * them all) or {@code dns:///name:port}.
   */
  ChannelOpener COORDINATORS =
      target -> CoordinatorChannels.forTargets(target).userAgent("antrean-bench").build();

  /**
   * A new channel to {@code target}; the caller shuts it down.
   *
   * @throws IllegalArgumentException if {@code target} is malformed
   */
  ManagedChannel open(String target);
}
