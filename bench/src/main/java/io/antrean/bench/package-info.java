/**
 * {@code antrean bench}: load generators that measure a running coordinator (enqueue throughput and
 * latency, end-to-end throughput with no-op workers, enqueue-to-lease latency at a steady rate,
 * Lease latency with a backlog). Only {@link io.antrean.client.bench.BenchCommand} is meant to be
 * used from outside; the rest is machinery that may change without notice.
 */
package io.antrean.client.bench;
