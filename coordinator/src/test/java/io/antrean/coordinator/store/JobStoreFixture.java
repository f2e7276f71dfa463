package io.antrean.coordinator.store;

import static io.antrean.coordinator.store.TestJobs.NEVER_RETRY;
import static io.antrean.coordinator.store.TestJobs.T0;
import static io.antrean.coordinator.store.TestJobs.at;
import static io.antrean.coordinator.store.TestJobs.job;
import static io.antrean.coordinator.store.TestJobs.spec;
import static org.assertj.core.api.Assertions.assertThat;

import io.antrean.coordinator.job.Attempt;
import io.antrean.coordinator.job.AttemptOutcome;
import io.antrean.coordinator.job.ErrorKind;
import io.antrean.coordinator.job.Failure;
import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.job.NewJob;
import java.time.Instant;
import java.util.List;
import java.util.Set;

/**
 * What the store contracts share: the store under test and helpers that drive it around {@link
 * TestJobs#T0}.
 */
public interface JobStoreFixture {
  Failure RETRYABLE =
      new Failure(
          ErrorKind.RETRYABLE, "java.net.SocketTimeoutException", "read timed out", "at x", null);
  Failure PERMANENT =
      new Failure(ErrorKind.PERMANENT, "BadPayload", "missing field 'to'", null, null);

  /** The store under test: fresh and empty at the start of each test. */
  JobStore store();

  /**
   * Returns once a listener subscribed with {@link JobStore#subscribeJobsReady} hears what is made
   * ready from then on (on PostgreSQL, once its LISTEN is in place; a NOTIFY sent before is lost).
   */
  default void awaitJobsReadyHeard() {}

  default Job enqueue(NewJob newJob) {
    return store().enqueue(List.of(newJob), T0).get(0).job();
  }

  default Job enqueue(String type) {
    return enqueue(job(type).build());
  }

  default Job leaseOne(String workerId, Instant now, Instant expiresAt) {
    List<Job> leased = store().lease(spec(workerId, 1, expiresAt), now);
    assertThat(leased).as("a job to lease at %s", now).hasSize(1);
    return leased.get(0);
  }

  /** Leases the next job at T0 with a lease that expires at T0 + 30 s. */
  default Job leaseOne(String workerId) {
    return leaseOne(workerId, T0, at(30));
  }

  /** Leases the next job of {@code queue} at {@code now} for 30 s as worker "w". */
  default Job leaseIn(String queue, Instant now) {
    List<Job> leased =
        store().lease(new LeaseSpec("w", queue, Set.of(), 1, now.plusSeconds(30)), now);
    assertThat(leased).as("a job to lease in %s at %s", queue, now).hasSize(1);
    return leased.get(0);
  }

  /**
   * Enqueues the job at T0 and dead-letters it at {@code failedAt} (not before T0) with a permanent
   * failure of this message. Its queue must hold no other ready job.
   */
  default Job deadLetter(NewJob newJob, Instant failedAt, String message) {
    Failure failure = new Failure(ErrorKind.PERMANENT, "BadPayload", message, null, null);
    long id = enqueue(newJob).id();
    Job leased = leaseIn(newJob.queue(), failedAt);
    assertThat(leased.id()).as("the job just enqueued is the one leased").isEqualTo(id);
    return store().fail(id, claim(leased), "w", failure, NEVER_RETRY, failedAt);
  }

  default Job deadLetter(String type, Instant failedAt) {
    return deadLetter(job(type).build(), failedAt, "missing field 'to'");
  }

  /** Enqueues the job at T0 and completes it at {@code finishedAt}; as {@link #deadLetter}. */
  default Job succeeded(NewJob newJob, Instant finishedAt) {
    long id = enqueue(newJob).id();
    Job leased = leaseIn(newJob.queue(), finishedAt);
    assertThat(leased.id()).as("the job just enqueued is the one leased").isEqualTo(id);
    return store().complete(id, claim(leased), "w", null, null, finishedAt);
  }

  default Job reload(long jobId) {
    return store().get(jobId).orElseThrow();
  }

  default long token(Job leased) {
    return leased.lease().fencingToken();
  }

  /** What the leasing worker presents: the lease's fencing token and lease id. */
  default LeaseClaim claim(Job leased) {
    return LeaseClaim.of(leased);
  }

  default List<Long> ids(List<Job> jobs) {
    return jobs.stream().map(Job::id).toList();
  }

  default Attempt last(Job job) {
    assertThat(job.history()).isNotEmpty();
    return job.history().get(job.history().size() - 1);
  }

  /** The job as it was, plus exactly one STALE_COMPLETION_REJECTED entry for this worker. */
  default void assertOnlyRejectionRecorded(Job before, String workerId, long staleToken) {
    Job after = reload(before.id());
    assertThat(after).usingRecursiveComparison().ignoringFields("history").isEqualTo(before);
    assertThat(after.history()).hasSize(before.history().size() + 1);
    assertThat(after.history().subList(0, before.history().size()))
        .usingRecursiveFieldByFieldElementComparator()
        .isEqualTo(before.history());
    Attempt rejection = last(after);
    assertThat(rejection.outcome()).isEqualTo(AttemptOutcome.STALE_COMPLETION_REJECTED);
    assertThat(rejection.workerId()).isEqualTo(workerId);
    assertThat(rejection.fencingToken()).isEqualTo(staleToken);
    assertThat(rejection.attempt()).isEqualTo(before.attempts());
  }

  /** Leases the job as worker-a, lets the lease expire, and leases it again as worker-b. */
  default Job[] takeOverAfterExpiry() {
    enqueue("email");
    Job first = leaseOne("worker-a", T0, at(30));
    assertThat(store().expireLeases(at(31), 10)).hasSize(1);
    Job second = leaseOne("worker-b", at(31), at(60));
    return new Job[] {first, second};
  }
}
