package io.antrean.coordinator.core;

import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.store.JobStore;
import java.time.Instant;
import java.util.List;

/**
 * The backup path: periodically takes back every expired lease the timers missed (for example
 * leases held across a coordinator restart) and wakes every queue with waiting workers, so delayed
 * jobs and retries whose wake-up was lost still start. Safe to run at any time. Made by {@link
 * JobScheduler#backupSweep}.
 */
public final class BackupSweep {
  private static final int BATCH = 500;

  private final JobStore store;
  private final LeaseExpiryTimers timers;
  private final LeaseTakenBack takenBack;
  private final LongPoll longPoll;
  private final RecoveryCounters counters;

  BackupSweep(
      JobStore store,
      LeaseExpiryTimers timers,
      LeaseTakenBack takenBack,
      LongPoll longPoll,
      RecoveryCounters counters) {
    this.store = store;
    this.timers = timers;
    this.takenBack = takenBack;
    this.longPoll = longPoll;
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
      batch = store.expireLeases(now, BATCH);
      for (Job job : batch) {
        timers.untrack(job.id());
        takenBack.handle(job, now, "sweep");
      }
      taken += batch.size();
    } while (batch.size() == BATCH);
    counters.recordSweep(taken);
    longPoll.wakeAll();
    return taken;
  }
}
