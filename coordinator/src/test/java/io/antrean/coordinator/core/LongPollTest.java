package io.antrean.coordinator.core;

import static io.antrean.coordinator.core.FakeLeaser.job;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.antrean.coordinator.job.Job;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class LongPollTest {
  private final ScheduledExecutorService timeouts = Executors.newSingleThreadScheduledExecutor();
  private final ExecutorService dispatch = Executors.newFixedThreadPool(2);
  private final FakeLeaser leaser = new FakeLeaser();
  private final AtomicInteger passesRun = new AtomicInteger();
  private final LongPoll longPoll =
      new LongPoll(
          leaser,
          task ->
              dispatch.execute(
                  () -> {
                    task.run();
                    passesRun.incrementAndGet();
                  }),
          timeouts);

  @AfterEach
  void stop() {
    timeouts.shutdownNow();
    dispatch.shutdownNow();
  }

  @Test
  void waitingCallGetsTheJobAsSoonAsItIsReady() throws Exception {
    CompletableFuture<List<Job>> call = longPoll.await(plan(Set.of()), Duration.ofSeconds(30));
    assertThat(call).isNotDone();
    leaser.ready.add(job(7));
    longPoll.jobsReady("q");
    assertThat(call.get(5, TimeUnit.SECONDS)).extracting(Job::id).containsExactly(7L);
    assertThat(longPoll.waiting()).isZero();
  }

  @Test
  void waitingCallAnswersEmptyAfterItsWait() throws Exception {
    CompletableFuture<List<Job>> call = longPoll.await(plan(Set.of()), Duration.ofMillis(50));
    assertThat(call.get(5, TimeUnit.SECONDS)).isEmpty();
    assertThat(longPoll.waiting()).isZero();
  }

  @Test
  void jobReadyBeforeRegistrationIsFoundByTheSecondLook() throws Exception {
    leaser.ready.add(job(3));
    CompletableFuture<List<Job>> call = longPoll.await(plan(Set.of()), Duration.ofSeconds(30));
    assertThat(call.get(5, TimeUnit.SECONDS)).extracting(Job::id).containsExactly(3L);
  }

  @Test
  void waitersAreServedInArrivalOrderOneJobEach() throws Exception {
    CompletableFuture<List<Job>> first = longPoll.await(plan(Set.of()), Duration.ofSeconds(30));
    CompletableFuture<List<Job>> second = longPoll.await(plan(Set.of()), Duration.ofSeconds(30));
    leaser.ready.add(job(1));
    longPoll.jobsReady("q");
    assertThat(first.get(5, TimeUnit.SECONDS)).extracting(Job::id).containsExactly(1L);
    assertThat(second).isNotDone();
    leaser.ready.add(job(2));
    longPoll.jobsReady("q");
    assertThat(second.get(5, TimeUnit.SECONDS)).extracting(Job::id).containsExactly(2L);
  }

  @Test
  void aLeaseThatTookFewerJobsThanAskedSparesTheWaitersOfItsTypes() throws Exception {
    CompletableFuture<List<Job>> first =
        longPoll.await(plan(Set.of("t"), 5), Duration.ofSeconds(30));
    CompletableFuture<List<Job>> second =
        longPoll.await(plan(Set.of("t"), 5), Duration.ofSeconds(30));
    int ownLooks = leaser.leases.get();
    leaser.ready.add(job(1));

    longPoll.jobsReady("q");

    assertThat(first.get(5, TimeUnit.SECONDS)).extracting(Job::id).containsExactly(1L);
    await().atMost(Duration.ofSeconds(5)).until(() -> passesRun.get() == 1);
    // The first lease asked for five and got one: nothing else of type t was ready.
    assertThat(leaser.leases.get() - ownLooks).isEqualTo(1);
    assertThat(second).isNotDone();
    leaser.ready.add(job(2));
    longPoll.jobsReady("q");
    assertThat(second.get(5, TimeUnit.SECONDS)).extracting(Job::id).containsExactly(2L);
  }

  @Test
  void aLeaseCutShortByThePayloadBudgetLeavesTheNextWaiterToBeAsked() throws Exception {
    CompletableFuture<List<Job>> first =
        longPoll.await(plan(Set.of("t"), 5), Duration.ofSeconds(30));
    CompletableFuture<List<Job>> second =
        longPoll.await(plan(Set.of("t"), 5), Duration.ofSeconds(30));
    int mebibyte = 1024 * 1024;
    for (long id = 1; id <= 3; id++) {
      leaser.ready.add(job(id, "t", mebibyte));
    }

    longPoll.jobsReady("q");

    // The first asked for five and got two: the budget, not the queue, ended its lease.
    assertThat(first.get(5, TimeUnit.SECONDS)).extracting(Job::id).containsExactly(1L, 2L);
    assertThat(second.get(5, TimeUnit.SECONDS)).extracting(Job::id).containsExactly(3L);
  }

  @Test
  void waitersTakingOtherTypesAreStillAskedInThatPass() throws Exception {
    CompletableFuture<List<Job>> onlyT =
        longPoll.await(plan(Set.of("t"), 5), Duration.ofSeconds(30));
    CompletableFuture<List<Job>> alsoT =
        longPoll.await(plan(Set.of("t"), 5), Duration.ofSeconds(30));
    CompletableFuture<List<Job>> tOrU =
        longPoll.await(plan(Set.of("t", "u"), 5), Duration.ofSeconds(30));
    int ownLooks = leaser.leases.get();
    leaser.ready.add(job(1, "t"));
    leaser.ready.add(job(2, "u"));

    longPoll.jobsReady("q");

    assertThat(onlyT.get(5, TimeUnit.SECONDS)).extracting(Job::id).containsExactly(1L);
    assertThat(tOrU.get(5, TimeUnit.SECONDS)).extracting(Job::id).containsExactly(2L);
    await().atMost(Duration.ofSeconds(5)).until(() -> passesRun.get() == 1);
    assertThat(leaser.leases.get() - ownLooks).isEqualTo(2);
    assertThat(alsoT).isNotDone();
  }

  @Test
  void aLeaseForAnyTypeThatTookFewerThanAskedEndsThePass() throws Exception {
    CompletableFuture<List<Job>> any = longPoll.await(plan(Set.of(), 5), Duration.ofSeconds(30));
    CompletableFuture<List<Job>> onlyU =
        longPoll.await(plan(Set.of("u"), 5), Duration.ofSeconds(30));
    int ownLooks = leaser.leases.get();
    leaser.ready.add(job(1, "t"));

    longPoll.jobsReady("q");

    assertThat(any.get(5, TimeUnit.SECONDS)).extracting(Job::id).containsExactly(1L);
    await().atMost(Duration.ofSeconds(5)).until(() -> passesRun.get() == 1);
    assertThat(leaser.leases.get() - ownLooks).isEqualTo(1);
    assertThat(onlyU).isNotDone();
  }

  @Test
  void aLeaseThatGotAllItAskedForLeavesTheNextWaiterToBeAsked() throws Exception {
    CompletableFuture<List<Job>> first =
        longPoll.await(plan(Set.of("t"), 1), Duration.ofSeconds(30));
    CompletableFuture<List<Job>> second =
        longPoll.await(plan(Set.of("t"), 1), Duration.ofSeconds(30));
    leaser.ready.add(job(1));
    leaser.ready.add(job(2));

    longPoll.jobsReady("q");

    assertThat(first.get(5, TimeUnit.SECONDS)).extracting(Job::id).containsExactly(1L);
    assertThat(second.get(5, TimeUnit.SECONDS)).extracting(Job::id).containsExactly(2L);
  }

  @Test
  void serveFirstSaysWhetherItsLeaseTookEveryReadyJobOfTheTypes() throws Exception {
    CompletableFuture<List<Job>> tOrU =
        longPoll.await(plan(Set.of("t", "u"), 5), Duration.ofSeconds(30));
    CompletableFuture<List<Job>> onlyT =
        longPoll.await(plan(Set.of("t"), 5), Duration.ofSeconds(30));
    CompletableFuture<List<Job>> full =
        longPoll.await(plan(Set.of("v"), 1), Duration.ofSeconds(30));
    leaser.ready.add(job(1, "t"));
    leaser.ready.add(job(2, "v"));
    leaser.ready.add(job(3, "v"));

    assertThat(longPoll.serveFirst("q", Set.of("t")).get(5, TimeUnit.SECONDS)).isTrue();
    assertThat(tOrU.get(5, TimeUnit.SECONDS)).extracting(Job::id).containsExactly(1L);
    // The only waiter for t takes no u: others may want the u jobs, whatever it took.
    leaser.ready.add(job(4, "t"));
    assertThat(longPoll.serveFirst("q", Set.of("t", "u")).get(5, TimeUnit.SECONDS)).isFalse();
    assertThat(onlyT.get(5, TimeUnit.SECONDS)).extracting(Job::id).containsExactly(4L);
    // A lease that got all it asked for cannot tell whether more was ready.
    assertThat(longPoll.serveFirst("q", Set.of("v")).get(5, TimeUnit.SECONDS)).isFalse();
    assertThat(full.get(5, TimeUnit.SECONDS)).extracting(Job::id).containsExactly(2L);
    // No waiter at all.
    assertThat(longPoll.serveFirst("q", Set.of("v")).get(5, TimeUnit.SECONDS)).isFalse();
  }

  @Test
  void aNewWaiterDoesNotLookWhileNothingWasAnnouncedSinceALeaseTookAllOfItsTypes()
      throws Exception {
    CompletableFuture<List<Job>> first =
        longPoll.await(plan(Set.of("t"), 5), Duration.ofSeconds(30));
    assertThat(leaser.leases.get()).isEqualTo(1);

    CompletableFuture<List<Job>> second =
        longPoll.await(plan(Set.of("t"), 5), Duration.ofSeconds(30));

    assertThat(leaser.leases.get()).isEqualTo(1);
    leaser.ready.add(job(1));
    leaser.ready.add(job(2));
    longPoll.jobsReady("q");
    assertThat(first.get(5, TimeUnit.SECONDS)).extracting(Job::id).containsExactly(1L, 2L);
    assertThat(second).isNotDone();
  }

  @Test
  void aNewWaiterLooksOnceAJobWasAnnouncedSinceThatLease() throws Exception {
    CompletableFuture<List<Job>> first =
        longPoll.await(plan(Set.of("t"), 5), Duration.ofSeconds(30));
    first.cancel(false);
    // Announced while nobody waits: no pass serves it, so the next waiter must look itself.
    leaser.ready.add(job(1));
    longPoll.jobsReady("q");

    CompletableFuture<List<Job>> second =
        longPoll.await(plan(Set.of("t"), 5), Duration.ofSeconds(30));

    assertThat(second.get(5, TimeUnit.SECONDS)).extracting(Job::id).containsExactly(1L);
  }

  @Test
  void aLeaseThatTookAllOfOtherTypesDoesNotSpareTheLook() throws Exception {
    longPoll.await(plan(Set.of("t"), 5), Duration.ofSeconds(30));
    leaser.ready.add(job(1, "u"));

    CompletableFuture<List<Job>> tOrU =
        longPoll.await(plan(Set.of("t", "u"), 5), Duration.ofSeconds(30));
    CompletableFuture<List<Job>> any = longPoll.await(plan(Set.of(), 5), Duration.ofSeconds(30));

    assertThat(tOrU.get(5, TimeUnit.SECONDS)).extracting(Job::id).containsExactly(1L);
    assertThat(leaser.leases.get()).isEqualTo(3);
    assertThat(any).isNotDone();
  }

  @Test
  void cancelledCallStopsWaitingAndGetsNothing() {
    CompletableFuture<List<Job>> call = longPoll.await(plan(Set.of()), Duration.ofSeconds(30));
    call.cancel(false);
    assertThat(longPoll.waiting()).isZero();
    leaser.ready.add(job(9));
    longPoll.jobsReady("q");
    assertThat(leaser.ready).hasSize(1);
  }

  @Test
  void releaseAllAnswersEveryWaiterEmpty() throws Exception {
    CompletableFuture<List<Job>> a = longPoll.await(plan(Set.of()), Duration.ofSeconds(30));
    CompletableFuture<List<Job>> b = longPoll.await(plan(Set.of("x")), Duration.ofSeconds(30));
    longPoll.releaseAll();
    assertThat(a.get(5, TimeUnit.SECONDS)).isEmpty();
    assertThat(b.get(5, TimeUnit.SECONDS)).isEmpty();
  }

  @Test
  void leasesAnsweredLaterServeOneWaiterAtATimeInArrivalOrder() throws Exception {
    leaser.holdAnswers = true;
    CompletableFuture<List<Job>> first = longPoll.await(plan(Set.of()), Duration.ofSeconds(30));
    leaser.answerNext(List.of()); // first's own look
    // Nothing was announced since that look took all there was: the second does not look.
    CompletableFuture<List<Job>> second = longPoll.await(plan(Set.of()), Duration.ofSeconds(30));
    assertThat(leaser.held).isEmpty();

    longPoll.jobsReady("q");

    await().atMost(Duration.ofSeconds(5)).until(() -> leaser.held.size() == 1);
    assertThat(first).isNotDone();
    leaser.answerNext(List.of(job(1)));
    assertThat(first.get(5, TimeUnit.SECONDS)).extracting(Job::id).containsExactly(1L);
    // Only now is the second waiter asked for.
    await().atMost(Duration.ofSeconds(5)).until(() -> leaser.held.size() == 1);
    leaser.answerNext(List.of());
    assertThat(second).isNotDone();
    assertThat(longPoll.waiting()).isEqualTo(1);
  }

  @Test
  void aSignalThatCameWhileTheWaitersOwnLookWasOnItsWayIsNotLost() throws Exception {
    leaser.holdAnswers = true;
    CompletableFuture<List<Job>> call = longPoll.await(plan(Set.of()), Duration.ofSeconds(30));
    await().atMost(Duration.ofSeconds(5)).until(() -> leaser.held.size() == 1);
    // A job commits and is signalled while the first look is still on its way (it looked too
    // early): the pass skips the claimed waiter.
    longPoll.jobsReady("q");
    await().atMost(Duration.ofSeconds(5)).until(() -> passesRun.get() == 1);

    leaser.answerNext(List.of());

    leaser.answerNext(List.of(job(5)));
    assertThat(call.get(5, TimeUnit.SECONDS)).extracting(Job::id).containsExactly(5L);
  }

  @Test
  void aFailedLeaseFailsOnlyItsWaiter() throws Exception {
    leaser.holdAnswers = true;
    CompletableFuture<List<Job>> call = longPoll.await(plan(Set.of()), Duration.ofSeconds(30));

    leaser.held.take().completeExceptionally(new IllegalStateException("store down"));

    assertThat(call)
        .failsWithin(5, TimeUnit.SECONDS)
        .withThrowableOfType(java.util.concurrent.ExecutionException.class)
        .withCauseInstanceOf(IllegalStateException.class);
    assertThat(longPoll.waiting()).isZero();
  }

  private static LeasePlan plan(Set<String> types) {
    return plan(types, 1);
  }

  private static LeasePlan plan(Set<String> types, int maxJobs) {
    return new LeasePlan("w", "q", types, maxJobs, Duration.ofSeconds(30));
  }
}
