/**
 * The channel from clients and workers to a set of coordinators: {@link
 * io.antrean.channel.CoordinatorChannels} reads {@code HOST:PORT}, comma-separated lists and {@code
 * dns:///} targets and opens a round-robin, health-checked channel that retries on {@code
 * UNAVAILABLE}.
 */
package io.antrean.channel;
