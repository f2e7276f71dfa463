package io.antrean.coordinator.core;

import io.antrean.coordinator.store.JobStore;
import io.antrean.coordinator.store.QueueCounts;
import io.antrean.coordinator.store.QueueLimits;
import io.antrean.coordinator.store.RateLimit;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import javax.annotation.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Pausing and resuming queues, and listing queues with their pause state and counts. A paused queue
 * accepts jobs but leases none (the store enforces it); resuming wakes the Lease calls waiting on
 * the queue. Thread-safe.
 */
public final class QueueControl {
  private static final Logger log = LoggerFactory.getLogger(QueueControl.class);

  private final JobScheduler scheduler;
  private final JobStore store;

  public QueueControl(JobScheduler scheduler) {
    this.scheduler = scheduler;
    this.store = scheduler.store();
  }

  /**
   * A queue as operators see it. {@code pausedAt} is null while the queue is not paused; {@code
   * limits} is {@link QueueLimits#NONE} when it has none.
   */
  public record QueueStatus(
      String name, @Nullable Instant pausedAt, QueueReport report, QueueLimits limits) {
    public boolean paused() {
      return pausedAt != null;
    }
  }

  /** Every queue that has jobs, is paused or has limits, ordered by name. */
  public List<QueueStatus> list() {
    SortedMap<String, Instant> paused = store.pausedQueues();
    SortedMap<String, QueueLimits> limits = store.queueLimits();
    SortedMap<String, QueueReport> reports = new TreeMap<>();
    for (QueueReport r : scheduler.queueReports().all(null)) {
      reports.put(r.counts().queue(), r);
    }
    for (String queue : paused.keySet()) {
      reports.computeIfAbsent(queue, QueueControl::empty);
    }
    for (String queue : limits.keySet()) {
      reports.computeIfAbsent(queue, QueueControl::empty);
    }
    List<QueueStatus> list = new ArrayList<>(reports.size());
    for (Map.Entry<String, QueueReport> e : reports.entrySet()) {
      list.add(
          new QueueStatus(
              e.getKey(),
              paused.get(e.getKey()),
              e.getValue(),
              limits.getOrDefault(e.getKey(), QueueLimits.NONE)));
    }
    return list;
  }

  /**
   * Pauses the queue (idempotent: a paused queue keeps its first pause time).
   *
   * @throws ValidationException for an empty or bad queue name
   */
  public QueueStatus pause(String queue) {
    check(queue);
    store.setQueuePaused(queue, true, scheduler.clock().instant());
    log.info("queue {} paused", queue);
    return status(queue);
  }

  /**
   * Resumes the queue (idempotent) and wakes the Lease calls waiting on it.
   *
   * @throws ValidationException for an empty or bad queue name
   */
  public QueueStatus resume(String queue) {
    check(queue);
    store.setQueuePaused(queue, false, scheduler.clock().instant());
    log.info("queue {} resumed", queue);
    scheduler.longPoll().jobsReady(queue);
    return status(queue);
  }

  /**
   * Sets the queue's concurrency and rate limits (0 or a left-out rate for "no such limit"; none at
   * all removes them), refills its rate buckets, and wakes the Lease calls waiting on it, since a
   * raised limit may free jobs.
   *
   * @throws ValidationException for an empty or bad queue name, a negative count, or a rate whose
   *     starts are below 1 or whose interval is not from 1 microsecond to 1 day
   */
  public QueueStatus setLimits(QueueLimitsCommand c) {
    String queue = c.queue();
    Violations violations =
        new Violations()
            .required(queue, "queue")
            .problem(queue.isEmpty() ? null : Names.queueProblem(queue), "queue")
            .problem(c.maxRunning() < 0 ? "must be 0 (no limit) or more" : null, "max_running")
            .problem(
                c.maxRunningPerKey() < 0 ? "must be 0 (no limit) or more" : null,
                "max_running_per_key");
    checkRate(violations, c.rateStarts(), c.rateInterval(), "rate");
    checkRate(violations, c.ratePerKeyStarts(), c.ratePerKeyInterval(), "rate_per_key");
    violations.throwIfAny();
    QueueLimits limits =
        new QueueLimits(
            c.maxRunning() == 0 ? null : c.maxRunning(),
            c.maxRunningPerKey() == 0 ? null : c.maxRunningPerKey(),
            rate(c.rateStarts(), c.rateInterval()),
            rate(c.ratePerKeyStarts(), c.ratePerKeyInterval()));
    store.setQueueLimits(queue, limits);
    log.info("queue {} limits set: {}", queue, limits);
    scheduler.longPoll().jobsReady(queue);
    return status(queue);
  }

  private static void checkRate(
      Violations violations, @Nullable Integer starts, @Nullable Duration interval, String field) {
    if (starts == null && interval == null) {
      return;
    }
    violations
        .problem(starts == null || starts < 1 ? "must be at least 1" : null, field + ".starts")
        .problem(
            interval == null
                    || interval.compareTo(Duration.ofNanos(1_000)) < 0
                    || interval.compareTo(RateLimit.MAX_INTERVAL) > 0
                ? "must be from 1 microsecond to 1 day"
                : null,
            field + ".interval");
  }

  @Nullable
  private static RateLimit rate(@Nullable Integer starts, @Nullable Duration interval) {
    return starts == null ? null : new RateLimit(starts, interval);
  }

  private QueueStatus status(String queue) {
    List<QueueReport> reports = scheduler.queueReports().all(queue);
    QueueReport report = reports.isEmpty() ? empty(queue) : reports.get(0);
    return new QueueStatus(
        queue,
        store.pausedQueues().get(queue),
        report,
        store.queueLimits().getOrDefault(queue, QueueLimits.NONE));
  }

  private static QueueReport empty(String queue) {
    return new QueueReport(new QueueCounts(queue, 0, 0, 0, 0, 0, 0, Duration.ZERO), 0);
  }

  private static void check(String queue) {
    new Violations()
        .required(queue, "queue")
        .problem(queue.isEmpty() ? null : Names.queueProblem(queue), "queue")
        .throwIfAny();
  }
}
