package io.antrean.coordinator.core;

import io.antrean.coordinator.job.NewJob;
import io.antrean.coordinator.store.EnqueueResult;
import io.antrean.coordinator.store.JobStore;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * Stores new jobs, and on a store that writes in submission order ({@link JobStore#writeTogether})
 * hands them to waiting workers in the same commit: the first waiting Lease call of each queue that
 * gets a job ready now has its lease submitted right behind the jobs, so the job is stored and
 * leased by one commit instead of two in series (the second only once the first was durable and the
 * waiter woken). A job due later, or waiting for others, is left to the usual wake-ups, and so is
 * every other waiter: once the jobs are durable the scheduler still announces them, which serves
 * the rest. A lease here that finds nothing, or fails, leaves its waiter waiting.
 *
 * <p>Thread-safe.
 */
final class WaiterHandoff {
  private final JobStore store;
  private final LongPoll longPoll;

  WaiterHandoff(JobStore store, LongPoll longPoll) {
    this.store = store;
    this.longPoll = longPoll;
  }

  /** Submits the jobs (and the waiters' leases); the future is the jobs' own. */
  CompletableFuture<List<EnqueueResult>> store(List<NewJob> jobs, Instant now) {
    Map<String, String> readyTypeByQueue = new LinkedHashMap<>();
    if (store.asyncWrites().inSubmissionOrder()) {
      for (NewJob job : jobs) {
        if (!job.runAt().isAfter(now) && !job.dependsOn().any()) {
          readyTypeByQueue.putIfAbsent(job.queue(), job.type());
        }
      }
    }
    if (readyTypeByQueue.isEmpty()) {
      return store.enqueueAsync(jobs, now);
    }
    return store.writeTogether(
        () -> {
          CompletableFuture<List<EnqueueResult>> stored = store.enqueueAsync(jobs, now);
          readyTypeByQueue.forEach(longPoll::serveFirst);
          return stored;
        });
  }
}
