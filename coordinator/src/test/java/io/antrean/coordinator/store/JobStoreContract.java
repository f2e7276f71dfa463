package io.antrean.coordinator.store;

import static io.antrean.coordinator.store.TestJobs.NEVER_RETRY;
import static io.antrean.coordinator.store.TestJobs.QUEUE;
import static io.antrean.coordinator.store.TestJobs.T0;
import static io.antrean.coordinator.store.TestJobs.at;
import static io.antrean.coordinator.store.TestJobs.job;
import static io.antrean.coordinator.store.TestJobs.retryAt;
import static io.antrean.coordinator.store.TestJobs.spec;
import static io.antrean.coordinator.store.TestJobs.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import io.antrean.coordinator.job.Attempt;
import io.antrean.coordinator.job.AttemptOutcome;
import io.antrean.coordinator.job.ErrorKind;
import io.antrean.coordinator.job.Failure;
import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.job.JobState;
import io.antrean.coordinator.job.NewJob;
import io.antrean.coordinator.job.RetryPolicy;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The behaviour every {@link JobStore} must show. A backend's test extends this class and says how
 * to open a fresh, empty store; everything here is backend-neutral. Time is a parameter: tests pass
 * instants around {@link TestJobs#T0} and never sleep.
 */
public abstract class JobStoreContract {
  protected static final Failure RETRYABLE =
      new Failure(
          ErrorKind.RETRYABLE, "java.net.SocketTimeoutException", "read timed out", "at x", null);
  protected static final Failure PERMANENT =
      new Failure(ErrorKind.PERMANENT, "BadPayload", "missing field 'to'", null, null);

  protected JobStore store;

  /** A fresh, empty store; the contract closes it after each test. */
  protected abstract JobStore openStore() throws Exception;

  @BeforeEach
  void openFreshStore() throws Exception {
    store = openStore();
  }

  @AfterEach
  void closeStore() {
    if (store != null) {
      store.close();
    }
  }

  // ---- helpers ------------------------------------------------------------------------------

  protected Job enqueue(NewJob newJob) {
    return store.enqueue(List.of(newJob), T0).get(0).job();
  }

  protected Job enqueue(String type) {
    return enqueue(job(type).build());
  }

  protected Job leaseOne(String workerId, Instant now, Instant expiresAt) {
    List<Job> leased = store.lease(spec(workerId, 1, expiresAt), now);
    assertThat(leased).as("a job to lease at %s", now).hasSize(1);
    return leased.get(0);
  }

  /** Leases the next job at T0 with a lease that expires at T0 + 30 s. */
  protected Job leaseOne(String workerId) {
    return leaseOne(workerId, T0, at(30));
  }

  protected Job reload(long jobId) {
    return store.get(jobId).orElseThrow();
  }

  protected static long token(Job leased) {
    return leased.lease().fencingToken();
  }

  protected static List<Long> ids(List<Job> jobs) {
    return jobs.stream().map(Job::id).toList();
  }

  protected static Attempt last(Job job) {
    assertThat(job.history()).isNotEmpty();
    return job.history().get(job.history().size() - 1);
  }

  /** The job as it was, plus exactly one STALE_COMPLETION_REJECTED entry for this worker. */
  private void assertOnlyRejectionRecorded(Job before, String workerId, long staleToken) {
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
  private Job[] takeOverAfterExpiry() {
    enqueue("email");
    Job first = leaseOne("worker-a", T0, at(30));
    assertThat(store.expireLeases(at(31), 10)).hasSize(1);
    Job second = leaseOne("worker-b", at(31), at(60));
    return new Job[] {first, second};
  }

  // ---- enqueue ------------------------------------------------------------------------------

  @Test
  void enqueueStoresAPendingJobWithEveryField() {
    RetryPolicy policy = new RetryPolicy(7, Duration.ofMillis(250), 1.5, Duration.ofMinutes(2), 2);
    NewJob newJob =
        job("email")
            .queue("mail")
            .payload("{\"to\":\"a@b\"}")
            .priority(5)
            .runAt(at(10))
            .key("k-1")
            .retryPolicy(policy)
            .build();

    EnqueueResult result = store.enqueue(List.of(newJob), T0).get(0);

    assertThat(result.deduplicated()).isFalse();
    Job stored = reload(result.job().id());
    assertThat(stored).usingRecursiveComparison().isEqualTo(result.job());
    assertThat(stored.queue()).isEqualTo("mail");
    assertThat(stored.type()).isEqualTo("email");
    assertThat(stored.payload()).isEqualTo(utf8("{\"to\":\"a@b\"}"));
    assertThat(stored.contentType()).isEqualTo("application/json");
    assertThat(stored.priority()).isEqualTo(5);
    assertThat(stored.runAt()).isEqualTo(at(10));
    assertThat(stored.idempotencyKey()).isEqualTo("k-1");
    assertThat(stored.retryPolicy()).isEqualTo(policy);
    assertThat(stored.state()).isEqualTo(JobState.PENDING);
    assertThat(stored.attempts()).isZero();
    assertThat(stored.leaseExpiries()).isZero();
    assertThat(stored.createdAt()).isEqualTo(T0);
    assertThat(stored.updatedAt()).isEqualTo(T0);
    assertThat(stored.finishedAt()).isNull();
    assertThat(stored.lease()).isNull();
    assertThat(stored.result()).isNull();
    assertThat(stored.lastError()).isNull();
    assertThat(stored.cancelRequested()).isFalse();
    assertThat(stored.history()).isEmpty();
  }

  @Test
  void enqueueAnswersOneResultPerJobInOrder() {
    List<EnqueueResult> results =
        store.enqueue(List.of(job("a").build(), job("b").build(), job("c").build()), T0);

    assertThat(results).extracting(r -> r.job().type()).containsExactly("a", "b", "c");
    assertThat(results).noneMatch(EnqueueResult::deduplicated);
  }

  @Test
  void idsIncreaseAndAreNeverReused() {
    Set<Long> seen = new HashSet<>();
    long previous = 0;
    for (int i = 0; i < 5; i++) {
      long id = enqueue("t" + i).id();
      assertThat(id).isGreaterThan(previous);
      assertThat(seen.add(id)).isTrue();
      previous = id;
    }
    Job finished = leaseOne("w");
    store.complete(finished.id(), token(finished), "w", null, null, at(1));

    assertThat(enqueue("after").id()).isGreaterThan(previous);
  }

  @Test
  void emptyPayloadAndEmptyResultRoundTrip() {
    Job stored = enqueue(job("empty").payload(new byte[0], "application/octet-stream").build());
    Job leased = leaseOne("w");
    store.complete(leased.id(), token(leased), "w", new byte[0], "application/octet-stream", at(1));

    Job done = reload(stored.id());
    assertThat(done.payload()).isEmpty();
    assertThat(done.contentType()).isEqualTo("application/octet-stream");
    assertThat(done.result()).isNotNull().isEmpty();
  }

  @Test
  void timestampsRoundTripAtMicrosecondPrecision() {
    Instant now = Instant.parse("2026-03-01T12:00:00.123456789Z");
    Instant runAt = Instant.parse("2026-03-01T12:00:00.000001999Z");
    Instant beforeEpoch = Instant.parse("1969-12-31T23:59:59.999999500Z");
    Job early = store.enqueue(List.of(job("old").runAt(beforeEpoch).build()), now).get(0).job();
    Job stored = store.enqueue(List.of(job("t").runAt(runAt).build()), now).get(0).job();

    assertThat(reload(stored.id()).runAt()).isEqualTo(Instant.parse("2026-03-01T12:00:00.000001Z"));
    assertThat(reload(stored.id()).createdAt()).isEqualTo(now.truncatedTo(ChronoUnit.MICROS));
    assertThat(reload(early.id()).runAt()).isEqualTo(beforeEpoch.truncatedTo(ChronoUnit.MICROS));
    assertThat(stored.createdAt()).isEqualTo(reload(stored.id()).createdAt());
  }

  @Test
  void returnedJobsAreCopies() {
    Job stored = enqueue(job("t").payload("{\"n\":1}").build());
    stored.payload()[0] = 'X';
    reload(stored.id()).payload()[0] = 'Y';
    Job leased = leaseOne("w");
    leased.payload()[0] = 'Z';

    assertThat(reload(stored.id()).payload()).isEqualTo(utf8("{\"n\":1}"));
  }

  @Test
  @Timeout(30)
  void concurrentEnqueuersAllGetDistinctIds() throws Exception {
    int threads = 8;
    int perThread = 25;
    ConcurrentLinkedQueue<Long> ids = new ConcurrentLinkedQueue<>();
    runConcurrently(
        threads,
        () -> {
          for (int i = 0; i < perThread; i++) {
            ids.add(enqueue("t").id());
          }
        });

    assertThat(ids).hasSize(threads * perThread).doesNotHaveDuplicates();
  }

  // ---- lease ------------------------------------------------------------------------------

  @Test
  void leaseTakesHighestPriorityFirstThenEarliestRunAtThenLowestId() {
    long low = enqueue(job("low").priority(1).build()).id();
    long lateHigh = enqueue(job("late-high").priority(9).runAt(at(-1)).build()).id();
    long earlyHigh = enqueue(job("early-high").priority(9).runAt(at(-5)).build()).id();
    long sameTimeHighA = enqueue(job("high-a").priority(9).runAt(at(-1)).build()).id();
    long middle = enqueue(job("middle").priority(5).build()).id();

    List<Job> leased = store.lease(spec("w", 4, at(30)), T0);

    assertThat(ids(leased)).containsExactly(earlyHigh, lateHigh, sameTimeHighA, middle);
    assertThat(ids(store.lease(spec("w", 4, at(30)), T0))).containsExactly(low);
  }

  @Test
  void jobIsNotLeasedBeforeItsRunAt() {
    Job delayed = enqueue(job("later").runAt(at(60)).build());

    assertThat(store.lease(spec("w", 10, at(30)), at(59))).isEmpty();
    assertThat(ids(store.lease(spec("w", 10, at(90)), at(60)))).containsExactly(delayed.id());
  }

  @Test
  void leaseTakesOnlyTheRequestedQueue() {
    enqueue(job("t").queue("other").build());
    long mine = enqueue("t").id();

    assertThat(ids(store.lease(spec("w", 10, at(30)), T0))).containsExactly(mine);
  }

  @Test
  void leaseTakesOnlyTheRequestedTypes() {
    long email = enqueue("email").id();
    enqueue("resize");
    long sms = enqueue("sms").id();

    LeaseSpec spec = new LeaseSpec("w", QUEUE, Set.of("email", "sms"), 10, at(30));
    assertThat(ids(store.lease(spec, T0))).containsExactly(email, sms);
  }

  @Test
  void leaseCountsTheAttemptIssuesANewTokenAndRecordsARunningAttempt() {
    Job stored = enqueue("email");

    Job leased = leaseOne("worker-1", at(1), at(31));

    assertThat(leased.id()).isEqualTo(stored.id());
    assertThat(leased.state()).isEqualTo(JobState.RUNNING);
    assertThat(leased.attempts()).isEqualTo(1);
    assertThat(leased.lease().workerId()).isEqualTo("worker-1");
    assertThat(leased.lease().expiresAt()).isEqualTo(at(31));
    assertThat(leased.updatedAt()).isEqualTo(at(1));
    Job reloaded = reload(stored.id());
    assertThat(reloaded.lease()).isEqualTo(leased.lease());
    assertThat(reloaded.history()).hasSize(1);
    Attempt attempt = reloaded.history().get(0);
    assertThat(attempt.outcome()).isEqualTo(AttemptOutcome.RUNNING);
    assertThat(attempt.attempt()).isEqualTo(1);
    assertThat(attempt.workerId()).isEqualTo("worker-1");
    assertThat(attempt.fencingToken()).isEqualTo(token(leased));
    assertThat(attempt.leasedAt()).isEqualTo(at(1));
    assertThat(attempt.endedAt()).isNull();
  }

  @Test
  void everyLeaseOfAJobGetsAHigherToken() {
    enqueue("t");
    Job first = leaseOne("w");
    store.release(first.id(), token(first), "w", "shutdown", at(1));
    Job second = leaseOne("w", at(2), at(30));
    store.fail(second.id(), token(second), "w", RETRYABLE, retryAt(at(3)), at(3));
    Job third = leaseOne("w", at(3), at(30));

    assertThat(token(second)).isGreaterThan(token(first));
    assertThat(token(third)).isGreaterThan(token(second));
  }

  @Test
  @Timeout(30)
  void concurrentLeasersNeverShareAJob() throws Exception {
    List<NewJob> jobs = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      jobs.add(job("t" + i).build());
    }
    store.enqueue(jobs, T0);
    ConcurrentLinkedQueue<Long> leased = new ConcurrentLinkedQueue<>();

    runConcurrently(
        8,
        () -> {
          String worker = Thread.currentThread().getName();
          List<Job> batch;
          do {
            batch = store.lease(spec(worker, 3, at(30)), T0);
            batch.forEach(j -> leased.add(j.id()));
          } while (!batch.isEmpty());
        });

    assertThat(leased).hasSize(200).doesNotHaveDuplicates();
    assertThat(store.lease(spec("late", 10, at(30)), T0)).isEmpty();
  }

  // ---- complete, fail, release ---------------------------------------------------------------

  @Test
  void completeStoresTheResultAndEndsTheAttempt() {
    enqueue("t");
    Job leased = leaseOne("w");

    Job done = store.complete(leased.id(), token(leased), "w", utf8("ok"), "text/plain", at(5));

    assertThat(done.state()).isEqualTo(JobState.SUCCEEDED);
    assertThat(done.result()).isEqualTo(utf8("ok"));
    assertThat(done.resultContentType()).isEqualTo("text/plain");
    assertThat(done.finishedAt()).isEqualTo(at(5));
    assertThat(done.lease()).isNull();
    Attempt attempt = last(reload(leased.id()));
    assertThat(attempt.outcome()).isEqualTo(AttemptOutcome.SUCCEEDED);
    assertThat(attempt.endedAt()).isEqualTo(at(5));
    assertThat(store.lease(spec("w", 10, at(60)), at(10))).isEmpty();
  }

  @Test
  void retriedJobGoesToTheTailBehindJobsEnqueuedBeforeTheFailure() {
    enqueue("first");
    Job failing = leaseOne("w");
    long waiting =
        store.enqueue(List.of(job("second").runAt(at(1)).build()), at(1)).get(0).job().id();

    Job retried = store.fail(failing.id(), token(failing), "w", RETRYABLE, retryAt(at(2)), at(2));

    assertThat(retried.state()).isEqualTo(JobState.PENDING);
    assertThat(retried.runAt()).isEqualTo(at(2));
    assertThat(retried.lastError()).isEqualTo("java.net.SocketTimeoutException: read timed out");
    assertThat(retried.lease()).isNull();
    assertThat(retried.finishedAt()).isNull();
    assertThat(ids(store.lease(spec("w", 10, at(60)), at(3))))
        .containsExactly(waiting, failing.id());
    Attempt attempt = reload(failing.id()).history().get(0);
    assertThat(attempt.outcome()).isEqualTo(AttemptOutcome.FAILED_RETRYABLE);
    assertThat(attempt.errorKind()).isEqualTo(ErrorKind.RETRYABLE);
    assertThat(attempt.errorType()).isEqualTo("java.net.SocketTimeoutException");
    assertThat(attempt.errorMessage()).isEqualTo("read timed out");
    assertThat(attempt.stackTrace()).isEqualTo("at x");
    assertThat(attempt.endedAt()).isEqualTo(at(2));
  }

  @Test
  void plannerSeesTheRunningJobWithTheFailedAttemptCounted() {
    enqueue("t");
    Job leased = leaseOne("w");
    AtomicReference<Job> seen = new AtomicReference<>();

    store.fail(
        leased.id(),
        token(leased),
        "w",
        RETRYABLE,
        (job, failure, now) -> {
          seen.set(job);
          return Optional.empty();
        },
        at(1));

    assertThat(seen.get().state()).isEqualTo(JobState.RUNNING);
    assertThat(seen.get().attempts()).isEqualTo(1);
    assertThat(seen.get().lease()).isEqualTo(leased.lease());
  }

  @Test
  void permanentFailureWithoutARetryDeadLettersTheJob() {
    enqueue("t");
    Job leased = leaseOne("w");

    Job failed = store.fail(leased.id(), token(leased), "w", PERMANENT, NEVER_RETRY, at(4));

    assertThat(failed.state()).isEqualTo(JobState.FAILED);
    assertThat(failed.finishedAt()).isEqualTo(at(4));
    assertThat(failed.lastError()).isEqualTo("BadPayload: missing field 'to'");
    Attempt attempt = last(reload(leased.id()));
    assertThat(attempt.outcome()).isEqualTo(AttemptOutcome.FAILED_PERMANENT);
    assertThat(attempt.errorKind()).isEqualTo(ErrorKind.PERMANENT);
  }

  @Test
  void retryableFailureWithoutARetryLeftIsDeadLetteredAsRetryable() {
    enqueue("t");
    Job leased = leaseOne("w");

    Job failed = store.fail(leased.id(), token(leased), "w", RETRYABLE, NEVER_RETRY, at(4));

    assertThat(failed.state()).isEqualTo(JobState.FAILED);
    assertThat(last(reload(leased.id())).outcome()).isEqualTo(AttemptOutcome.FAILED_RETRYABLE);
  }

  @Test
  void plannerExceptionChangesNothing() {
    enqueue("t");
    Job leased = leaseOne("w");
    Job before = reload(leased.id());
    RetryPlanner broken =
        (job, failure, now) -> {
          throw new IllegalStateException("planner bug");
        };

    assertThatThrownBy(() -> store.fail(leased.id(), token(leased), "w", RETRYABLE, broken, at(1)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("planner bug");
    assertThat(reload(leased.id())).usingRecursiveComparison().isEqualTo(before);
  }

  @Test
  void releaseSpendsNoAttemptAndKeepsTheJobsPlace() {
    enqueue("first");
    enqueue("second");
    Job released = leaseOne("w");

    Job after = store.release(released.id(), token(released), "w", "worker shutting down", at(5));

    assertThat(after.state()).isEqualTo(JobState.PENDING);
    assertThat(after.attempts()).isZero();
    assertThat(after.runAt()).isEqualTo(T0);
    assertThat(after.lease()).isNull();
    assertThat(ids(store.lease(spec("w", 1, at(60)), at(6)))).containsExactly(released.id());
    Attempt attempt = reload(released.id()).history().get(0);
    assertThat(attempt.outcome()).isEqualTo(AttemptOutcome.RELEASED);
    assertThat(attempt.errorMessage()).isEqualTo("worker shutting down");
    assertThat(attempt.endedAt()).isEqualTo(at(5));
  }

  @Test
  void releaseOfAJobWithACancelRequestCancelsIt() {
    enqueue("t");
    Job leased = leaseOne("w");
    store.cancel(leased.id(), at(1));

    Job after = store.release(leased.id(), token(leased), "w", "cancelled", at(2));

    assertThat(after.state()).isEqualTo(JobState.CANCELLED);
    assertThat(after.finishedAt()).isEqualTo(at(2));
    assertThat(last(reload(leased.id())).outcome()).isEqualTo(AttemptOutcome.CANCELLED);
  }

  @Test
  void failureOfAJobWithACancelRequestIsNotRetried() {
    enqueue("t");
    Job leased = leaseOne("w");
    store.cancel(leased.id(), at(1));

    Job after = store.fail(leased.id(), token(leased), "w", RETRYABLE, retryAt(at(5)), at(2));

    assertThat(after.state()).isEqualTo(JobState.CANCELLED);
    assertThat(last(reload(leased.id())).outcome()).isEqualTo(AttemptOutcome.FAILED_RETRYABLE);
  }

  // ---- stale tokens ---------------------------------------------------------------------------

  @Test
  void staleHeartbeatIsLostAndOnlyRecorded() {
    Job[] leases = takeOverAfterExpiry();
    Job before = reload(leases[1].id());

    List<HeartbeatResult> results =
        store.heartbeat(
            "worker-a",
            List.of(new LeaseRenewal(before.id(), token(leases[0]), "50%")),
            at(90),
            at(40));

    assertThat(results)
        .containsExactly(
            new HeartbeatResult(before.id(), token(leases[0]), HeartbeatResult.Status.LOST, null));
    assertOnlyRejectionRecorded(before, "worker-a", token(leases[0]));
  }

  @Test
  void staleCompleteIsRejectedAndOnlyRecorded() {
    Job[] leases = takeOverAfterExpiry();
    Job before = reload(leases[1].id());

    assertThatThrownBy(
            () ->
                store.complete(before.id(), token(leases[0]), "worker-a", utf8("x"), null, at(40)))
        .isInstanceOf(LeaseLostException.class);
    assertOnlyRejectionRecorded(before, "worker-a", token(leases[0]));
  }

  @Test
  void staleFailIsRejectedAndOnlyRecorded() {
    Job[] leases = takeOverAfterExpiry();
    Job before = reload(leases[1].id());

    assertThatThrownBy(
            () ->
                store.fail(
                    before.id(), token(leases[0]), "worker-a", PERMANENT, NEVER_RETRY, at(40)))
        .isInstanceOf(LeaseLostException.class);
    assertOnlyRejectionRecorded(before, "worker-a", token(leases[0]));
  }

  @Test
  void staleReleaseIsRejectedAndOnlyRecorded() {
    Job[] leases = takeOverAfterExpiry();
    Job before = reload(leases[1].id());

    assertThatThrownBy(
            () -> store.release(before.id(), token(leases[0]), "worker-a", "shutdown", at(40)))
        .isInstanceOf(LeaseLostException.class);
    assertOnlyRejectionRecorded(before, "worker-a", token(leases[0]));
  }

  @Test
  void finishingAFinishedJobAgainIsRejectedAsStale() {
    enqueue("t");
    Job leased = leaseOne("w");
    store.complete(leased.id(), token(leased), "w", utf8("1"), null, at(1));
    Job before = reload(leased.id());

    assertThatThrownBy(
            () -> store.complete(leased.id(), token(leased), "w", utf8("2"), null, at(2)))
        .isInstanceOf(LeaseLostException.class)
        .satisfies(e -> assertThat(((LeaseLostException) e).jobId()).isEqualTo(leased.id()));
    assertOnlyRejectionRecorded(before, "w", token(leased));
  }

  @Test
  void unknownJobIsNotFound() {
    long missing = 4242;

    assertThatThrownBy(() -> store.complete(missing, 1, "w", null, null, T0))
        .isInstanceOf(JobNotFoundException.class);
    assertThatThrownBy(() -> store.fail(missing, 1, "w", RETRYABLE, NEVER_RETRY, T0))
        .isInstanceOf(JobNotFoundException.class);
    assertThatThrownBy(() -> store.release(missing, 1, "w", "r", T0))
        .isInstanceOf(JobNotFoundException.class);
    assertThatThrownBy(() -> store.cancel(missing, T0)).isInstanceOf(JobNotFoundException.class);
    assertThat(store.get(missing)).isEmpty();
    assertThat(store.expireLease(missing, 1, T0)).isEmpty();
    assertThat(store.heartbeat("w", List.of(new LeaseRenewal(missing, 1, null)), at(30), T0))
        .extracting(HeartbeatResult::status)
        .containsExactly(HeartbeatResult.Status.LOST);
  }

  // ---- lease expiry ---------------------------------------------------------------------------

  @Test
  void expiredLeaseIsTakenBackAndLeasedAgainWithANewToken() {
    enqueue(job("t").runAt(at(-10)).build());
    Job first = leaseOne("worker-a", T0, at(30));

    assertThat(store.expireLeases(at(29), 10)).isEmpty();
    List<Job> expired = store.expireLeases(at(30), 10);

    assertThat(ids(expired)).containsExactly(first.id());
    Job back = expired.get(0);
    assertThat(back.state()).isEqualTo(JobState.PENDING);
    assertThat(back.runAt()).isEqualTo(at(30));
    assertThat(back.leaseExpiries()).isEqualTo(1);
    assertThat(back.lease()).isNull();
    Attempt attempt = reload(first.id()).history().get(0);
    assertThat(attempt.outcome()).isEqualTo(AttemptOutcome.LEASE_EXPIRED);
    assertThat(attempt.endedAt()).isEqualTo(at(30));
    Job second = leaseOne("worker-b", at(31), at(60));
    assertThat(second.id()).isEqualTo(first.id());
    assertThat(token(second)).isNotEqualTo(token(first));
    assertThat(second.attempts()).isEqualTo(2);
    assertThat(second.handlerAttempts()).isEqualTo(1);
  }

  @Test
  void timerExpiryTakesBackOnlyTheCurrentExpiredLease() {
    enqueue("t");
    Job leased = leaseOne("w", T0, at(30));

    assertThat(store.expireLease(leased.id(), token(leased), at(29))).isEmpty();
    assertThat(store.expireLease(leased.id(), token(leased) + 1, at(31))).isEmpty();
    assertThat(reload(leased.id()).state()).isEqualTo(JobState.RUNNING);

    Optional<Job> expired = store.expireLease(leased.id(), token(leased), at(30));
    assertThat(expired).map(Job::state).contains(JobState.PENDING);
    assertThat(last(reload(leased.id())).outcome()).isEqualTo(AttemptOutcome.LEASE_EXPIRED);
  }

  @Test
  void timerExpiryWithAnOldTokenDoesNothing() {
    Job[] leases = takeOverAfterExpiry();
    Job before = reload(leases[1].id());

    assertThat(store.expireLease(before.id(), token(leases[0]), at(100))).isEmpty();
    assertThat(reload(before.id())).usingRecursiveComparison().isEqualTo(before);
  }

  @Test
  void leaseExpiriesUpToTheLimitDeadLetterTheJob() {
    Job stored = enqueue(job("poison").maxLeaseExpiries(2).build());
    Job first = leaseOne("w", T0, at(10));
    store.expireLeases(at(10), 10);
    Job second = leaseOne("w", at(10), at(20));

    List<Job> expired = store.expireLeases(at(20), 10);

    assertThat(ids(expired)).containsExactly(stored.id());
    Job dead = reload(stored.id());
    assertThat(dead.state()).isEqualTo(JobState.FAILED);
    assertThat(dead.lastError()).isEqualTo("lease expired");
    assertThat(dead.leaseExpiries()).isEqualTo(2);
    assertThat(dead.finishedAt()).isEqualTo(at(20));
    assertThat(dead.history())
        .extracting(Attempt::outcome, Attempt::fencingToken)
        .containsExactly(
            tuple(AttemptOutcome.LEASE_EXPIRED, token(first)),
            tuple(AttemptOutcome.LEASE_EXPIRED, token(second)));
  }

  @Test
  void sweepTakesBackAtMostTheLimitLongestExpiredFirst() {
    store.enqueue(List.of(job("a").build(), job("b").build(), job("c").build()), T0);
    long late = leaseOne("w", T0, at(30)).id();
    long early = leaseOne("w", T0, at(10)).id();
    long middle = leaseOne("w", T0, at(20)).id();

    assertThat(ids(store.expireLeases(at(40), 2))).containsExactly(early, middle);
    assertThat(ids(store.expireLeases(at(40), 2))).containsExactly(late);
  }

  @Test
  void expiredLeaseOfAJobWithACancelRequestCancelsIt() {
    enqueue("t");
    Job leased = leaseOne("w", T0, at(30));
    store.cancel(leased.id(), at(1));

    assertThat(store.expireLeases(at(30), 10))
        .extracting(Job::state)
        .containsExactly(JobState.CANCELLED);
  }

  // ---- heartbeat ------------------------------------------------------------------------------

  @Test
  void heartbeatExtendsTheLeaseAndStoresProgress() {
    enqueue("t");
    Job leased = leaseOne("w", T0, at(30));

    List<HeartbeatResult> results =
        store.heartbeat(
            "w", List.of(new LeaseRenewal(leased.id(), token(leased), "40%")), at(60), at(20));

    assertThat(results)
        .containsExactly(
            new HeartbeatResult(
                leased.id(), token(leased), HeartbeatResult.Status.EXTENDED, at(60)));
    Job reloaded = reload(leased.id());
    assertThat(reloaded.lease().expiresAt()).isEqualTo(at(60));
    assertThat(reloaded.progress()).isEqualTo("40%");
    assertThat(store.expireLeases(at(59), 10)).isEmpty();
  }

  @Test
  void heartbeatWithoutProgressKeepsTheLastProgress() {
    enqueue("t");
    Job leased = leaseOne("w");
    store.heartbeat(
        "w", List.of(new LeaseRenewal(leased.id(), token(leased), "40%")), at(60), at(1));

    store.heartbeat(
        "w", List.of(new LeaseRenewal(leased.id(), token(leased), null)), at(70), at(2));

    assertThat(reload(leased.id()).progress()).isEqualTo("40%");
  }

  @Test
  void heartbeatAnswersCancelRequestedOnceCancelIsAsked() {
    enqueue("t");
    Job leased = leaseOne("w");
    store.cancel(leased.id(), at(1));

    List<HeartbeatResult> results =
        store.heartbeat(
            "w", List.of(new LeaseRenewal(leased.id(), token(leased), null)), at(60), at(2));

    assertThat(results)
        .containsExactly(
            new HeartbeatResult(
                leased.id(), token(leased), HeartbeatResult.Status.CANCEL_REQUESTED, at(60)));
  }

  @Test
  void heartbeatRenewsAnExpiredLeaseThatWasNotTakenBack() {
    enqueue("t");
    Job leased = leaseOne("w", T0, at(30));

    List<HeartbeatResult> results =
        store.heartbeat(
            "w", List.of(new LeaseRenewal(leased.id(), token(leased), null)), at(90), at(45));

    assertThat(results)
        .extracting(HeartbeatResult::status)
        .containsExactly(HeartbeatResult.Status.EXTENDED);
    assertThat(store.expireLeases(at(60), 10)).isEmpty();
  }

  @Test
  void heartbeatAnswersEachLeaseOnItsOwn() {
    store.enqueue(List.of(job("a").build(), job("b").build()), T0);
    Job a = leaseOne("w");
    Job b = leaseOne("w");
    store.complete(b.id(), token(b), "w", null, null, at(1));

    List<HeartbeatResult> results =
        store.heartbeat(
            "w",
            List.of(
                new LeaseRenewal(a.id(), token(a), null), new LeaseRenewal(b.id(), token(b), null)),
            at(60),
            at(2));

    assertThat(results)
        .extracting(HeartbeatResult::jobId, HeartbeatResult::status)
        .containsExactly(
            tuple(a.id(), HeartbeatResult.Status.EXTENDED),
            tuple(b.id(), HeartbeatResult.Status.LOST));
  }

  // ---- cancel ---------------------------------------------------------------------------------

  @Test
  void cancelOfAPendingJobCancelsItAtOnce() {
    Job stored = enqueue("t");

    Job cancelled = store.cancel(stored.id(), at(3));

    assertThat(cancelled.state()).isEqualTo(JobState.CANCELLED);
    assertThat(cancelled.finishedAt()).isEqualTo(at(3));
    assertThat(store.lease(spec("w", 10, at(60)), at(4))).isEmpty();
  }

  @Test
  void cancelOfARunningJobFlagsItForItsWorker() {
    enqueue("t");
    Job leased = leaseOne("w");

    Job flagged = store.cancel(leased.id(), at(3));

    assertThat(flagged.state()).isEqualTo(JobState.RUNNING);
    assertThat(flagged.cancelRequested()).isTrue();
    assertThat(flagged.lease()).isEqualTo(leased.lease());
    assertThat(reload(leased.id()).cancelRequested()).isTrue();
  }

  @Test
  void cancelOfAFinishedJobLeavesItAsItIs() {
    enqueue("t");
    Job leased = leaseOne("w");
    store.complete(leased.id(), token(leased), "w", null, null, at(1));
    Job before = reload(leased.id());

    Job after = store.cancel(leased.id(), at(2));

    assertThat(after.state()).isEqualTo(JobState.SUCCEEDED);
    assertThat(reload(leased.id())).usingRecursiveComparison().isEqualTo(before);
  }

  // ---- idempotency ----------------------------------------------------------------------------

  @Test
  void rememberedIdempotencyKeyReturnsTheExistingJob() {
    Job first = enqueue(job("email").key("order-1").build());

    EnqueueResult again =
        store.enqueue(List.of(job("email").key("order-1").build()), at(10)).get(0);

    assertThat(again.deduplicated()).isTrue();
    assertThat(again.job().id()).isEqualTo(first.id());
    assertThat(store.list(new JobQuery(null, null, null, null, 10)).jobs()).hasSize(1);
  }

  @Test
  void idempotencyConflictStoresNothingOfTheBatch() {
    Job first = enqueue(job("email").key("order-1").payload("{\"v\":1}").build());

    List<NewJob> batch =
        List.of(
            job("other").build(),
            job("email").key("order-1").payload("{\"v\":2}").build(),
            job("third").build());
    assertThatThrownBy(() -> store.enqueue(batch, at(1)))
        .isInstanceOf(IdempotencyConflictException.class)
        .hasMessageContaining("order-1");

    assertThat(ids(store.list(new JobQuery(null, null, null, null, 10)).jobs()))
        .containsExactly(first.id());
  }

  @Test
  void sameKeyWithAnotherTypeConflicts() {
    enqueue(job("email").key("k").build());

    assertThatThrownBy(() -> store.enqueue(List.of(job("sms").key("k").build()), at(1)))
        .isInstanceOf(IdempotencyConflictException.class);
  }

  @Test
  void expiredIdempotencyKeyCanBeReused() {
    Job first = enqueue(job("email").key("k", at(60)).payload("{\"v\":1}").build());

    EnqueueResult reused =
        store
            .enqueue(List.of(job("email").key("k", at(200)).payload("{\"v\":2}").build()), at(60))
            .get(0);

    assertThat(reused.deduplicated()).isFalse();
    assertThat(reused.job().id()).isNotEqualTo(first.id());
    EnqueueResult again =
        store.enqueue(List.of(job("email").key("k").payload("{\"v\":2}").build()), at(100)).get(0);
    assertThat(again.deduplicated()).isTrue();
    assertThat(again.job().id()).isEqualTo(reused.job().id());
  }

  @Test
  void sameKeyTwiceInOneBatchDeduplicatesToTheFirst() {
    List<EnqueueResult> results =
        store.enqueue(List.of(job("email").key("k").build(), job("email").key("k").build()), T0);

    assertThat(results.get(0).deduplicated()).isFalse();
    assertThat(results.get(1).deduplicated()).isTrue();
    assertThat(results.get(1).job().id()).isEqualTo(results.get(0).job().id());
  }

  @Test
  void idempotencyKeysAreScopedByQueue() {
    Job inA = enqueue(job("email").queue("a").key("k").build());
    Job inB = enqueue(job("email").queue("b").key("k").payload("{\"other\":true}").build());

    assertThat(inB.id()).isNotEqualTo(inA.id());
  }

  // ---- reads ----------------------------------------------------------------------------------

  @Test
  void listPagesNewestFirst() {
    List<Long> stored = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      stored.add(enqueue("t" + i).id());
    }

    JobPage first = store.list(new JobQuery(null, null, null, null, 2));
    JobPage second = store.list(new JobQuery(null, null, null, first.nextBeforeId(), 2));
    JobPage third = store.list(new JobQuery(null, null, null, second.nextBeforeId(), 2));

    assertThat(ids(first.jobs())).containsExactly(stored.get(4), stored.get(3));
    assertThat(ids(second.jobs())).containsExactly(stored.get(2), stored.get(1));
    assertThat(ids(third.jobs())).containsExactly(stored.get(0));
    assertThat(third.nextBeforeId()).isNull();
    assertThat(first.jobs()).allSatisfy(j -> assertThat(j.history()).isEmpty());
  }

  @Test
  void listFiltersByQueueTypeAndState() {
    long mailEmail = enqueue(job("email").queue("mail").build()).id();
    long mailSms = enqueue(job("sms").queue("mail").build()).id();
    Job running = enqueue("email");
    long otherPending = enqueue(job("email").queue("other").build()).id();
    assertThat(leaseOne("w").id()).isEqualTo(running.id());

    assertThat(ids(store.list(new JobQuery("mail", null, null, null, 10)).jobs()))
        .containsExactly(mailSms, mailEmail);
    assertThat(ids(store.list(new JobQuery("mail", "email", null, null, 10)).jobs()))
        .containsExactly(mailEmail);
    assertThat(ids(store.list(new JobQuery(null, null, JobState.RUNNING, null, 10)).jobs()))
        .containsExactly(running.id());
    assertThat(ids(store.list(new JobQuery(null, "email", JobState.PENDING, null, 10)).jobs()))
        .containsExactly(otherPending, mailEmail);
    assertThat(ids(store.list(new JobQuery("other", "email", JobState.PENDING, null, 10)).jobs()))
        .containsExactly(otherPending);
  }

  @Test
  void statsCountEveryStateAndTheOldestPendingAge() {
    store.enqueue(
        List.of(
            job("old").runAt(at(-50)).build(),
            job("ready").runAt(at(-10)).build(),
            job("future").runAt(at(100)).build(),
            job("run").runAt(at(-100)).build(),
            job("done").runAt(at(-100)).build(),
            job("dead").runAt(at(-100)).build(),
            job("gone").runAt(at(-100)).build(),
            job("elsewhere").queue("other").build()),
        T0);
    List<Job> leased = store.lease(spec("w", 4, at(30)), T0);
    store.complete(leased.get(1).id(), token(leased.get(1)), "w", null, null, T0);
    store.fail(leased.get(2).id(), token(leased.get(2)), "w", PERMANENT, NEVER_RETRY, T0);
    store.release(leased.get(3).id(), token(leased.get(3)), "w", "x", T0);
    store.cancel(leased.get(3).id(), T0);

    List<QueueCounts> stats = store.stats(null, T0);

    assertThat(stats)
        .containsExactly(
            new QueueCounts(QUEUE, 2, 1, 1, 1, 1, 1, Duration.ofSeconds(50)),
            new QueueCounts("other", 1, 0, 0, 0, 0, 0, Duration.ZERO));
    assertThat(store.stats("other", at(7)))
        .containsExactly(new QueueCounts("other", 1, 0, 0, 0, 0, 0, Duration.ofSeconds(7)));
  }

  @Test
  void statsOfAnUnknownQueueAreZero() {
    assertThat(store.stats("nothing-here", T0))
        .containsExactly(new QueueCounts("nothing-here", 0, 0, 0, 0, 0, 0, Duration.ZERO));
  }

  @Test
  void runningLeasesListsEveryLeaseHeld() {
    store.enqueue(List.of(job("a").build(), job("b").build(), job("c").build()), T0);
    Job a = leaseOne("w", T0, at(30));
    Job b = leaseOne("w", T0, at(20));
    Job c = leaseOne("w", T0, at(40));
    store.complete(c.id(), token(c), "w", null, null, at(1));

    assertThat(store.runningLeases())
        .containsExactlyInAnyOrder(
            new LeaseRef(a.id(), token(a), at(30)), new LeaseRef(b.id(), token(b), at(20)));
  }

  @Test
  void closedStoreRefusesCalls() {
    Job stored = enqueue("t");
    store.close();

    assertThatThrownBy(() -> enqueue("t")).isInstanceOf(StoreUnavailableException.class);
    assertThatThrownBy(() -> store.get(stored.id())).isInstanceOf(StoreUnavailableException.class);
    assertThatThrownBy(() -> store.lease(spec("w", 1, at(30)), T0))
        .isInstanceOf(StoreUnavailableException.class);
    store.close();
  }

  // ---- concurrency helper ---------------------------------------------------------------------

  /** Starts the task on {@code threads} threads at once and waits for all of them. */
  protected static void runConcurrently(int threads, ThrowingRunnable task) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      CountDownLatch ready = new CountDownLatch(threads);
      CountDownLatch start = new CountDownLatch(1);
      List<Future<?>> futures = new ArrayList<>();
      for (int i = 0; i < threads; i++) {
        futures.add(
            pool.submit(
                () -> {
                  ready.countDown();
                  assertThat(start.await(10, TimeUnit.SECONDS)).isTrue();
                  task.run();
                  return null;
                }));
      }
      assertThat(ready.await(10, TimeUnit.SECONDS)).as("all threads ready").isTrue();
      start.countDown();
      for (Future<?> future : futures) {
        future.get(20, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
      assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }
  }

  /** A task that may throw, for {@link #runConcurrently}. */
  @FunctionalInterface
  protected interface ThrowingRunnable {
    void run() throws Exception;
  }
}
