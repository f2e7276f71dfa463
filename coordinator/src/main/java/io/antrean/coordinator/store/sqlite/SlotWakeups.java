package io.antrean.coordinator.store.sqlite;

import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.store.CompletionOutcome;
import io.antrean.coordinator.store.QueueLimits;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells the coordinator's waiting Lease calls when a job that ran in a queue with limits stopped
 * running, since that frees a slot for a held-back job, and when jobs became PENDING because their
 * last dependency succeeded. The store is the only writer, so its set of limited queues is exact; a
 * queue without limits is never reported. Thread-safe.
 */
final class SlotWakeups {
  private static final Logger log = LoggerFactory.getLogger(SlotWakeups.class);

  private final List<Consumer<String>> listeners = new CopyOnWriteArrayList<>();
  private volatile Set<String> limited = Set.of();

  /** The limits as stored at open. */
  void load(Map<String, QueueLimits> limits) {
    limited = Set.copyOf(limits.keySet());
  }

  /** A limit change the writer has committed. */
  synchronized void limitsSet(String queue, QueueLimits limits) {
    Set<String> next = new HashSet<>(limited);
    if (limits.limited()) {
      next.add(queue);
    } else {
      next.remove(queue);
    }
    limited = Set.copyOf(next);
  }

  void subscribe(Consumer<String> listener) {
    listeners.add(listener);
  }

  /** Jobs of the queue became PENDING because their last dependency succeeded. */
  void dependentsReady(String queue) {
    notify(queue);
  }

  /** The job stopped running; returns it, for chaining. */
  Job freed(Job job) {
    slotsFreed(List.of(job.queue()));
    return job;
  }

  /** {@link #slotsFreed} for the jobs these outcomes finished; returns the outcomes. */
  List<CompletionOutcome> freedAll(List<CompletionOutcome> outcomes) {
    slotsFreed(CompletionOutcome.queuesOf(outcomes));
    return outcomes;
  }

  /** Jobs of these queues stopped running, one entry per job. */
  void slotsFreed(List<String> queues) {
    Set<String> limitedNow = limited;
    if (limitedNow.isEmpty()) {
      return;
    }
    Set<String> freed = new TreeSet<>();
    for (String queue : queues) {
      if (limitedNow.contains(queue)) {
        freed.add(queue);
      }
    }
    freed.forEach(this::notify);
  }

  private void notify(String queue) {
    for (Consumer<String> listener : listeners) {
      try {
        listener.accept(queue);
      } catch (RuntimeException e) {
        log.warn("jobs-ready listener failed for queue {}", queue, e);
      }
    }
  }
}
