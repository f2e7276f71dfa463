package io.antrean.coordinator.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.job.TestJobRecords;
import io.antrean.coordinator.store.AnswerBudget;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@link LongPoll}'s leaser for its tests: hands out the jobs of a list in order, as many as a
 * lease asks for and the store's {@link AnswerBudget} lets one answer carry.
 */
final class FakeLeaser implements LongPoll.Leaser {
  final ConcurrentLinkedQueue<Job> ready = new ConcurrentLinkedQueue<>();
  final List<Job> givenBack = Collections.synchronizedList(new ArrayList<>());

  /** When set, each lease answers only when the test completes it (see {@link #held}). */
  volatile boolean holdAnswers;

  final LinkedBlockingQueue<CompletableFuture<List<Job>>> held = new LinkedBlockingQueue<>();

  /** Leases asked for so far. */
  final AtomicInteger leases = new AtomicInteger();

  void answerNext(List<Job> jobs) throws InterruptedException {
    CompletableFuture<List<Job>> next = held.poll(5, TimeUnit.SECONDS);
    assertThat(next).as("a lease waiting for its answer").isNotNull();
    next.complete(jobs);
  }

  @Override
  public CompletableFuture<List<Job>> lease(LeasePlan plan) {
    leases.incrementAndGet();
    if (holdAnswers) {
      CompletableFuture<List<Job>> answer = new CompletableFuture<>();
      held.add(answer);
      return answer;
    }
    List<Job> taken = new ArrayList<>();
    long payloadBytes = 0;
    for (Job j : ready) {
      if (taken.size() < plan.maxJobs()
          && AnswerBudget.hasRoom(payloadBytes)
          && (plan.types().isEmpty() || plan.types().contains(j.type()))
          && ready.remove(j)) {
        taken.add(j);
        payloadBytes += j.payloadSize();
      }
    }
    return CompletableFuture.completedFuture(List.copyOf(taken));
  }

  @Override
  public void giveBack(List<Job> jobs) {
    givenBack.addAll(jobs);
  }

  static Job job(long id) {
    return job(id, "t");
  }

  static Job job(long id, String type) {
    return job(id, type, 0);
  }

  /** A leased job of queue "q" with a payload of {@code payloadLength} zero bytes. */
  static Job job(long id, String type, int payloadLength) {
    return TestJobRecords.job(id, Instant.parse("2026-11-30T10:00:00Z"))
        .queue("q")
        .type(type)
        .payload(new byte[payloadLength])
        .attempts(1, 0)
        .build();
  }
}
