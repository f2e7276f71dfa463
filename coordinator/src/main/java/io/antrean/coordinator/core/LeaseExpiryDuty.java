package io.antrean.coordinator.core;

import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.store.JobStore;
import io.antrean.coordinator.store.LeaseRef;
import java.time.Instant;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The main path of lease expiry: takes back each job whose lease timer is due, at once, and wakes
 * the queue's waiting workers. {@link #runOnce(Instant)} is one step; a background thread calls it
 * when the next timer is due. Made by {@link JobScheduler#leaseExpiryDuty}.
 */
public final class LeaseExpiryDuty {
  private static final Logger log = LoggerFactory.getLogger(LeaseExpiryDuty.class);

  private final LeaseExpiryTimers timers;
  private final JobStore store;
  private final LeaseTakenBack takenBack;
  private final RecoveryCounters counters;

  LeaseExpiryDuty(
      LeaseExpiryTimers timers,
      JobStore store,
      LeaseTakenBack takenBack,
      RecoveryCounters counters) {
    this.timers = timers;
    this.store = store;
    this.takenBack = takenBack;
    this.counters = counters;
  }

  /**
   * Expires the leases whose timer is due at {@code now}.
   *
   * @return how many jobs were taken back
   */
  public int runOnce(Instant now) {
    int taken = 0;
    for (LeaseRef lease : timers.takeDue(now)) {
      Optional<Job> job;
      try {
        job = store.expireLease(lease.jobId(), lease.fencingToken(), now);
      } catch (RuntimeException e) {
        log.warn("could not expire the lease of job {}; the sweep will retry", lease.jobId(), e);
        continue;
      }
      if (job.isPresent()) {
        taken++;
        takenBack.handle(job.get(), now, "timer");
      }
    }
    counters.recordTimer(taken);
    return taken;
  }

  /** When the next timer is due, or null if none is set. */
  public Instant nextDue() {
    return timers.nextDue();
  }

  /** Blocks until a timer may be due, at most {@code maxWaitMillis}; for the driving thread. */
  public void awaitNext(long maxWaitMillis, Instant now) throws InterruptedException {
    timers.awaitNext(maxWaitMillis, now);
  }
}
