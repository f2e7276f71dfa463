package io.antrean.coordinator.store;

import io.antrean.coordinator.job.Job;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * The dead-letter queue's part of the storage SPI ({@link JobStore}): dead-lettered jobs listed,
 * counted, redriven and purged. The contract of {@link JobStore} holds here too.
 */
public interface DeadLetterStore {
  /**
   * Dead-lettered (FAILED) jobs matching every filter of the query, newest id first, without
   * history. Paged like {@link JobStore#list}: pass the answer's {@code nextBeforeId} as the next
   * query's {@code beforeId}. The error filter is a case-insensitive substring of {@code
   * lastError}; the time filters compare {@code finishedAt} (when the job was dead-lettered):
   * {@code failedAfter} inclusive, {@code failedBefore} exclusive.
   */
  JobPage listDeadLetters(DeadLetterQuery query);

  /**
   * Takes dead-lettered jobs out of the dead-letter queue for a new life, all in one atomic change.
   * Ids of jobs that are not FAILED (or do not exist, or appear a second time) are skipped, and so
   * are jobs whose unique key another PENDING or RUNNING job holds. The i-th job redriven (counting
   * from 0, in the order of {@code jobIds}, skipped ids not counted) becomes PENDING with run time
   * {@code firstRunAt + i * spacing}, so a large redrive is spread out instead of landing on the
   * workers at once.
   *
   * <p>A redriven job has a fresh budget: attempts and lease expiries are 0, any cancellation
   * request is cleared, and its result, progress, finish time and lease are gone. Its last error
   * stays until the next attempt replaces it, so operators still see why it died. Its history is
   * kept and gains one {@link io.antrean.coordinator.job.AttemptOutcome#REDRIVEN} entry (attempt 0,
   * worker {@code "admin"}, started and ended at {@code now}, the job's current fencing token). The
   * fencing token itself is not reset: the next lease gets a higher one, so no token is ever issued
   * twice for a job. Its idempotency key keeps pointing at it. A job with dependencies checks them
   * again, as at enqueue (WAITING, PENDING, or its policy at once).
   *
   * @param spacing zero or positive
   * @return the redriven jobs after the change, in redrive order, without history
   */
  List<Job> redrive(List<Long> jobIds, Instant firstRunAt, Duration spacing, Instant now);

  /**
   * Deletes the dead-lettered (FAILED) jobs among {@code jobIds}, with their history and their
   * idempotency keys (the keys are free again at once). Other ids are ignored.
   *
   * @return how many jobs were deleted
   */
  int purgeDeadLetters(List<Long> jobIds);

  /**
   * Jobs dead-lettered at or after {@code since} and still FAILED, counted per queue, type and last
   * error, the largest group first (ties by queue, type, then last error). For dead-letter growth
   * in stats and for alerts.
   */
  List<DeadLetterGroup> deadLetteredSince(Instant since);
}
