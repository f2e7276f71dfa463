package io.antrean.worker.internal;

import io.antrean.proto.v1.Job;
import io.antrean.proto.v1.LeaseRequest;
import java.util.List;
import java.util.function.BooleanSupplier;
import javax.annotation.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Refills the slots of finished jobs in the CompleteBatch that reports them: the batch asks ({@code
 * lease_next}) for as many jobs as it reports (fewer if the prefetch went down), at most one
 * Lease's worth, and the jobs of its answer go to the dispatcher in the slots the reported jobs
 * free, as BullMQ's workers fetch their next job in the call that completes the last one. A busy
 * worker then sends about half the calls per job: one CompleteBatch instead of a CompleteBatch and
 * a Lease.
 *
 * <p>Slots the answer does not fill (no job ready, a coordinator older than {@code lease_next},
 * which ignores it) go back to the pool, where the poll loop long-polls for them as before. No
 * refill is asked for once the poll loop is stopping.
 *
 * <p>Thread-safe.
 */
final class SlotRefill {
  private static final Logger log = LoggerFactory.getLogger(SlotRefill.class);

  private final LeaseRequest template;
  private final BooleanSupplier leasing;
  private final LeasePoller.Dispatcher dispatcher;
  private final SlotPool slots;

  /**
   * @param leaseTemplate the poll loop's Lease request; its wait is dropped (this lease never
   *     waits) and max_jobs set per batch
   * @param leasing whether jobs may be leased now (false once the poll loop is stopping)
   */
  SlotRefill(
      LeaseRequest leaseTemplate,
      BooleanSupplier leasing,
      LeasePoller.Dispatcher dispatcher,
      SlotPool slots) {
    this.template = leaseTemplate.toBuilder().clearWait().clearMaxJobs().build();
    this.leasing = leasing;
    this.dispatcher = dispatcher;
    this.slots = slots;
  }

  /**
   * The lease to send with a batch whose jobs hold {@code freed} slots, or null for none: one job
   * per freed slot, fewer if the prefetch was lowered meanwhile ({@link SlotPool#refillable}).
   *
   * @param freed the number of jobs the batch settles
   */
  @Nullable
  LeaseRequest request(int freed) {
    int jobs = Math.min(slots.refillable(Math.max(0, freed)), LeasePoller.MAX_JOBS_PER_LEASE);
    if (jobs < 1 || !leasing.getAsBoolean()) {
      return null;
    }
    return template.toBuilder().setMaxJobs(jobs).build();
  }

  /**
   * Hands up to {@code asked} jobs of an answer to the dispatcher, each in a slot a settled job
   * left; the caller has kept that many slots out of the pool ({@link JobSettler#settleAll(List,
   * int)} with {@link #accepted}). A job the dispatcher throws on gives its slot back, and so do
   * the jobs after it.
   */
  void dispatch(List<Job> jobs, int asked, long receivedNanos) {
    int accepted = accepted(jobs, asked);
    if (jobs.size() > asked) {
      log.error(
          "coordinator sent {} jobs for lease_next max_jobs {}; ignoring the extra ones until they"
              + " expire",
          jobs.size(),
          asked);
    }
    for (int i = 0; i < accepted; i++) {
      try {
        dispatcher.dispatch(jobs.get(i), receivedNanos);
      } catch (RuntimeException e) {
        slots.release(accepted - i);
        throw e;
      }
    }
  }

  /** How many of {@code jobs} a batch that asked for {@code asked} takes. */
  static int accepted(List<Job> jobs, int asked) {
    return Math.min(jobs.size(), asked);
  }
}
