package io.antrean.coordinator.core;

import io.antrean.coordinator.store.DeadLetterGroup;
import io.antrean.coordinator.store.JobStore;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.annotation.Nullable;

/**
 * The counts per queue that GetStats and the queue listing report, as of the clock's now.
 * Thread-safe.
 */
public final class QueueReports {
  private final JobStore store;
  private final Clock clock;
  private final Duration deadLetterWindow;

  QueueReports(JobStore store, Clock clock, Duration deadLetterWindow) {
    this.store = store;
    this.clock = clock;
    this.deadLetterWindow = deadLetterWindow;
  }

  /**
   * Every count of {@code queue}, or of every queue that holds jobs when it is null, with each
   * queue's dead-letter growth over {@link #deadLetterWindow}.
   */
  public List<QueueReport> all(@Nullable String queue) {
    Instant now = clock.instant();
    Map<String, Long> recent = new HashMap<>();
    for (DeadLetterGroup g : store.deadLetteredSince(now.minus(deadLetterWindow))) {
      recent.merge(g.queue(), g.count(), Long::sum);
    }
    return store.stats(queue, now).stream()
        .map(c -> new QueueReport(c, recent.getOrDefault(c.queue(), 0L)))
        .toList();
  }

  /**
   * The counts of the jobs not yet finished alone ({@link JobStore#unfinishedStats}), without
   * dead-letter growth.
   */
  public List<QueueReport> unfinished(@Nullable String queue) {
    return store.unfinishedStats(queue, clock.instant()).stream()
        .map(c -> new QueueReport(c, 0))
        .toList();
  }

  /** The window dead-letter growth is reported over. */
  public Duration deadLetterWindow() {
    return deadLetterWindow;
  }
}
