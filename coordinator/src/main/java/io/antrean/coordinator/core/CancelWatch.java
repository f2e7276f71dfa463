package io.antrean.coordinator.core;

import io.antrean.coordinator.store.HeartbeatResult;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Heartbeats held open per worker, so that a cancel reaches the worker at once instead of at its
 * next heartbeat. A held heartbeat completes with {@code true} when one of its worker's jobs is
 * asked to cancel (the worker then heartbeats again and learns which), and with {@code false} when
 * its wait runs out or the coordinator stops. Costs nothing per job: one held call per worker.
 * Thread-safe.
 */
final class CancelWatch {
  private final ScheduledExecutorService timeouts;
  private final Map<String, Set<CompletableFuture<Boolean>>> byWorker = new ConcurrentHashMap<>();

  CancelWatch(ScheduledExecutorService timeouts) {
    this.timeouts = timeouts;
  }

  /**
   * Renews the leases with {@code heartbeat}, then, if every one was extended, holds the answer for
   * up to {@code wait}. The hold starts before the leases are read, so a cancel committed after
   * that read still wakes it. Cancelling the returned future (the call went away) forgets the hold.
   *
   * @throws RuntimeException whatever {@code heartbeat} throws, at once
   */
  CompletableFuture<HeldHeartbeat> hold(
      String workerId, Duration wait, Supplier<List<HeartbeatResult>> heartbeat) {
    CompletableFuture<Boolean> woken = register(workerId, wait);
    List<HeartbeatResult> results;
    try {
      results = heartbeat.get();
    } catch (RuntimeException e) {
      woken.cancel(false);
      throw e;
    }
    if (results.stream().anyMatch(r -> r.status() != HeartbeatResult.Status.EXTENDED)) {
      woken.cancel(false);
      return CompletableFuture.completedFuture(new HeldHeartbeat(results, false));
    }
    CompletableFuture<HeldHeartbeat> answer = woken.thenApply(w -> new HeldHeartbeat(results, w));
    answer.whenComplete(
        (value, error) -> {
          if (answer.isCancelled()) {
            woken.cancel(false);
          }
        });
    return answer;
  }

  /** Holds a heartbeat: completes with true if woken by a cancel, false when the wait ran out. */
  private CompletableFuture<Boolean> register(String workerId, Duration wait) {
    CompletableFuture<Boolean> woken = new CompletableFuture<>();
    byWorker.computeIfAbsent(workerId, w -> ConcurrentHashMap.newKeySet()).add(woken);
    ScheduledFuture<?> timeout =
        timeouts.schedule(() -> woken.complete(false), wait.toNanos(), TimeUnit.NANOSECONDS);
    woken.whenComplete(
        (value, error) -> {
          timeout.cancel(false);
          byWorker.computeIfPresent(
              workerId,
              (w, held) -> {
                held.remove(woken);
                return held.isEmpty() ? null : held;
              });
        });
    return woken;
  }

  /** A job of this worker was asked to cancel: answers its held heartbeats now. */
  void cancelRequested(String workerId) {
    Set<CompletableFuture<Boolean>> held = byWorker.get(workerId);
    if (held != null) {
      held.forEach(f -> f.complete(true));
    }
  }

  /** Answers every held heartbeat now (the coordinator stops). */
  void releaseAll() {
    byWorker.values().forEach(held -> held.forEach(f -> f.complete(false)));
  }

  /** Heartbeats held now. */
  int held() {
    return byWorker.values().stream().mapToInt(Set::size).sum();
  }
}
