package io.antrean.coordinator.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.job.JobState;
import io.antrean.coordinator.job.RetryPolicy;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
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
    CompletableFuture<List<Job>> second = longPoll.await(plan(Set.of()), Duration.ofSeconds(30));
    leaser.answerNext(List.of()); // second's own look

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
    return new LeasePlan("w", "q", types, 1, Duration.ofSeconds(30));
  }

  private static Job job(long id) {
    Instant t = Instant.parse("2026-11-30T10:00:00Z");
    return new Job(
        id,
        "q",
        "t",
        new byte[0],
        "application/json",
        0,
        t,
        null,
        RetryPolicy.DEFAULT,
        1,
        0,
        0,
        JobState.RUNNING,
        null,
        null,
        null,
        t,
        t,
        null,
        null,
        null,
        false,
        List.of(),
        null,
        null);
  }

  /** Hands out jobs from a list, one per lease. */
  private static final class FakeLeaser implements LongPoll.Leaser {
    final ConcurrentLinkedQueue<Job> ready = new ConcurrentLinkedQueue<>();
    final List<Job> givenBack = Collections.synchronizedList(new ArrayList<>());

    /** When set, each lease answers only when the test completes it (see {@link #held}). */
    volatile boolean holdAnswers;

    final LinkedBlockingQueue<CompletableFuture<List<Job>>> held = new LinkedBlockingQueue<>();

    void answerNext(List<Job> jobs) throws InterruptedException {
      CompletableFuture<List<Job>> next = held.poll(5, TimeUnit.SECONDS);
      assertThat(next).as("a lease waiting for its answer").isNotNull();
      next.complete(jobs);
    }

    @Override
    public CompletableFuture<List<Job>> lease(LeasePlan plan) {
      if (holdAnswers) {
        CompletableFuture<List<Job>> answer = new CompletableFuture<>();
        held.add(answer);
        return answer;
      }
      Job j = ready.poll();
      return CompletableFuture.completedFuture(j == null ? List.of() : List.of(j));
    }

    @Override
    public void giveBack(List<Job> jobs) {
      givenBack.addAll(jobs);
    }
  }
}
