package io.antrean.worker.internal;

import io.antrean.worker.ErrorClassifier;
import io.antrean.worker.JobHandler;
import io.antrean.worker.Ticker;
import io.opentelemetry.api.OpenTelemetry;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;

/**
 * Everything a {@link WorkerRuntime} needs to know, already validated by {@link
 * io.antrean.worker.WorkerBuilder}. Internal: not part of the public API and may change at any
 * time. Immutable.
 *
 * @param workerId who holds the leases
 * @param queue the queue to lease from
 * @param concurrency handler threads
 * @param prefetch the most jobs leased beyond the handler threads ({@link Prefetch})
 * @param handlers handler per job type, an immutable map; the keys are sent as Lease's {@code
 *     types}
 * @param leaseTtl how long a lease lasts without a heartbeat
 * @param heartbeatInterval time between heartbeats, below {@code leaseTtl}
 * @param pollWait the long-poll wait sent with each Lease
 * @param shutdownGrace how long {@code shutdown()} lets running jobs finish
 * @param rpcTimeout the deadline of each Complete, CompleteBatch, Fail and Release call
 * @param pollBackoffInitial the poll loop's first delay after an error
 * @param pollBackoffMax the poll loop's longest delay after errors
 * @param classifier decides how a handler's failure is reported
 * @param clock wall clock, for {@code JobContext.leaseDeadline()}
 * @param ticker monotonic clock, for lease deadlines and heartbeat timing
 * @param openTelemetry where handler spans of traced jobs go
 */
public record WorkerSettings(
    String workerId,
    String queue,
    int concurrency,
    int prefetch,
    Map<String, JobHandler> handlers,
    Duration leaseTtl,
    Duration heartbeatInterval,
    Duration pollWait,
    Duration shutdownGrace,
    Duration rpcTimeout,
    Duration pollBackoffInitial,
    Duration pollBackoffMax,
    ErrorClassifier classifier,
    Clock clock,
    Ticker ticker,
    OpenTelemetry openTelemetry) {}
