package io.antrean.coordinator.core;

import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.job.JobState;
import java.time.Instant;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The backup path: periodically takes back every expired lease the timers missed (for example
 * leases held across a coordinator restart) and wakes every queue with waiting workers, so delayed
 * jobs and retries whose wake-up was lost still start. Safe to run at any time.
 */
public final class BackupSweep {
  private static final Logger log = LoggerFactory.getLogger(BackupSweep.class);
  private static final int BATCH = 500;

  private final JobScheduler scheduler;
  private final RecoveryCounters counters;

  public BackupSweep(JobScheduler scheduler, RecoveryCounters counters) {
    this.scheduler = scheduler;
    this.counters = counters;
  }

  /**
   * One sweep as of {@code now}.
   *
   * @return how many expired leases it took back
   */
  public int runOnce(Instant now) {
    int taken = 0;
    List<Job> batch;
    do {
      batch = scheduler.store().expireLeases(now, BATCH);
      for (Job job : batch) {
        scheduler.timers().untrack(job.id());
        scheduler.leaseExpired(job);
        log.warn(
            "sweep took back job {} (type {}, attempt {}) after its lease expired; job is now {}",
            job.id(),
            job.type(),
            job.attempts(),
            job.state());
        if (job.state() == JobState.PENDING) {
          scheduler.longPoll().jobsReady(job.queue());
        } else if (job.state() == JobState.FAILED) {
          scheduler.deadLettered(job, now);
        }
      }
      taken += batch.size();
    } while (batch.size() == BATCH);
    counters.recordSweep(taken);
    scheduler.longPoll().wakeAll();
    return taken;
  }
}
