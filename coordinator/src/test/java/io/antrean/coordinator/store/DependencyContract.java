package io.antrean.coordinator.store;

import static io.antrean.coordinator.store.TestJobs.NEVER_RETRY;
import static io.antrean.coordinator.store.TestJobs.at;
import static io.antrean.coordinator.store.TestJobs.job;
import static io.antrean.coordinator.store.TestJobs.spec;
import static io.antrean.coordinator.store.TestJobs.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.antrean.coordinator.job.DependencyFailure;
import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.job.JobState;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Job dependencies: a job that depends on others is WAITING, never leased, until all of them
 * SUCCEEDED; it gets its policy when one of them ends FAILED or CANCELLED, down the chain.
 */
public interface DependencyContract extends JobStoreFixture {

  /** Closes the store and opens it again on the same database. */
  void reopenStore();

  /** Leases every ready job of the default queue at {@code now}, as worker "w". */
  default List<Job> leaseAll(Instant now) {
    return store().lease(spec("w", 50, now.plusSeconds(30)), now);
  }

  /** Leases the job (it must be the only ready one) and completes it with this result. */
  default Job completeOnly(long jobId, Instant now, String result) {
    List<Job> leased = leaseAll(now);
    assertThat(ids(leased)).containsExactly(jobId);
    return store()
        .complete(jobId, claim(leased.get(0)), "w", utf8(result), "application/json", now);
  }

  @Test
  default void aJobWithUnfinishedDependenciesWaitsAndIsNeverLeased() {
    Job a = enqueue("fetch");
    Job c = enqueue(job("merge").dependsOn(a.id()).build());

    assertThat(c.state()).isEqualTo(JobState.WAITING);
    assertThat(ids(leaseAll(at(1)))).containsExactly(a.id());
    assertThat(leaseAll(at(2))).isEmpty();
    assertThat(reload(c.id()).state()).isEqualTo(JobState.WAITING);
  }

  @Test
  default void becomesPendingWhenTheLastDependencySucceedsAndNotBefore() {
    Job a = enqueue("fetch");
    Job b = enqueue("fetch");
    Job c = enqueue(job("merge").dependsOn(a.id(), b.id()).build());
    List<Job> leased = leaseAll(at(1));
    assertThat(ids(leased)).containsExactlyInAnyOrder(a.id(), b.id());
    Job leasedA = leased.stream().filter(j -> j.id() == a.id()).findFirst().orElseThrow();
    Job leasedB = leased.stream().filter(j -> j.id() == b.id()).findFirst().orElseThrow();

    store().complete(a.id(), claim(leasedA), "w", null, null, at(2));
    assertThat(reload(c.id()).state()).isEqualTo(JobState.WAITING);
    assertThat(leaseAll(at(3))).isEmpty();

    store().complete(b.id(), claim(leasedB), "w", null, null, at(4));
    Job ready = reload(c.id());
    assertThat(ready.state()).isEqualTo(JobState.PENDING);
    assertThat(ready.runAt()).as("due when it was released").isEqualTo(at(4));
    assertThat(ids(leaseAll(at(5)))).containsExactly(c.id());
  }

  @Test
  default void aLaterRunTimeOfItsOwnIsKept() {
    Job a = enqueue("fetch");
    Job c = enqueue(job("merge").runAt(at(100)).dependsOn(a.id()).build());

    completeOnly(a.id(), at(1), "{}");

    assertThat(reload(c.id()).state()).isEqualTo(JobState.PENDING);
    assertThat(reload(c.id()).runAt()).isEqualTo(at(100));
    assertThat(leaseAll(at(50))).isEmpty();
  }

  @Test
  default void dependenciesThatAlreadySucceededCountAsMet() {
    Job a = succeeded(job("fetch").build(), at(1));
    Job b = enqueue("fetch");

    Job allMet = enqueue(job("merge").queue("fan-in").dependsOn(a.id()).build());
    Job partlyMet = enqueue(job("merge").queue("fan-in").dependsOn(a.id(), b.id()).build());

    assertThat(allMet.state()).isEqualTo(JobState.PENDING);
    assertThat(partlyMet.state()).isEqualTo(JobState.WAITING);
    completeOnly(b.id(), at(2), "{}");
    assertThat(reload(partlyMet.id()).state()).isEqualTo(JobState.PENDING);
  }

  @Test
  default void aBatchCompletionOfBothDependenciesReleasesTheDependentOnce() {
    Job a = enqueue("fetch");
    Job b = enqueue("fetch");
    Job plain = enqueue("other");
    Job c = enqueue(job("merge").dependsOn(a.id(), b.id()).build());
    List<Job> leased = leaseAll(at(1));
    assertThat(leased).hasSize(3);

    List<CompletionOutcome> outcomes =
        store()
            .completeAll(
                "w",
                leased.stream()
                    .map(j -> new Completion(j.id(), claim(j), utf8("1"), "text/plain"))
                    .toList(),
                at(2));

    assertThat(outcomes)
        .allSatisfy(o -> assertThat(o.status()).isEqualTo(CompletionOutcome.Status.COMPLETED));
    assertThat(leased)
        .allSatisfy(j -> assertThat(reload(j.id()).state()).isEqualTo(JobState.SUCCEEDED));
    assertThat(reload(plain.id()).state()).isEqualTo(JobState.SUCCEEDED);
    assertThat(ids(leaseAll(at(3)))).containsExactly(c.id());
  }

  @Test
  default void aFailedDependencyCancelsTheDependentByDefault() {
    Job a = enqueue("fetch");
    Job c = enqueue(job("merge").dependsOn(a.id()).build());
    Job leased = leaseOne("w", at(1), at(30));

    store().fail(a.id(), claim(leased), "w", PERMANENT, NEVER_RETRY, at(2));

    Job cancelled = reload(c.id());
    assertThat(cancelled.state()).isEqualTo(JobState.CANCELLED);
    assertThat(cancelled.finishedAt()).isEqualTo(at(2));
  }

  @Test
  default void aFailedDependencyDeadLettersTheDependentWithTheErrorWhenAsked() {
    Job a = enqueue("fetch");
    Job c = enqueue(job("merge").dependsOn(DependencyFailure.DEAD_LETTER, a.id()).build());
    Job leased = leaseOne("w", at(1), at(30));

    store().fail(a.id(), claim(leased), "w", PERMANENT, NEVER_RETRY, at(2));

    Job dead = reload(c.id());
    assertThat(dead.state()).isEqualTo(JobState.FAILED);
    assertThat(dead.lastError()).isEqualTo("DEPENDENCY_FAILED: job " + a.id() + " ended FAILED");
    assertThat(
            ids(
                store()
                    .listDeadLetters(new DeadLetterQuery(null, null, null, null, null, null, 10))
                    .jobs()))
        .contains(a.id(), c.id());
  }

  @Test
  default void aDependencyDeadLetteredByItsLeaseExpiryBudgetAppliesThePolicy() {
    Job a = enqueue(job("fetch").maxLeaseExpiries(1).build());
    Job c = enqueue(job("merge").dependsOn(DependencyFailure.DEAD_LETTER, a.id()).build());
    leaseOne("w", at(1), at(30));

    assertThat(store().expireLeases(at(31), 10))
        .extracting(Job::state)
        .containsExactly(JobState.FAILED);

    assertThat(reload(c.id()).state()).isEqualTo(JobState.FAILED);
  }

  @Test
  default void theOutcomeCascadesTwoLevelsDown() {
    Job a = enqueue("fetch");
    Job b = enqueue(job("transform").dependsOn(DependencyFailure.DEAD_LETTER, a.id()).build());
    Job c = enqueue(job("load").dependsOn(b.id()).build());
    Job d = enqueue(job("report").dependsOn(DependencyFailure.DEAD_LETTER, c.id()).build());

    store().cancel(a.id(), at(1));

    assertThat(reload(b.id()).state()).isEqualTo(JobState.FAILED);
    assertThat(reload(b.id()).lastError())
        .isEqualTo("DEPENDENCY_FAILED: job " + a.id() + " ended CANCELLED");
    assertThat(reload(c.id()).state()).isEqualTo(JobState.CANCELLED);
    assertThat(reload(d.id()).state()).isEqualTo(JobState.FAILED);
    assertThat(reload(d.id()).lastError())
        .isEqualTo("DEPENDENCY_FAILED: job " + c.id() + " ended CANCELLED");
  }

  @Test
  default void aDependencyThatAlreadyFailedAppliesThePolicyAtOnce() {
    Job a = deadLetter("fetch", at(1));
    Job cancelled = enqueue(job("merge").dependsOn(a.id()).build());
    Job dead = enqueue(job("merge").dependsOn(DependencyFailure.DEAD_LETTER, a.id()).build());

    assertThat(cancelled.state()).isEqualTo(JobState.CANCELLED);
    assertThat(dead.state()).isEqualTo(JobState.FAILED);
    assertThat(dead.lastError()).isEqualTo("DEPENDENCY_FAILED: job " + a.id() + " ended FAILED");
  }

  @Test
  default void aWaitingJobCanBeCancelledAndStaysCancelled() {
    Job a = enqueue("fetch");
    Job c = enqueue(job("merge").dependsOn(a.id()).build());

    assertThat(store().cancel(c.id(), at(1)).state()).isEqualTo(JobState.CANCELLED);
    completeOnly(a.id(), at(2), "{}");

    assertThat(reload(c.id()).state()).isEqualTo(JobState.CANCELLED);
    assertThat(leaseAll(at(3))).isEmpty();
  }

  @Test
  default void aBatchOfJobsWithOverlappingDependenciesWaitsEachOnItsOwn() {
    Job a = succeeded(job("fetch").build(), at(1));
    Job b = enqueue("fetch");

    List<EnqueueResult> results =
        store()
            .enqueue(
                List.of(
                    job("merge").queue("fan-in").dependsOn(b.id(), a.id()).build(),
                    job("plain").queue("fan-in").build(),
                    job("merge").queue("fan-in").dependsOn(a.id()).build()),
                at(2));

    assertThat(results)
        .extracting(r -> r.job().state())
        .containsExactly(JobState.WAITING, JobState.PENDING, JobState.PENDING);
    completeOnly(b.id(), at(3), "{}");
    assertThat(reload(results.get(0).job().id()).state()).isEqualTo(JobState.PENDING);
  }

  @Test
  default void aMissingDependencyRefusesTheWholeCallAndStoresNothing() {
    Job a = enqueue("fetch");

    assertThatThrownBy(
            () ->
                store()
                    .enqueue(
                        List.of(
                            job("other").build(), job("merge").dependsOn(a.id(), 999_999).build()),
                        at(1)))
        .isInstanceOf(JobNotFoundException.class)
        .hasMessageContaining("999999");
    assertThat(store().list(new JobQuery(null, null, null, null, 10)).jobs())
        .extracting(Job::id)
        .containsExactly(a.id());
  }

  @Test
  default void redriveOfTheDependencyDoesNotReviveADependentButItsOwnRedriveChecksAgain() {
    Job a = enqueue("fetch");
    Job c = enqueue(job("merge").dependsOn(DependencyFailure.DEAD_LETTER, a.id()).build());
    store().fail(a.id(), claim(leaseOne("w", at(1), at(30))), "w", PERMANENT, NEVER_RETRY, at(2));
    assertThat(reload(c.id()).state()).isEqualTo(JobState.FAILED);

    store().redrive(List.of(a.id()), at(3), Duration.ZERO, at(3));
    assertThat(reload(c.id()).state()).as("not revived").isEqualTo(JobState.FAILED);

    List<Job> redriven = store().redrive(List.of(c.id()), at(4), Duration.ZERO, at(4));
    assertThat(redriven).extracting(Job::state).containsExactly(JobState.WAITING);
    List<Job> leased = leaseAll(at(5));
    assertThat(ids(leased)).containsExactly(a.id());
    store().complete(a.id(), claim(leased.get(0)), "w", null, null, at(6));
    assertThat(reload(c.id()).state()).isEqualTo(JobState.PENDING);
  }

  @Test
  default void theDependentReadsItsDependenciesResults() {
    Job a = enqueue("fetch");
    Job b = enqueue(job("fetch").queue("other").build());
    Job c =
        enqueue(
            job("merge").dependsOn(DependencyFailure.DEAD_LETTER, b.id(), a.id(), a.id()).build());
    completeOnly(a.id(), at(1), "{\"rows\":3}");

    List<Dependency> dependencies = store().dependencies(c.id());

    assertThat(dependencies).extracting(Dependency::id).containsExactly(a.id(), b.id());
    assertThat(dependencies.get(0).state()).isEqualTo(JobState.SUCCEEDED);
    assertThat(dependencies.get(0).result()).isEqualTo(utf8("{\"rows\":3}"));
    assertThat(dependencies.get(0).resultContentType()).isEqualTo("application/json");
    assertThat(dependencies.get(1).state()).isEqualTo(JobState.PENDING);
    assertThat(dependencies.get(1).queue()).isEqualTo("other");
    assertThat(dependencies.get(1).result()).isNull();
    assertThat(store().dependsOn(List.of(a.id(), c.id())))
        .containsOnlyKeys(c.id())
        .hasEntrySatisfying(
            c.id(),
            d -> {
              assertThat(d.jobIds()).containsExactly(a.id(), b.id());
              assertThat(d.onFailure()).isEqualTo(DependencyFailure.DEAD_LETTER);
            });
    assertThat(store().dependencies(a.id())).isEmpty();
  }

  @Test
  default void aWaitingJobAndItsDependenciesSurviveAReopen() {
    Job a = enqueue("fetch");
    Job c = enqueue(job("merge").dependsOn(a.id()).build());

    reopenStore();

    assertThat(reload(c.id()).state()).isEqualTo(JobState.WAITING);
    completeOnly(a.id(), at(1), "{}");
    assertThat(ids(leaseAll(at(2)))).containsExactly(c.id());
  }

  @Test
  default void statsCountWaitingJobs() {
    Job a = enqueue("fetch");
    enqueue(job("merge").dependsOn(a.id()).build());
    enqueue(job("merge").dependsOn(a.id()).build());

    QueueCounts counts = store().stats(TestJobs.QUEUE, at(1)).get(0);

    assertThat(counts.waiting()).isEqualTo(2);
    assertThat(counts.pending()).isEqualTo(1);
  }

  @Test
  @Timeout(30)
  default void waitingLeaseCallsHearOfJobsReleasedByACompletion() {
    Set<String> ready = ConcurrentHashMap.newKeySet();
    store().subscribeJobsReady(ready::add);
    awaitJobsReadyHeard();
    Job a = enqueue("fetch");
    enqueue(job("merge").queue("fan-in").dependsOn(a.id()).build());
    Job leased = leaseOne("w", at(1), at(30));

    store().completeAsync(a.id(), claim(leased), "w", null, null, at(2)).join();

    await().atMost(Duration.ofSeconds(20)).until(() -> ready.contains("fan-in"));
  }
}
