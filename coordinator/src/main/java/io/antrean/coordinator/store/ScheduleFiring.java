package io.antrean.coordinator.store;

import io.antrean.coordinator.job.NewJob;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * One fire of a schedule, to be stored only if the schedule still stands where its coordinator read
 * it.
 *
 * @param name the schedule
 * @param expectedNextFireAt the next fire time the coordinator read: the fire happens only if the
 *     schedule's next fire time is still this one and it is not paused (compare-and-set)
 * @param nextFireAt the next fire time after this fire
 * @param jobs the jobs to enqueue, oldest due time first; may be empty
 * @param misses due times dropped by the plan
 * @param skipWhileActive true to enqueue nothing (counting the jobs as misses) while the job of the
 *     schedule's previous fire is PENDING or RUNNING
 */
public record ScheduleFiring(
    String name,
    Instant expectedNextFireAt,
    Instant nextFireAt,
    List<NewJob> jobs,
    long misses,
    boolean skipWhileActive) {

  public ScheduleFiring {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(expectedNextFireAt, "expectedNextFireAt");
    Objects.requireNonNull(nextFireAt, "nextFireAt");
    jobs = List.copyOf(jobs);
  }
}
