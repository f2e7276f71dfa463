package io.antrean.coordinator.core;

import io.antrean.coordinator.job.NewJob;
import io.antrean.coordinator.store.EnqueueResult;
import io.antrean.coordinator.store.JobStore;
import java.time.Instant;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * Stores new jobs, and on a store that commits writes together ({@link JobStore#writeTogether})
 * hands them to waiting workers in the same commit: the first waiting Lease call of each queue that
 * gets a job ready now has its lease submitted right behind the jobs, so the job is stored and
 * leased by one commit instead of two in series (the second only once the first was durable and the
 * waiter woken). A job due later, or waiting for others, is left to the usual wake-ups, and so is
 * every other waiter: once the jobs are durable the scheduler still announces them, which serves
 * the rest, unless the waiter's lease took every job of the queue's new ready types that was ready
 * (then a lease for another waiter would find nothing). A lease here that finds nothing, or fails,
 * leaves its waiter waiting. Jobs for queues nobody waits on are stored as they would be without a
 * handoff; a Lease call that starts waiting meanwhile looks once more after it registered.
 *
 * <p>Thread-safe.
 */
final class WaiterHandoff {
  /** Jobs stored, and the queues whose new ready jobs a waiter's lease here took every one of. */
  record Stored(List<EnqueueResult> results, Set<String> queuesHandedOff) {}

  private final JobStore store;
  private final LongPoll longPoll;

  WaiterHandoff(JobStore store, LongPoll longPoll) {
    this.store = store;
    this.longPoll = longPoll;
  }

  /**
   * Submits the jobs (and the waiters' leases); the future completes once the jobs are durable (and
   * the leases submitted with them have answered, in the same commit).
   */
  CompletableFuture<Stored> store(List<NewJob> jobs, Instant now) {
    Map<String, Set<String>> readyTypesByQueue = new LinkedHashMap<>();
    if (store.commitsTogether()) {
      for (NewJob job : jobs) {
        if (!job.runAt().isAfter(now)
            && !job.dependsOn().any()
            && longPoll.hasWaiters(job.queue())) {
          readyTypesByQueue
              .computeIfAbsent(job.queue(), q -> new LinkedHashSet<>())
              .add(job.type());
        }
      }
    }
    if (readyTypesByQueue.isEmpty()) {
      return store.enqueueAsync(jobs, now).thenApply(results -> new Stored(results, Set.of()));
    }
    Map<String, CompletableFuture<Boolean>> handedOff = new LinkedHashMap<>();
    CompletableFuture<List<EnqueueResult>> stored =
        store.writeTogether(
            () -> {
              CompletableFuture<List<EnqueueResult>> enqueued = store.enqueueAsync(jobs, now);
              readyTypesByQueue.forEach(
                  (queue, types) -> handedOff.put(queue, longPoll.serveFirst(queue, types)));
              return enqueued;
            });
    CompletableFuture<?> leasesAnswered =
        CompletableFuture.allOf(handedOff.values().toArray(CompletableFuture[]::new));
    return stored.thenCombine(
        leasesAnswered,
        (results, ignored) -> {
          Set<String> queues = new HashSet<>();
          handedOff.forEach(
              (queue, all) -> {
                if (all.join()) {
                  queues.add(queue);
                }
              });
          return new Stored(results, queues);
        });
  }
}
