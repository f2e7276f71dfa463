package io.antrean.coordinator.store.sqlite.young;

import io.antrean.coordinator.job.JobState;
import io.antrean.coordinator.store.sqlite.young.YoungJobs.YoungJob;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Map;
import java.util.NavigableSet;
import java.util.Set;
import java.util.TreeSet;

/**
 * The young jobs by queue: each queue's pending ones in pick order ({@link YoungJobs#PICK_ORDER})
 * and how many it has in each state, kept as jobs come, change and go, so that a lease finds a
 * queue's head and GetStats its counts without a walk through every young job. Not thread-safe.
 */
final class YoungQueues {
  private final Map<String, Queue> queues = new HashMap<>();

  private static final class Queue {
    final NavigableSet<YoungJob> pending = new TreeSet<>(YoungJobs.PICK_ORDER);
    final Map<JobState, Integer> counts = new EnumMap<>(JobState.class);
  }

  /** Counts the job under its queue and state, and keeps it in the queue's head if PENDING. */
  void add(YoungJob job) {
    Queue queue = queues.computeIfAbsent(job.job().queue(), q -> new Queue());
    queue.counts.merge(job.state(), 1, Integer::sum);
    if (job.state() == JobState.PENDING) {
      queue.pending.add(job);
    }
  }

  /** Undoes {@link #add} of this job as it was then; forgets a queue left with no young job. */
  void remove(YoungJob job) {
    String name = job.job().queue();
    Queue queue = queues.get(name);
    if (queue == null) {
      return;
    }
    queue.counts.computeIfPresent(job.state(), (s, n) -> n == 1 ? null : n - 1);
    queue.pending.remove(job);
    if (queue.counts.isEmpty()) {
      queues.remove(name);
    }
  }

  /** Forgets every job. */
  void clear() {
    queues.clear();
  }

  /** The queues that have young jobs. */
  Set<String> names() {
    return Collections.unmodifiableSet(queues.keySet());
  }

  /** How many young jobs the queue has in {@code state}. */
  int count(String queue, JobState state) {
    Queue q = queues.get(queue);
    return q == null ? 0 : q.counts.getOrDefault(state, 0);
  }

  /** The queue's pending young jobs in pick order, without a copy. */
  NavigableSet<YoungJob> pending(String queue) {
    Queue q = queues.get(queue);
    return q == null
        ? Collections.emptyNavigableSet()
        : Collections.unmodifiableNavigableSet(q.pending);
  }
}
