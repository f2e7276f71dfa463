package io.antrean.coordinator.core;

import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.store.CompletionOutcome;
import io.antrean.coordinator.store.JobStore;
import io.antrean.coordinator.store.LeaseRef;
import io.antrean.coordinator.store.LeaseSpec;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Leases jobs that are ready now, without waiting: the store grants the leases, and each one gets
 * its expiry timer and its event. A Lease call with no wait, a waiting call once woken ({@link
 * LongPoll}) and the lease after a CompleteBatch all come here.
 *
 * <p>Thread-safe.
 */
final class JobLeasing {
  private static final Logger log = LoggerFactory.getLogger(JobLeasing.class);

  private final JobStore store;
  private final Clock clock;
  private final LeaseExpiryTimers timers;
  private final SchedulerEvents events;

  JobLeasing(JobStore store, Clock clock, LeaseExpiryTimers timers, SchedulerEvents events) {
    this.store = store;
    this.clock = clock;
    this.timers = timers;
    this.events = events;
  }

  /** Leases up to the plan's number of ready jobs; the future fails if the store does. */
  CompletableFuture<List<Job>> leaseNow(LeasePlan plan) {
    Instant now = clock.instant();
    LeaseSpec spec =
        new LeaseSpec(
            plan.workerId(), plan.queue(), plan.types(), plan.maxJobs(), now.plus(plan.ttl()));
    return store
        .leaseAsync(spec, now)
        .thenApply(
            jobs -> {
              for (Job job : jobs) {
                timers.track(
                    new LeaseRef(job.id(), job.lease().fencingToken(), job.lease().expiresAt()),
                    now);
                events.onLeased(job, now);
              }
              return jobs;
            });
  }

  /**
   * A lease that rides on a CompleteBatch: served once {@code judged}'s items are stored, and
   * answering no jobs where it fails, so that the outcomes still get through (the worker's own
   * Lease then meets the trouble). A store that commits writes together ({@link
   * JobStore#commitsTogether}) gets the lease at once, behind the items, so that inside {@link
   * JobStore#writeTogether} both share one commit; any other store gets it after the items are
   * durable. Items refused at once (the writer's queue full, say) lease nothing: the call fails,
   * and jobs leased for it would only wait for their leases to expire.
   *
   * @param judged the items' outcomes, their write already submitted
   */
  CompletableFuture<CompletionsAndLeases> leaseAfter(
      CompletableFuture<List<CompletionOutcome>> judged, LeasePlan plan) {
    if (store.commitsTogether() && !judged.isCompletedExceptionally()) {
      return judged.thenCombine(leaseNowOrNone(plan), CompletionsAndLeases::new);
    }
    return judged.thenCompose(
        outcomes ->
            leaseNowOrNone(plan).thenApply(jobs -> new CompletionsAndLeases(outcomes, jobs)));
  }

  private CompletableFuture<List<Job>> leaseNowOrNone(LeasePlan plan) {
    return leaseNow(plan)
        .exceptionally(
            e -> {
              log.debug("a lease after a CompleteBatch failed; answering no jobs", e);
              return List.of();
            });
  }
}
