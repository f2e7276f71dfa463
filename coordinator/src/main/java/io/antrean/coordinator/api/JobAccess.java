package io.antrean.coordinator.api;

import io.antrean.coordinator.core.DependencyNotFoundException;
import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.security.AccessDeniedException;
import io.antrean.coordinator.security.Identity;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.function.LongFunction;

/**
 * The per-queue check for calls that name jobs only by id (GetJob, CancelJob, WatchJob, and the
 * dead-letter calls by id, on gRPC and HTTP alike): the caller ({@link CallerIdentity}) must be
 * allowed the job's queue. An identity limited to some queues gets PERMISSION_DENIED ({@code
 * QUEUE_NOT_ALLOWED}) both for a job of another queue and for a job that does not exist, so the
 * answer does not tell which; an identity allowed every queue, and an open coordinator, are not
 * checked (they still get NOT_FOUND for a missing job). Thread-safe.
 */
final class JobAccess {
  private final LongFunction<Optional<Job>> lookup;

  /**
   * @param lookup any job by id, in whatever state
   */
  JobAccess(LongFunction<Optional<Job>> lookup) {
    this.lookup = lookup;
  }

  /**
   * @throws AccessDeniedException when the caller is limited to queues and the job is in none of
   *     them, or does not exist
   */
  void check(long jobId) {
    Identity caller = CallerIdentity.current();
    if (caller == null || caller.queues().isEmpty()) {
      return;
    }
    Optional<Job> job = lookup.apply(jobId);
    if (job.isEmpty() || !caller.mayUse(job.get().queue())) {
      throw AccessDeniedException.jobNotAllowed(caller.name(), jobId);
    }
  }

  /**
   * The jobs a new job names in {@code depends_on} exist and the caller may use their queues: the
   * rules of {@link #check}, but a missing job is NOT_FOUND for a caller allowed every queue.
   *
   * @param field the request field that names them, for the error
   * @throws AccessDeniedException as {@link #check} does
   * @throws DependencyNotFoundException for a missing job, when the caller is not limited
   */
  void checkDependencies(List<Long> jobIds, String field) {
    Identity caller = CallerIdentity.current();
    boolean limited = caller != null && !caller.queues().isEmpty();
    for (long id : new LinkedHashSet<>(jobIds)) {
      Optional<Job> job = lookup.apply(id);
      if (limited && (job.isEmpty() || !caller.mayUse(job.get().queue()))) {
        throw AccessDeniedException.jobNotAllowed(caller.name(), id);
      }
      if (job.isEmpty()) {
        throw new DependencyNotFoundException(field, id);
      }
    }
  }

  /** True when the caller may use the queue (always, for an open coordinator). */
  boolean mayUse(String queue) {
    Identity caller = CallerIdentity.current();
    return caller == null || caller.queues().isEmpty() || caller.mayUse(queue);
  }

  /** {@link #check} for every id named. */
  void checkAll(List<Long> jobIds) {
    if (CallerIdentity.current() == null || jobIds.isEmpty()) {
      return;
    }
    for (long id : new LinkedHashSet<>(jobIds)) {
      check(id);
    }
  }
}
