package io.antrean.coordinator.core;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import io.antrean.coordinator.job.Job;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Comparator;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches dead-lettering as a leading indicator: when more than the threshold of jobs are
 * dead-lettered within the window, it logs ONE warning naming the queues, types and top error
 * messages, and stays quiet until the rate falls back under the threshold. A spike usually means
 * something upstream changed (a deploy, an expired credential, a changed payload format).
 *
 * <p>Counts what this coordinator dead-lettered; time is a parameter. Thread-safe.
 */
public final class DeadLetterMonitor {
  private static final Logger log = LoggerFactory.getLogger(DeadLetterMonitor.class);
  private static final int MAX_REMEMBERED = 10_000;
  private static final int TOP = 3;

  private final DeadLetterAlert alert;
  private final Object lock = new Object();

  @GuardedBy("lock")
  private final ArrayDeque<Entry> recent = new ArrayDeque<>();

  @GuardedBy("lock")
  private boolean alerting;

  public DeadLetterMonitor(DeadLetterAlert alert) {
    this.alert = alert;
  }

  /** Records a job that just entered the dead-letter queue. */
  public void record(Job job, Instant now) {
    String summary = null;
    synchronized (lock) {
      evictAndRearm(now);
      if (recent.size() == MAX_REMEMBERED) {
        recent.removeFirst();
      }
      recent.addLast(new Entry(now, job.queue(), job.type(), job.lastError()));
      if (!alerting && recent.size() > alert.threshold()) {
        alerting = true;
        summary = summary();
      }
    }
    if (summary != null) {
      log.warn(summary);
    }
  }

  /** Forgets what left the window; re-arms the warning once the rate is back under it. */
  public void runOnce(Instant now) {
    synchronized (lock) {
      evictAndRearm(now);
    }
  }

  /** True while a spike is being reported (between the warning and the re-arm). */
  public boolean alerting() {
    synchronized (lock) {
      return alerting;
    }
  }

  @GuardedBy("lock")
  private void evictAndRearm(Instant now) {
    Instant start = now.minus(alert.window());
    while (!recent.isEmpty() && recent.peekFirst().at().isBefore(start)) {
      recent.removeFirst();
    }
    if (alerting && recent.size() <= alert.threshold()) {
      alerting = false;
    }
  }

  @GuardedBy("lock")
  private String summary() {
    return "dead-letter spike: "
        + recent.size()
        + " jobs dead-lettered within "
        + alert.window()
        + " (threshold "
        + alert.threshold()
        + "); queues "
        + top(Entry::queue)
        + "; types "
        + top(Entry::type)
        + "; top errors "
        + top(e -> e.error() == null ? "(no message)" : e.error());
  }

  @GuardedBy("lock")
  private String top(Function<Entry, String> key) {
    Map<String, Long> counts =
        recent.stream().collect(Collectors.groupingBy(key, TreeMap::new, Collectors.counting()));
    return counts.entrySet().stream()
        .sorted(Map.Entry.<String, Long>comparingByValue(Comparator.reverseOrder()))
        .limit(TOP)
        .map(e -> e.getKey() + " x" + e.getValue())
        .collect(Collectors.joining(", ", "[", "]"));
  }

  private record Entry(Instant at, String queue, String type, String error) {}
}
