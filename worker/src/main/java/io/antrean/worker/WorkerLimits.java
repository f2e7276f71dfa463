package io.antrean.worker;

import io.antrean.proto.WorkerCallLimits;
import java.time.Duration;
import javax.annotation.Nullable;

/**
 * The ranges of a worker's settings, and the defaults that follow from others, checked when {@link
 * WorkerBuilder#build()} runs. Several are the coordinator's own limits, which a worker that went
 * past them would meet as refused calls or as leases cut short.
 */
final class WorkerLimits {
  /** The longest long-poll a coordinator holds a Lease for. */
  static final Duration MAX_POLL_WAIT = Duration.ofSeconds(60);

  /**
   * The longest lease a coordinator grants; it cuts a longer ask to this. A worker that counted on
   * more would heartbeat too late, and keep running a job another worker had taken over.
   */
  static final Duration MAX_LEASE_TTL = Duration.ofMinutes(10);

  static final int MAX_CONCURRENCY = 1024;

  /**
   * The longest host name the default worker id keeps, leaving room for its pid and random part.
   */
  static final int MAX_DEFAULT_ID_HOST_CHARS = 200;

  private WorkerLimits() {}

  /**
   * @return {@code asked}
   * @throws IllegalStateException for an id past {@link WorkerCallLimits#MAX_WORKER_ID_CHARS}
   */
  static String workerId(String asked) {
    check(
        asked.length() <= WorkerCallLimits.MAX_WORKER_ID_CHARS,
        "workerId must be at most "
            + WorkerCallLimits.MAX_WORKER_ID_CHARS
            + " characters, what a coordinator takes: "
            + asked.length());
    return asked;
  }

  /**
   * The most jobs leased ahead: {@code asked}, or by default as many as the handler threads while
   * the two stay within {@link WorkerCallLimits#MAX_HEARTBEAT_LEASES}: a coordinator refuses a
   * Heartbeat with more, and the leases it left out would expire under running jobs.
   *
   * @throws IllegalStateException for a concurrency or prefetch out of range
   */
  static int prefetch(int concurrency, @Nullable Integer asked) {
    check(
        concurrency >= 1 && concurrency <= MAX_CONCURRENCY,
        "concurrency must be 1 to 1024: " + concurrency);
    int ahead =
        asked != null
            ? asked
            : Math.max(
                0, Math.min(concurrency, WorkerCallLimits.MAX_HEARTBEAT_LEASES - concurrency));
    check(ahead >= 0 && ahead <= MAX_CONCURRENCY, "prefetch must be 0 to 1024: " + ahead);
    check(
        concurrency + ahead <= WorkerCallLimits.MAX_HEARTBEAT_LEASES,
        "concurrency + prefetch must be at most "
            + WorkerCallLimits.MAX_HEARTBEAT_LEASES
            + ", the leases one heartbeat carries: "
            + concurrency
            + " + "
            + ahead);
    return ahead;
  }

  /**
   * The heartbeat interval: {@code asked}, or by default a third of the lease.
   *
   * @throws IllegalStateException for a lease or interval out of range
   */
  static Duration heartbeatInterval(Duration leaseTtl, @Nullable Duration asked) {
    check(isPositive(leaseTtl), "leaseTtl must be positive: " + leaseTtl);
    check(
        leaseTtl.compareTo(MAX_LEASE_TTL) <= 0,
        "leaseTtl must be at most 10 min, the longest lease a coordinator grants (heartbeats keep"
            + " a longer job's lease): "
            + leaseTtl);
    Duration interval = asked != null ? asked : leaseTtl.dividedBy(3);
    check(isPositive(interval), "heartbeatInterval must be positive: " + interval);
    check(
        interval.compareTo(leaseTtl) < 0,
        "heartbeatInterval " + interval + " must be below leaseTtl " + leaseTtl);
    return interval;
  }

  /**
   * @throws IllegalStateException for a poll wait, grace, timeout or backoff out of range
   */
  static void checkTimes(
      Duration pollWait,
      Duration shutdownGrace,
      Duration rpcTimeout,
      Duration pollBackoffInitial,
      Duration pollBackoffMax) {
    check(
        !pollWait.isNegative() && pollWait.compareTo(MAX_POLL_WAIT) <= 0,
        "pollWait must be 0 to 60 s: " + pollWait);
    check(!shutdownGrace.isNegative(), "shutdownGrace must not be negative: " + shutdownGrace);
    check(isPositive(rpcTimeout), "rpcTimeout must be positive: " + rpcTimeout);
    check(
        isPositive(pollBackoffInitial),
        "pollBackoff initial must be positive: " + pollBackoffInitial);
    check(
        pollBackoffMax.compareTo(pollBackoffInitial) >= 0,
        "pollBackoff max " + pollBackoffMax + " is below initial " + pollBackoffInitial);
  }

  private static boolean isPositive(Duration duration) {
    return !duration.isNegative() && !duration.isZero();
  }

  private static void check(boolean condition, String message) {
    if (!condition) {
      throw new IllegalStateException(message);
    }
  }
}
