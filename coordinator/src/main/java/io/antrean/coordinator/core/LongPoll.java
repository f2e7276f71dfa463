package io.antrean.coordinator.core;

import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.store.AnswerBudget;
import java.time.Duration;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import javax.annotation.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Lease calls waiting for work. A waiting call is a future, not a thread. When jobs become ready in
 * a queue ({@link #jobsReady}), the queue's waiters are served in arrival order, one lease at a
 * time (the next one is asked for when the store answered the previous one, on whichever thread
 * that answer arrives), until a lease shows that nothing more is ready for the waiters left (see
 * {@link #servePass}): one job does not cost every waiting worker a lease. Signals that arrive
 * while a queue is being served are coalesced into one more pass. A new waiter is registered first
 * and then served once, so an Enqueue that committed just before is never missed; it skips that
 * look when no job was announced since a lease took every ready job of its types.
 *
 * <p>Thread-safe.
 */
final class LongPoll {
  private static final Logger log = LoggerFactory.getLogger(LongPoll.class);

  /** Leases for a waiter now; the future completes with an empty list when nothing is ready. */
  interface Leaser {
    CompletableFuture<List<Job>> lease(LeasePlan plan);

    /** Hands back jobs leased for a call that went away meanwhile; never blocks. */
    void giveBack(List<Job> jobs);
  }

  private final Leaser leaser;
  private final Executor dispatch;
  private final ScheduledExecutorService timeouts;
  private final Map<String, QueueWaiters> queues = new ConcurrentHashMap<>();

  LongPoll(Leaser leaser, Executor dispatch, ScheduledExecutorService timeouts) {
    this.leaser = leaser;
    this.dispatch = dispatch;
    this.timeouts = timeouts;
  }

  /**
   * Waits up to {@code wait} for jobs. The future completes with the leased jobs, with an empty
   * list after the wait, or exceptionally if the store failed. Cancelling it stops the wait.
   */
  CompletableFuture<List<Job>> await(LeasePlan plan, Duration wait) {
    Waiter waiter = new Waiter(plan);
    QueueWaiters q = queues.computeIfAbsent(plan.queue(), k -> new QueueWaiters());
    q.waiters.add(waiter);
    ScheduledFuture<?> timeout =
        timeouts.schedule(waiter::timeOut, wait.toNanos(), TimeUnit.NANOSECONDS);
    waiter.future.whenComplete(
        (jobs, error) -> {
          q.waiters.remove(waiter);
          timeout.cancel(false);
        });
    // An Enqueue that committed before we registered did not see us: look once more, unless no
    // job was announced since a lease took every ready job of our types (a job committed and not
    // yet announced will be, and its signal finds us registered).
    if (!q.nothingReadyFor(plan.types())) {
      serve(q, waiter);
    }
    return waiter.future;
  }

  /** Signals that jobs may be ready in the queue; cheap and never blocks. */
  void jobsReady(String queue) {
    QueueWaiters q = queues.get(queue);
    if (q == null) {
      return;
    }
    q.announced.incrementAndGet();
    if (q.waiters.isEmpty()) {
      return;
    }
    if (q.signals.getAndIncrement() == 0) {
      dispatchLater(() -> drain(q));
    }
  }

  /**
   * Serves now, on this thread, the first waiter of the queue that takes jobs of one of {@code
   * readyTypes}: its lease is asked for before this returns, so a store that writes in submission
   * order runs it right behind a write just submitted ({@link WaiterHandoff}). Unlike a pass, a
   * lease that fails here leaves the waiter waiting: it is served again when the jobs are
   * announced.
   *
   * @return completes with true if that waiter takes every one of {@code readyTypes} and its lease
   *     took every job of them that was ready (it got jobs, fewer than it asked for, and not for
   *     the {@link AnswerBudget}): no other waiter need hear of them; false otherwise, or if no
   *     waiter was served
   */
  CompletableFuture<Boolean> serveFirst(String queue, Set<String> readyTypes) {
    QueueWaiters q = queues.get(queue);
    if (q == null) {
      return CompletableFuture.completedFuture(false);
    }
    for (Waiter w : q.waiters) {
      if (readyTypes.stream().anyMatch(w::takes) && w.claim()) {
        boolean takesAll = readyTypes.stream().allMatch(w::takes);
        return serveClaimed(q, w, false).thenApply(s -> takesAll && s == Served.TOOK_ALL_READY);
      }
    }
    return CompletableFuture.completedFuture(false);
  }

  /**
   * Runs {@code pass} on the dispatch executor; drops it once the coordinator is stopping (its
   * waiting calls were answered before the executor stopped taking work).
   */
  private void dispatchLater(Runnable pass) {
    try {
      dispatch.execute(pass);
    } catch (RejectedExecutionException stopping) {
      log.debug("coordinator stopping: a pass over waiting Lease calls is dropped");
    }
  }

  /** Signals every queue that has waiters (the backup path for jobs whose run time came). */
  void wakeAll() {
    queues.keySet().forEach(this::jobsReady);
  }

  /** Answers every waiting call with an empty list (the coordinator is shutting down). */
  void releaseAll() {
    for (QueueWaiters q : queues.values()) {
      for (Waiter w : q.waiters) {
        w.timeOut();
      }
    }
  }

  /** Whether any Lease call is waiting on the queue now. */
  boolean hasWaiters(String queue) {
    QueueWaiters q = queues.get(queue);
    return q != null && !q.waiters.isEmpty();
  }

  /** Lease calls currently waiting, over all queues. */
  int waiting() {
    return queues.values().stream().mapToInt(q -> q.waiters.size()).sum();
  }

  private void drain(QueueWaiters q) {
    servePass(q, q.signals.get(), q.waiters.iterator());
  }

  /**
   * Serves the rest of one pass over the queue's waiters, in arrival order, for the signals seen
   * when it began. A waiter for whose types nothing was announced since a lease took every ready
   * job of them is not asked ({@link QueueWaiters#nothingReadyFor}): a lease in this pass that
   * found nothing, or fewer jobs than its waiter asked for ({@link AnswerBudget#tookEveryReady}),
   * spares the waiters after it that take only those types (a job that becomes ready meanwhile
   * signals, and its signal starts another pass). Returns when a lease is still on its way; its
   * answer continues the pass.
   */
  private void servePass(QueueWaiters q, int seen, Iterator<Waiter> rest) {
    while (rest.hasNext()) {
      Waiter w = rest.next();
      if (q.nothingReadyFor(w.plan.types())) {
        continue;
      }
      // Set before trying: whoever holds the waiter sees it when its lease finds nothing.
      w.signalledWhileClaimed = true;
      if (!w.claim()) {
        continue;
      }
      CompletableFuture<Served> served = serveClaimed(q, w, true);
      if (!served.isDone()) {
        served.thenRun(() -> servePass(q, seen, rest));
        return;
      }
    }
    endPass(q, seen);
  }

  /** Ends a pass; signals that came meanwhile start one more, on the dispatch executor. */
  private void endPass(QueueWaiters q, int seen) {
    if (!q.signals.compareAndSet(seen, 0)) {
      dispatchLater(() -> drain(q));
    }
  }

  private enum Served {
    /** Jobs, as many as the waiter asked for: more may be ready. */
    JOBS_MAYBE_MORE,
    /** Jobs, fewer than the waiter asked for: nothing more of its types was ready. */
    TOOK_ALL_READY,
    /** No jobs: nothing of the waiter's types was ready. */
    NOTHING_READY,
    FAILED
  }

  /** Serves one waiter now if nobody else is; the answer of a new waiter's first look. */
  private void serve(QueueWaiters q, Waiter w) {
    if (w.claim()) {
      serveClaimed(q, w, true);
    }
  }

  /**
   * Leases for a waiter this thread claimed; the future never fails. A pass that runs while the
   * waiter is claimed skips it and says so on the waiter; if this lease then finds nothing, the
   * waiter is served once more, so the signal that pass acted on is not lost. A failed lease ends
   * the wait with the failure if {@code failureEndsWait}, else it counts as finding nothing.
   */
  private CompletableFuture<Served> serveClaimed(
      QueueWaiters q, Waiter w, boolean failureEndsWait) {
    long announcedBefore = q.announced.get();
    CompletableFuture<List<Job>> lease;
    try {
      lease = leaser.lease(w.plan);
    } catch (RuntimeException e) {
      lease = CompletableFuture.failedFuture(e);
    }
    return lease.handle(
        (jobs, error) -> {
          if (error != null && failureEndsWait) {
            log.warn("lease for waiting worker {} failed", w.plan.workerId(), error);
            w.fail(error);
            return Served.FAILED;
          }
          if (error != null) {
            log.debug("lease for waiting worker {} failed; it waits on", w.plan.workerId(), error);
          }
          if (error != null || jobs.isEmpty()) {
            w.unclaim();
            if (w.signalledWhileClaimed) {
              dispatchLater(() -> serve(q, w));
            }
            if (error != null) {
              return Served.FAILED;
            }
            q.tookAllReady(announcedBefore, w.plan.types());
            return Served.NOTHING_READY;
          }
          if (!w.deliver(jobs)) {
            leaser.giveBack(jobs);
          }
          if (AnswerBudget.tookEveryReady(jobs, w.plan.maxJobs())) {
            q.tookAllReady(announcedBefore, w.plan.types());
            return Served.TOOK_ALL_READY;
          }
          return Served.JOBS_MAYBE_MORE;
        });
  }

  private static final class QueueWaiters {
    final ConcurrentLinkedDeque<Waiter> waiters = new ConcurrentLinkedDeque<>();
    final AtomicInteger signals = new AtomicInteger();

    /**
     * Signals received so far. Every change that makes jobs ready signals once it has committed, so
     * a lease that began at some count saw every job announced up to it.
     */
    final AtomicLong announced = new AtomicLong();

    // The latest lease known to have taken every ready job of these types (all, if empty), and the
    // count of signals when it began; null before the first.
    @Nullable private Set<String> tookAllTypes;
    private long tookAllAt;

    /** A lease that began at {@code announcedBefore} took every ready job of {@code types}. */
    synchronized void tookAllReady(long announcedBefore, Set<String> types) {
      if (tookAllTypes == null || announcedBefore > tookAllAt) {
        tookAllTypes = types;
        tookAllAt = announcedBefore;
      } else if (announcedBefore == tookAllAt && !tookAllTypes.isEmpty()) {
        // Two leases since the same signal: together they took all of both (all, if one took all).
        Set<String> both = new HashSet<>(tookAllTypes);
        both.addAll(types);
        tookAllTypes = types.isEmpty() ? types : Set.copyOf(both);
      }
    }

    /** Whether no job of {@code types} (any, if empty) was announced since a lease took all. */
    synchronized boolean nothingReadyFor(Set<String> types) {
      if (tookAllTypes == null || tookAllAt != announced.get()) {
        return false;
      }
      return tookAllTypes.isEmpty() || (!types.isEmpty() && tookAllTypes.containsAll(types));
    }
  }

  /** One waiting call. WAITING -> CLAIMED (someone leases for it) -> WAITING or DONE. */
  private static final class Waiter {
    private static final int WAITING = 0;
    private static final int CLAIMED = 1;
    private static final int DONE = 2;

    final LeasePlan plan;
    final CompletableFuture<List<Job>> future = new CompletableFuture<>();
    private final AtomicInteger state = new AtomicInteger(WAITING);
    private volatile boolean timedOut;

    Waiter(LeasePlan plan) {
      this.plan = plan;
    }

    /** A pass found this waiter claimed by someone else since it was last claimed. */
    volatile boolean signalledWhileClaimed;

    /** Whether this waiter's worker runs jobs of the type. */
    boolean takes(String type) {
      return plan.types().isEmpty() || plan.types().contains(type);
    }

    boolean claim() {
      if (future.isDone() || !state.compareAndSet(WAITING, CLAIMED)) {
        return false;
      }
      signalledWhileClaimed = false;
      return true;
    }

    void unclaim() {
      state.set(WAITING);
      if (timedOut && state.compareAndSet(WAITING, DONE)) {
        future.complete(List.of());
      }
    }

    /** False if the call went away before the jobs could be handed over. */
    boolean deliver(List<Job> jobs) {
      state.set(DONE);
      return future.complete(jobs);
    }

    void fail(Throwable e) {
      state.set(DONE);
      future.completeExceptionally(e);
    }

    void timeOut() {
      timedOut = true;
      if (state.compareAndSet(WAITING, DONE)) {
        future.complete(List.of());
      }
    }
  }
}
