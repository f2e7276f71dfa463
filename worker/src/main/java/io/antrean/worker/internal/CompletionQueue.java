package io.antrean.worker.internal;

import io.antrean.proto.WorkerCallLimits;
import io.antrean.proto.v1.CompleteItem;
import io.antrean.proto.v1.Job;
import io.antrean.proto.v1.LeaseRequest;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import javax.annotation.Nullable;
import javax.annotation.concurrent.GuardedBy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reports successful jobs with CompleteBatch, batched naturally. A completion joins a pending list
 * and the handler thread moves on; one sending thread sends everything pending (up to {@value
 * WorkerCallLimits#MAX_COMPLETE_BATCH_ITEMS} jobs, never one job twice) whenever no CompleteBatch
 * is in flight, and when the answer comes sends what gathered meanwhile; long results split it, so
 * that no call goes past the coordinator's request limit. There is no timer: a lone completion goes
 * out at once, and under load a batch holds what finished during one round trip. With a {@link
 * SlotRefill}, each batch also leases jobs for the slots its jobs free.
 *
 * <p>The jobs one answer brings start together and, when they are short, finish together. So that
 * they go back in one call rather than in whatever fragments the sender happens to find, a batch
 * waits, once something is pending, up to {@link #LINGER} for the completions of the jobs the last
 * answer brought that have not come yet. Jobs that came otherwise (a Lease call, an answer that
 * brought none, as at a low rate) never make a batch wait.
 *
 * <p>A job is {@linkplain JobSettler settled} (lease dropped, slot freed) only once its item has
 * been answered or given up, so until then heartbeats carry it and shutdown waits for it.
 *
 * <p>A coordinator that answers UNIMPLEMENTED predates CompleteBatch: the items of that call, and
 * every completion for the rest of the worker's life, go by unary Complete, each on the thread that
 * reports it, as before CompleteBatch existed. So does a completion reported after {@link #stop()}.
 *
 * <p>Thread-safe: handler threads call {@link #complete}; the runtime calls {@link #start()} and
 * {@link #stop()}.
 */
final class CompletionQueue {
  private static final Logger log = LoggerFactory.getLogger(CompletionQueue.class);

  /**
   * The longest a pending completion waits for the rest of the jobs the last answer brought. Short
   * jobs that started together finish well within it; one that runs longer costs the others at most
   * this much.
   */
  static final Duration LINGER = Duration.ofNanos(300_000);

  private final CompleteBatchSender sender;
  private final OutcomeReporter reporter;
  private final JobSettler settler;
  @Nullable private final SlotRefill refill;
  private final Prefetch prefetch;
  private final Thread thread;
  private final Object lock = new Object();

  @GuardedBy("lock")
  private final ArrayDeque<PendingCompletion> pending = new ArrayDeque<>();

  @GuardedBy("lock")
  private boolean stopped;

  @GuardedBy("lock")
  private boolean lingering;

  /** The jobs the last answer brought whose completions have not come yet. */
  @GuardedBy("lock")
  private final Set<Long> cohort = new HashSet<>();

  private final long lingerNanos;

  /** Set once, when the coordinator turns out not to implement CompleteBatch. */
  private volatile boolean unaryOnly;

  /**
   * @param refill refills the slots of each batch's jobs in the same call, or null to leave every
   *     lease to the poll loop
   * @param prefetch hears how long each CompleteBatch took to be answered
   * @param linger the longest a pending completion waits for the rest of the last answer's jobs
   *     ({@link #LINGER} in the worker)
   */
  CompletionQueue(
      CompleteBatchSender sender,
      OutcomeReporter reporter,
      JobSettler settler,
      @Nullable SlotRefill refill,
      Prefetch prefetch,
      Duration linger) {
    this.lingerNanos = linger.toNanos();
    this.sender = sender;
    this.reporter = reporter;
    this.settler = settler;
    this.refill = refill;
    this.prefetch = prefetch;
    this.thread = new WorkerThreads("completer").newThread(WorkerThreads.guarded(this::run));
  }

  /** Starts the sending thread. */
  void start() {
    thread.start();
  }

  /**
   * Stops the sending thread: a CompleteBatch in flight is cancelled, and pending completions are
   * settled without being sent (the coordinator runs those jobs again once their leases expire).
   * Call it after the drain, when nothing should be pending.
   */
  void stop() {
    synchronized (lock) {
      stopped = true;
      lock.notifyAll();
    }
    thread.interrupt();
  }

  /**
   * Reports that the job of {@code lease} succeeded and settles the job once the coordinator has
   * answered. Returns at once while CompleteBatch is in use; with unary Complete it returns after
   * the answer, as {@link OutcomeReporter#complete} does. Takes over the settling of the job in
   * every case, even if it throws.
   *
   * @param result the handler's result, or null for none
   * @param resultContentType the result's content type
   */
  void complete(HeldLease lease, byte[] result, String resultContentType) {
    boolean queued = false;
    try {
      CompleteItem item = OutcomeReporter.completion(lease, result, resultContentType);
      queued = !unaryOnly && enqueue(new PendingCompletion(lease, item));
      if (!queued) {
        reporter.complete(lease, item);
      }
    } finally {
      if (!queued) {
        settler.settle(lease);
      }
    }
  }

  private boolean enqueue(PendingCompletion completion) {
    synchronized (lock) {
      if (stopped) {
        return false;
      }
      // The sender waits for the first completion, then for the last of the answer's jobs.
      boolean first = pending.isEmpty();
      boolean lastOfCohort = cohort.remove(completion.lease().jobId()) && cohort.isEmpty();
      pending.addLast(completion);
      if (first || lastOfCohort || pending.size() == WorkerCallLimits.MAX_COMPLETE_BATCH_ITEMS) {
        lock.notifyAll();
      }
      return true;
    }
  }

  /**
   * Whether the sender is waiting for the last answer's jobs before it takes a batch; for tests.
   */
  boolean lingering() {
    synchronized (lock) {
      return lingering;
    }
  }

  /** How many completions wait for the sending thread; for tests. */
  int pending() {
    synchronized (lock) {
      return pending.size();
    }
  }

  private void run() {
    log.debug("completion sender started");
    while (true) {
      List<PendingCompletion> batch = takeBatch();
      if (batch.isEmpty()) {
        break;
      }
      LeaseRequest leaseNext = refill == null || unaryOnly ? null : refill.request(batch.size());
      CompleteBatchSender.Sent sent = CompleteBatchSender.Sent.NOTHING;
      int refilled = 0;
      try {
        sent = report(batch, leaseNext);
        refilled =
            leaseNext == null ? 0 : SlotRefill.accepted(sent.leased(), leaseNext.getMaxJobs());
      } catch (RuntimeException e) {
        WorkerThreads.reportUncaught(e);
      } finally {
        settler.settleAll(batch.stream().map(PendingCompletion::lease).toList(), refilled);
      }
      if (refilled > 0) {
        expect(sent.leased().subList(0, refilled));
        try {
          refill.dispatch(sent.leased(), leaseNext.getMaxJobs(), sent.receivedNanos());
        } catch (RuntimeException e) {
          WorkerThreads.reportUncaught(e);
        }
      }
    }
    settleUnsent();
    log.debug("completion sender stopped");
  }

  /** The jobs an answer brought, before they go to their handlers: a batch waits for them. */
  private void expect(List<Job> jobs) {
    synchronized (lock) {
      cohort.clear();
      jobs.forEach(job -> cohort.add(job.getId()));
    }
  }

  private CompleteBatchSender.Sent report(
      List<PendingCompletion> batch, @Nullable LeaseRequest leaseNext) {
    if (unaryOnly) {
      return reportUnary(CompleteBatchSender.Sent.forUnary(batch));
    }
    CompleteBatchSender.Sent sent = sender.send(batch, leaseNext);
    if (sent.roundTripNanos() > 0) {
      prefetch.roundTrip(sent.roundTripNanos());
    }
    return reportUnary(sent);
  }

  /** Completes with unary Complete what the coordinator would not take in a CompleteBatch. */
  private CompleteBatchSender.Sent reportUnary(CompleteBatchSender.Sent sent) {
    List<PendingCompletion> unary = sent.forUnary();
    if (unary.isEmpty()) {
      return sent;
    }
    if (!unaryOnly) {
      unaryOnly = true;
      log.info(
          "the coordinator does not implement CompleteBatch; completing each job with Complete"
              + " from now on");
    }
    for (PendingCompletion completion : unary) {
      reporter.complete(completion.lease(), completion.item());
    }
    return sent;
  }

  /**
   * Waits until something is pending and, for the rest of the last answer's jobs, up to {@link
   * #LINGER} more; then takes the oldest completions, up to the protocol's limit, at most one per
   * job (a later lease of the same job waits for the next batch), and each next one only while the
   * results taken are under {@link CompleteBatchSender#BATCH_RESULT_BYTES}.
   *
   * @return the next batch, or an empty list once stopped
   */
  private List<PendingCompletion> takeBatch() {
    synchronized (lock) {
      try {
        while (pending.isEmpty() && !stopped) {
          lock.wait();
        }
      } catch (InterruptedException e) {
        // Only stop() interrupts; should anything else, later completions go by unary Complete.
        Thread.currentThread().interrupt();
        stopped = true;
        return List.of();
      }
      if (stopped || !lingered()) {
        return List.of();
      }
      int size = Math.min(pending.size(), WorkerCallLimits.MAX_COMPLETE_BATCH_ITEMS);
      List<PendingCompletion> batch = new ArrayList<>(size);
      Set<Long> jobIds = new HashSet<>();
      long resultBytes = 0;
      Iterator<PendingCompletion> oldestFirst = pending.iterator();
      while (batch.size() < size
          && resultBytes < CompleteBatchSender.BATCH_RESULT_BYTES
          && oldestFirst.hasNext()) {
        PendingCompletion next = oldestFirst.next();
        if (jobIds.add(next.lease().jobId())) {
          batch.add(next);
          resultBytes += next.item().getResult().size();
          oldestFirst.remove();
        }
      }
      return batch;
    }
  }

  /**
   * Waits, with something pending, until every job of the last answer has its completion pending, a
   * batch is full or {@link #lingerNanos} have passed; then forgets that answer's jobs, so that one
   * that failed or runs long holds up one batch at most.
   *
   * @return false if stopped meanwhile
   */
  @GuardedBy("lock")
  private boolean lingered() {
    long deadline = System.nanoTime() + lingerNanos;
    try {
      while (!stopped
          && !cohort.isEmpty()
          && pending.size() < WorkerCallLimits.MAX_COMPLETE_BATCH_ITEMS) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          break;
        }
        lingering = true;
        TimeUnit.NANOSECONDS.timedWait(lock, left);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      stopped = true;
    } finally {
      lingering = false;
      cohort.clear();
    }
    return !stopped;
  }

  private void settleUnsent() {
    List<PendingCompletion> unsent;
    synchronized (lock) {
      unsent = List.copyOf(pending);
      pending.clear();
    }
    for (PendingCompletion completion : unsent) {
      log.warn(
          "Complete of job {} not sent: the worker terminated first", completion.lease().jobId());
    }
    settler.settleAll(unsent.stream().map(PendingCompletion::lease).toList());
  }
}
