package io.antrean.coordinator.core;

import io.antrean.coordinator.store.DeadLetterGroup;
import io.antrean.coordinator.store.JobStore;
import io.antrean.coordinator.store.QueueCounts;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.annotation.Nullable;

/**
 * A queue's counts plus how many of its jobs were dead-lettered within the alert window.
 *
 * @param deadLetteredRecently jobs dead-lettered within {@link DeadLetterAlert#window()}
 */
public record QueueReport(QueueCounts counts, long deadLetteredRecently) {

  /** The reports of one queue (or of every queue when {@code queue} is null) at {@code now}. */
  static List<QueueReport> collect(
      JobStore store, @Nullable String queue, Instant now, Duration window) {
    Map<String, Long> recent = new HashMap<>();
    for (DeadLetterGroup g : store.deadLetteredSince(now.minus(window))) {
      recent.merge(g.queue(), g.count(), Long::sum);
    }
    return store.stats(queue, now).stream()
        .map(c -> new QueueReport(c, recent.getOrDefault(c.queue(), 0L)))
        .toList();
  }
}
