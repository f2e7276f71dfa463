package io.antrean.coordinator.core;

import io.antrean.coordinator.job.ErrorKind;
import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.store.JobNotFoundException;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArraySet;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.LongFunction;
import javax.annotation.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Who watches which job, without a thread per watch. Each watcher gets the job as it is when it
 * registers, then a snapshot whenever the job's state, attempts or cancel flag differ from the last
 * one it got, and nothing after a terminal snapshot. Changes are learned from the scheduler's
 * events (register this as a {@link SchedulerEvents} listener), which trigger a re-read of the job
 * on the refresh executor, and from {@link #runOnce()}, which re-reads every watched job and is
 * meant to run periodically: it catches changes made by another coordinator sharing the store and
 * any event that was missed.
 *
 * <p>Thread-safe. Watcher callbacks come on the refresh executor or the registering thread, one at
 * a time per watcher; they must be quick and must not block.
 */
public final class JobWatchers implements SchedulerEvents {
  private static final Logger log = LoggerFactory.getLogger(JobWatchers.class);

  /** Receives one job's snapshots. */
  public interface Watcher {
    /** A snapshot that differs from the last one; after a terminal one nothing more comes. */
    void onChange(Job job);

    /**
     * The watch ends without a terminal snapshot: {@link JobNotFoundException} when the job was
     * deleted, {@link CoordinatorStoppingException} when the coordinator stops.
     */
    void onEnd(RuntimeException reason);
  }

  private final LongFunction<Optional<Job>> reader;
  private final Executor refreshes;
  private final ConcurrentHashMap<Long, Set<Slot>> byJob = new ConcurrentHashMap<>();
  private volatile boolean closed;

  /**
   * @param reader reads a job by id (the store's {@code get}); cheap and thread-safe
   * @param refreshes runs the re-reads that events trigger; owned by the caller
   */
  public JobWatchers(LongFunction<Optional<Job>> reader, Executor refreshes) {
    this.reader = reader;
    this.refreshes = refreshes;
  }

  /**
   * Registers a watcher and gives it the current snapshot before returning (and, for a finished
   * job, nothing more: the watcher is gone again).
   *
   * @return cancels the watch; idempotent, safe from any thread
   * @throws JobNotFoundException if no job has this id
   * @throws CoordinatorStoppingException after {@link #close()}
   */
  public Runnable watch(long jobId, Watcher watcher) {
    if (closed) {
      throw new CoordinatorStoppingException();
    }
    Slot slot = new Slot(jobId, watcher);
    byJob.compute(
        jobId,
        (id, slots) -> {
          Set<Slot> s = slots == null ? new CopyOnWriteArraySet<>() : slots;
          s.add(slot);
          return s;
        });
    Optional<Job> job;
    try {
      job = reader.apply(jobId);
    } catch (RuntimeException e) {
      remove(slot);
      throw e;
    }
    if (job.isEmpty()) {
      remove(slot);
      throw new JobNotFoundException(jobId);
    }
    slot.offer(job.get());
    return () -> remove(slot);
  }

  /** Watchers registered now. */
  public int size() {
    return byJob.values().stream().mapToInt(Set::size).sum();
  }

  /** Re-reads every watched job and tells its watchers what changed. */
  public void runOnce() {
    for (Long jobId : byJob.keySet()) {
      try {
        refresh(jobId);
      } catch (RuntimeException e) {
        log.warn("re-check of watched job {} failed; the next one retries", jobId, e);
      }
    }
  }

  /** Ends every watch with {@link CoordinatorStoppingException} and refuses new ones. */
  public void close() {
    closed = true;
    for (Set<Slot> slots : byJob.values()) {
      for (Slot slot : slots) {
        remove(slot);
        slot.end(new CoordinatorStoppingException());
      }
    }
  }

  private void refresh(long jobId) {
    Set<Slot> slots = byJob.get(jobId);
    if (slots == null || slots.isEmpty()) {
      return;
    }
    Optional<Job> job;
    try {
      job = reader.apply(jobId);
    } catch (RuntimeException e) {
      log.debug("could not re-read watched job {}; the next check retries", jobId, e);
      return;
    }
    for (Slot slot : slots) {
      if (job.isPresent()) {
        slot.offer(job.get());
      } else {
        remove(slot);
        slot.end(new JobNotFoundException(jobId));
      }
    }
  }

  private void changed(long jobId) {
    if (!byJob.containsKey(jobId)) {
      return;
    }
    try {
      refreshes.execute(() -> refresh(jobId));
    } catch (RejectedExecutionException e) {
      // Shutting down: close() ends the watches.
    }
  }

  private void remove(Slot slot) {
    byJob.computeIfPresent(
        slot.jobId,
        (id, slots) -> {
          slots.remove(slot);
          return slots.isEmpty() ? null : slots;
        });
  }

  @Override
  public void onLeased(Job job, Instant leasedAt) {
    changed(job.id());
  }

  @Override
  public void onCompleted(long jobId, String queue, @Nullable Duration runTime) {
    changed(jobId);
  }

  @Override
  public void onFailed(Job job, ErrorKind kind, @Nullable Duration runTime) {
    changed(job.id());
  }

  @Override
  public void onCancelled(Job job) {
    changed(job.id());
  }

  @Override
  public void onReleased(Job job) {
    changed(job.id());
  }

  @Override
  public void onLeaseExpired(Job job) {
    changed(job.id());
  }

  /** One watcher of one job and what it was last told. */
  private final class Slot {
    private final long jobId;
    private final Watcher watcher;
    private final Object lock = new Object();

    // @GuardedBy("lock")
    @Nullable private Job last;

    // @GuardedBy("lock")
    private boolean ended;

    Slot(long jobId, Watcher watcher) {
      this.jobId = jobId;
      this.watcher = watcher;
    }

    void offer(Job job) {
      synchronized (lock) {
        if (ended || !differs(job)) {
          return;
        }
        last = job;
        ended = job.state().isTerminal();
        watcher.onChange(job);
      }
      if (job.state().isTerminal()) {
        remove(this);
      }
    }

    /** Whether to pass {@code job} on: a change that matters, and not older than the last. */
    private boolean differs(Job job) {
      if (last == null) {
        return true;
      }
      if (job.updatedAt().isBefore(last.updatedAt())) {
        return false;
      }
      return job.state() != last.state()
          || job.attempts() != last.attempts()
          || job.cancelRequested() != last.cancelRequested();
    }

    void end(RuntimeException reason) {
      synchronized (lock) {
        if (ended) {
          return;
        }
        ended = true;
        watcher.onEnd(reason);
      }
    }
  }
}
