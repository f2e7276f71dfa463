package io.antrean.coordinator.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import io.antrean.coordinator.job.AttemptOutcome;
import io.antrean.coordinator.job.ErrorKind;
import io.antrean.coordinator.job.Failure;
import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.job.JobState;
import io.antrean.coordinator.store.Completion;
import io.antrean.coordinator.store.CompletionOutcome;
import io.antrean.coordinator.store.HeartbeatResult;
import io.antrean.coordinator.store.JobStore;
import io.antrean.coordinator.store.LeaseClaim;
import io.antrean.coordinator.store.LeaseLostException;
import io.antrean.coordinator.store.LeaseRenewal;
import io.antrean.coordinator.store.StoreFutures;
import io.antrean.coordinator.store.sqlite.SqliteJobStore;
import io.antrean.coordinator.store.sqlite.SqliteOptions;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import javax.annotation.Nullable;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The scheduling core on a real store, driven by a fake clock and runOnce(now) duties. */
@Timeout(30)
class JobSchedulerTest {
  private static final byte[] JSON = "{}".getBytes(StandardCharsets.UTF_8);

  @TempDir Path dir;
  private final MutableClock clock = new MutableClock(Instant.parse("2026-11-30T10:00:00Z"));
  private final ScheduledExecutorService timers = Executors.newSingleThreadScheduledExecutor();
  private final ExecutorService dispatch = Executors.newFixedThreadPool(2);
  private final RecoveryCounters counters = new RecoveryCounters();
  private JobStore store;
  private JobScheduler scheduler;
  private LeaseExpiryDuty expiry;
  private BackupSweep sweep;

  @BeforeEach
  void start() {
    store = SqliteJobStore.open(dir, SqliteOptions.defaults());
    scheduler =
        new JobScheduler(
            store, Settings.defaults(), clock, new JitteredBackoff(() -> 0.5), timers, dispatch);
    expiry = scheduler.leaseExpiryDuty(counters);
    sweep = scheduler.backupSweep(counters);
  }

  @AfterEach
  void stop() {
    timers.shutdownNow();
    dispatch.shutdownNow();
    store.close();
  }

  private Job leaseOne(String worker, Duration ttl) throws Exception {
    List<Job> jobs =
        scheduler.lease(new LeaseCommand(worker, "", List.of(), 1, ttl, Duration.ZERO)).get();
    assertThat(jobs).hasSize(1);
    return jobs.get(0);
  }

  @Test
  void expiredLeaseIsTakenBackByItsTimerAndCountedAsSuch() throws Exception {
    long id = enqueueOne();
    Job leased = leaseOne("w1", Duration.ofSeconds(10));
    clock.advance(Duration.ofSeconds(9));
    assertThat(expiry.runOnce(clock.instant())).isZero();
    clock.advance(Duration.ofSeconds(1));
    assertThat(expiry.runOnce(clock.instant())).isEqualTo(1);
    assertThat(sweep.runOnce(clock.instant())).isZero();
    assertThat(counters.expiredByTimer()).isEqualTo(1);
    assertThat(counters.expiredBySweep()).isZero();
    Job back = scheduler.get(id);
    assertThat(back.state()).isEqualTo(JobState.PENDING);
    assertThat(back.history())
        .extracting(a -> a.outcome())
        .containsExactly(AttemptOutcome.LEASE_EXPIRED);
    assertThat(leaseOne("w2", Duration.ofSeconds(10)).lease().fencingToken())
        .isNotEqualTo(leased.lease().fencingToken());
  }

  @Test
  void heartbeatMovesTheTimerSoTheRenewedLeaseDoesNotExpire() throws Exception {
    StoreFutures.join(scheduler.enqueueAsync(EnqueueCommand.of("", "t", JSON)));
    Job leased = leaseOne("w1", Duration.ofSeconds(10));
    clock.advance(Duration.ofSeconds(8));
    List<HeartbeatResult> answer =
        scheduler.heartbeat(
            "w1",
            List.of(new LeaseRenewal(leased.id(), LeaseClaim.of(leased), "half way")),
            Duration.ofSeconds(10));
    assertThat(answer)
        .extracting(HeartbeatResult::status)
        .containsExactly(HeartbeatResult.Status.EXTENDED);
    clock.advance(Duration.ofSeconds(5));
    assertThat(expiry.runOnce(clock.instant())).isZero();
    assertThat(scheduler.get(leased.id()).progress()).isEqualTo("half way");
    clock.advance(Duration.ofSeconds(5));
    assertThat(expiry.runOnce(clock.instant())).isEqualTo(1);
  }

  @Test
  void sweepTakesBackLeasesTheTimersDoNotKnow() throws Exception {
    StoreFutures.join(scheduler.enqueueAsync(EnqueueCommand.of("", "t", JSON)));
    leaseOne("w1", Duration.ofSeconds(10));
    // A restarted coordinator on the same store, before it restarts its timers.
    JobScheduler restarted =
        new JobScheduler(
            store, Settings.defaults(), clock, new JitteredBackoff(() -> 0.5), timers, dispatch);
    clock.advance(Duration.ofSeconds(11));
    assertThat(restarted.leaseExpiryDuty(counters).runOnce(clock.instant())).isZero();
    assertThat(restarted.backupSweep(counters).runOnce(clock.instant())).isEqualTo(1);
    assertThat(counters.expiredBySweep()).isEqualTo(1);
  }

  @Test
  void aLastLeaseExpiryDeadLettersTheJobWhetherTheTimerOrTheSweepFindsIt() throws Exception {
    List<String> timerSaw = new CopyOnWriteArrayList<>();
    List<String> sweepSaw = new CopyOnWriteArrayList<>();
    JobScheduler withTimer = scheduler(timerSaw);
    JobScheduler restarted = scheduler(sweepSaw);
    EnqueueCommand once =
        new EnqueueCommand(
            "", "t", JSON, "", 0, null, null, "", new RetryOverride(null, null, null, null, 1), "");
    long byTimer = StoreFutures.join(withTimer.enqueueAsync(once)).job().id();
    withTimer
        .lease(new LeaseCommand("w", "", List.of(), 1, Duration.ofSeconds(5), Duration.ZERO))
        .get();
    long bySweep = StoreFutures.join(withTimer.enqueueAsync(once)).job().id();
    withTimer
        .lease(new LeaseCommand("w", "", List.of(), 1, Duration.ofSeconds(60), Duration.ZERO))
        .get();

    clock.advance(Duration.ofSeconds(6));
    assertThat(withTimer.leaseExpiryDuty(counters).runOnce(clock.instant())).isEqualTo(1);
    clock.advance(Duration.ofSeconds(60));
    assertThat(restarted.backupSweep(counters).runOnce(clock.instant())).isEqualTo(1);

    assertThat(timerSaw).containsExactly("expired " + byTimer, "dead-lettered " + byTimer);
    assertThat(sweepSaw).containsExactly("expired " + bySweep, "dead-lettered " + bySweep);
    assertThat(scheduler.get(bySweep).state()).isEqualTo(JobState.FAILED);
  }

  private JobScheduler scheduler(List<String> seen) {
    return new JobScheduler(
        store,
        Settings.defaults(),
        clock,
        new JitteredBackoff(() -> 0.5),
        timers,
        dispatch,
        new SchedulerEvents() {
          @Override
          public void onLeaseExpired(Job job) {
            seen.add("expired " + job.id());
          }

          @Override
          public void onDeadLettered(Job job) {
            seen.add("dead-lettered " + job.id());
          }

          @Override
          public void onCompleted(long jobId, String queue, @Nullable Duration runTime) {
            seen.add("completed " + jobId + " in " + queue + (runTime == null ? "" : " timed"));
          }
        });
  }

  @Test
  void aCompleteBatchTellsEachJobItCompletedOnceWithItsQueueAndNotItsRepeats() throws Exception {
    List<String> seen = new CopyOnWriteArrayList<>();
    JobScheduler told = scheduler(seen);
    enqueueOne();
    enqueueOne();
    List<Job> leased =
        told.lease(new LeaseCommand("w1", "", List.of(), 2, Duration.ofSeconds(30), Duration.ZERO))
            .get();
    List<Completion> both =
        leased.stream().map(j -> new Completion(j.id(), LeaseClaim.of(j), JSON, null)).toList();

    StoreFutures.join(told.completeAll("w1", both));
    List<CompletionOutcome> again = StoreFutures.join(told.completeAll("w1", both));

    assertThat(again)
        .extracting(CompletionOutcome::status, CompletionOutcome::repeat)
        .containsOnly(tuple(CompletionOutcome.Status.COMPLETED, true));
    assertThat(seen)
        .containsExactlyInAnyOrder(
            "completed " + leased.get(0).id() + " in " + leased.get(0).queue() + " timed",
            "completed " + leased.get(1).id() + " in " + leased.get(1).queue() + " timed");
  }

  @Test
  void retryableFailureIsRetriedAfterBackoffThenDeadLetteredWhenAttemptsRunOut() throws Exception {
    EnqueueCommand cmd =
        new EnqueueCommand(
            "",
            "t",
            JSON,
            "",
            0,
            null,
            null,
            "",
            new RetryOverride(2, Duration.ofSeconds(2), 2.0, Duration.ofMinutes(1), null),
            "");
    long id = StoreFutures.join(scheduler.enqueueAsync(cmd)).job().id();
    Job first = leaseOne("w", Duration.ofSeconds(30));
    Failure timeout =
        new Failure(ErrorKind.RETRYABLE, "java.net.SocketTimeoutException", "slow", null, null);
    Job retried = scheduler.fail(id, LeaseClaim.of(first), "w", timeout);
    assertThat(retried.state()).isEqualTo(JobState.PENDING);
    assertThat(retried.runAt()).isEqualTo(clock.instant().plusSeconds(1)); // half of the 2 s cap
    assertThat(scheduler.lease(new LeaseCommand("w", "", List.of(), 1, null, Duration.ZERO)).get())
        .as("not before its backoff")
        .isEmpty();
    clock.advance(Duration.ofSeconds(1));
    Job second = leaseOne("w", Duration.ofSeconds(30));
    Job dead = scheduler.fail(id, LeaseClaim.of(second), "w", timeout);
    assertThat(dead.state()).isEqualTo(JobState.FAILED);
    assertThat(scheduler.get(id).history())
        .extracting(a -> a.outcome())
        .containsExactly(AttemptOutcome.FAILED_RETRYABLE, AttemptOutcome.FAILED_RETRYABLE);
  }

  @Test
  void staleTokenIsRejectedOnCompleteAndNothingChanges() throws Exception {
    long id = enqueueOne();
    Job leased = leaseOne("w1", Duration.ofSeconds(1));
    clock.advance(Duration.ofSeconds(2));
    expiry.runOnce(clock.instant());
    Job again = leaseOne("w2", Duration.ofSeconds(30));
    assertThatThrownBy(
            () ->
                StoreFutures.join(
                    scheduler.completeAsync(id, LeaseClaim.of(leased), "w1", JSON, null)))
        .isInstanceOf(LeaseLostException.class);
    assertThat(scheduler.get(id).state()).isEqualTo(JobState.RUNNING);
    StoreFutures.join(scheduler.completeAsync(id, LeaseClaim.of(again), "w2", JSON, null));
    assertThat(scheduler.get(id).state()).isEqualTo(JobState.SUCCEEDED);
  }

  @Test
  void enqueueWakesAWaitingLeaseCall() throws Exception {
    CompletableFuture<List<Job>> waiting =
        scheduler.lease(new LeaseCommand("w", "", List.of(), 1, null, Duration.ofSeconds(20)));
    assertThat(waiting).isNotDone();
    assertThat(scheduler.waitingLeaseCalls()).isEqualTo(1);
    long id = enqueueOne();
    assertThat(waiting.get(5, TimeUnit.SECONDS)).extracting(Job::id).containsExactly(id);
  }

  @Test
  void leaseRejectsBadInputWithEveryField() {
    assertThatThrownBy(
            () ->
                scheduler.lease(
                    new LeaseCommand(
                        "",
                        "no spaces",
                        List.of(),
                        10_000,
                        Duration.ofSeconds(-1),
                        Duration.ofSeconds(-1))))
        .isInstanceOfSatisfying(
            ValidationException.class,
            e ->
                assertThat(e.violations())
                    .extracting(FieldViolation::field)
                    .containsExactlyInAnyOrder(
                        "worker_id", "queue", "max_jobs", "lease_ttl", "wait"));
  }

  private long enqueueOne() {
    return StoreFutures.join(scheduler.enqueueAsync(EnqueueCommand.of("", "t", JSON))).job().id();
  }

  private CompletableFuture<List<Job>> leaseAllNow() {
    return scheduler.lease(
        new LeaseCommand("w1", "", List.of(), 10, Duration.ofSeconds(30), Duration.ZERO));
  }

  @Test
  void jobsLeasedForALeaseCancelledMeanwhileArePendingAgainWithNothingSpent() throws Exception {
    long id = enqueueOne();
    CompletableFuture<List<Job>> leasing = new CompletableFuture<>();
    CompletableFuture<List<Job>> answer = scheduler.unclaimedLeases().givenBackIfCancelled(leasing);

    assertThat(answer.cancel(false)).isTrue();
    // The store's lease commits after its caller went away.
    leasing.complete(leaseAllNow().get(10, TimeUnit.SECONDS));

    Awaitility.await("the job handed back")
        .atMost(Duration.ofSeconds(10))
        .until(() -> scheduler.get(id).state() == JobState.PENDING);
    Job back = scheduler.get(id);
    assertThat(back.leaseExpiries()).isZero();
    assertThat(back.handlerAttempts()).isZero();
    assertThat(back.history())
        .extracting(a -> a.outcome() + ":" + a.errorMessage())
        .containsExactly("RELEASED:" + UnclaimedLeases.REASON);
    assertThat(leaseAllNow().get(10, TimeUnit.SECONDS)).extracting(Job::id).containsExactly(id);
  }

  @Test
  void aLeaseNotCancelledKeepsItsJobs() throws Exception {
    long id = enqueueOne();
    CompletableFuture<List<Job>> leasing = new CompletableFuture<>();
    CompletableFuture<List<Job>> answer = scheduler.unclaimedLeases().givenBackIfCancelled(leasing);

    leasing.complete(leaseAllNow().get(10, TimeUnit.SECONDS));

    assertThat(answer.get()).extracting(Job::id).containsExactly(id);
    assertThat(scheduler.get(id).state()).isEqualTo(JobState.RUNNING);
  }

  @Test
  void aJobHandedBackAfterItFinishedStaysFinished() throws Exception {
    long id = enqueueOne();
    Job leased = leaseAllNow().get(10, TimeUnit.SECONDS).get(0);
    scheduler
        .completeAsync(id, LeaseClaim.of(leased), "w1", JSON, "application/json")
        .get(10, TimeUnit.SECONDS);

    scheduler.unclaimedLeases().giveBack(List.of(leased));

    // Refused as any report on a lease that ended is, and recorded as such.
    Awaitility.await("the hand-back refused")
        .atMost(Duration.ofSeconds(10))
        .until(() -> scheduler.get(id).history().size() == 2);
    Job done = scheduler.get(id);
    assertThat(done.state()).isEqualTo(JobState.SUCCEEDED);
    assertThat(done.result()).isEqualTo(JSON);
    assertThat(done.history())
        .extracting(a -> a.outcome())
        .containsExactly(AttemptOutcome.SUCCEEDED, AttemptOutcome.STALE_COMPLETION_REJECTED);
  }
}
