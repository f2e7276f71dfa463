package io.antrean.coordinator.core;

import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.job.JobState;
import java.time.Instant;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What follows once the store took back a job whose lease expired, the same whether its timer
 * ({@link LeaseExpiryDuty}) or the sweep ({@link BackupSweep}) found it: the events told, a WARN,
 * and then the queue's waiting workers woken (PENDING again) or the dead-letter path (FAILED).
 * Thread-safe.
 */
final class LeaseTakenBack {
  private static final Logger log = LoggerFactory.getLogger(LeaseTakenBack.class);

  private final SchedulerEvents events;
  private final LongPoll longPoll;
  private final BiConsumer<Job, Instant> deadLettered;

  LeaseTakenBack(SchedulerEvents events, LongPoll longPoll, BiConsumer<Job, Instant> deadLettered) {
    this.events = events;
    this.longPoll = longPoll;
    this.deadLettered = deadLettered;
  }

  /**
   * @param job the job as the store left it
   * @param by who found the expired lease, for the log: "timer" or "sweep"
   */
  void handle(Job job, Instant now, String by) {
    events.onLeaseExpired(job);
    log.warn(
        "lease of job {} (type {}, attempt {}) expired, taken back by the {}; job is now {}",
        job.id(),
        job.type(),
        job.attempts(),
        by,
        job.state());
    if (job.state() == JobState.PENDING) {
      longPoll.jobsReady(job.queue());
    } else if (job.state() == JobState.FAILED) {
      deadLettered.accept(job, now);
    }
  }
}
