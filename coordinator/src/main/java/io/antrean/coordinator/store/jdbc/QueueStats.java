package io.antrean.coordinator.store.jdbc;

import io.antrean.coordinator.job.JobState;
import io.antrean.coordinator.store.QueueCounts;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import javax.annotation.Nullable;

/**
 * Collects what a store's stats queries count, per queue and state and of the ready PENDING jobs,
 * into the SPI's {@link QueueCounts}. Not thread-safe: one per call.
 */
public final class QueueStats {
  /**
   * The condition on {@code jobs.state} of the jobs not yet finished, those {@link
   * JobState#isTerminal} says are not, that {@link
   * io.antrean.coordinator.store.JobStore#unfinishedStats} counts.
   */
  public static final String UNFINISHED = "state IN ('PENDING', 'RUNNING', 'WAITING')";

  private final Map<String, Map<JobState, Long>> byState = new TreeMap<>();
  private final Map<String, Long> ready = new HashMap<>();
  private final Map<String, Instant> oldestReady = new HashMap<>();

  /**
   * @param queue the one queue asked about, which is answered even when it holds no job; null for
   *     every queue that holds one
   */
  public QueueStats(@Nullable String queue) {
    if (queue != null) {
      byState.put(queue, new EnumMap<>(JobState.class));
    }
  }

  /** The queue holds {@code jobs} jobs in {@code state}. */
  public void count(String queue, JobState state, long jobs) {
    byState.computeIfAbsent(queue, q -> new EnumMap<>(JobState.class)).put(state, jobs);
  }

  /** The queue holds {@code jobs} more jobs in {@code state}, beside those counted already. */
  public void add(String queue, JobState state, long jobs) {
    byState
        .computeIfAbsent(queue, q -> new EnumMap<>(JobState.class))
        .merge(state, jobs, Long::sum);
  }

  /** {@code jobs} more of the queue's PENDING jobs are due; the earliest run time among them. */
  public void addReady(String queue, long jobs, Instant oldestRunAt) {
    ready.merge(queue, jobs, Long::sum);
    oldestReady.merge(queue, oldestRunAt, (a, b) -> a.isBefore(b) ? a : b);
  }

  /** {@code jobs} of the queue's PENDING jobs are due; the earliest {@code run_at} among them. */
  public void ready(String queue, long jobs, Instant oldestRunAt) {
    ready.put(queue, jobs);
    oldestReady.put(queue, oldestRunAt);
  }

  /** The counts of every queue counted (in name order); ages are measured to {@code now}. */
  public List<QueueCounts> counts(Instant now) {
    List<QueueCounts> result = new ArrayList<>(byState.size());
    byState.forEach((queue, states) -> result.add(counts(queue, states, now)));
    return result;
  }

  private QueueCounts counts(String queue, Map<JobState, Long> states, Instant now) {
    long readyCount = ready.getOrDefault(queue, 0L);
    Instant oldest = oldestReady.get(queue);
    Duration oldestAge = oldest == null ? Duration.ZERO : Duration.between(oldest, now);
    return new QueueCounts(
        queue,
        readyCount,
        states.getOrDefault(JobState.PENDING, 0L) - readyCount,
        states.getOrDefault(JobState.RUNNING, 0L),
        states.getOrDefault(JobState.SUCCEEDED, 0L),
        states.getOrDefault(JobState.FAILED, 0L),
        states.getOrDefault(JobState.CANCELLED, 0L),
        oldestAge.isNegative() ? Duration.ZERO : oldestAge,
        states.getOrDefault(JobState.WAITING, 0L));
  }
}
