/**
 * {@code antrean bench}: load generators that measure a running coordinator (enqueue throughput and
 * latency, end-to-end throughput with worker processes it starts, enqueue-to-handler-start latency
 * at a steady rate, Lease latency with a backlog), built on the client and worker libraries. Only
 * {@link io.antrean.bench.BenchMain} is meant to be used from outside; the rest is machinery that
 * may change without notice.
 */
package io.antrean.bench;
