package io.antrean.coordinator.store;

import static io.antrean.coordinator.store.TestJobs.QUEUE;
import static io.antrean.coordinator.store.TestJobs.T0;
import static io.antrean.coordinator.store.TestJobs.at;
import static io.antrean.coordinator.store.TestJobs.job;
import static io.antrean.coordinator.store.TestJobs.spec;
import static org.assertj.core.api.Assertions.assertThat;

import io.antrean.coordinator.job.Attempt;
import io.antrean.coordinator.job.ErrorKind;
import io.antrean.coordinator.job.Failure;
import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.job.NewJob;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Function;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * A lease takes jobs in order until their payloads reach {@link AnswerBudget#PAYLOAD_BYTES}, and a
 * page of a listing or a job with its history keeps to {@link AnswerBudget#ANSWER_BYTES} with its
 * payloads, results and error texts counted, so one answer stays readable by a gRPC client with its
 * default 4 MiB limit: the jobs past it wait for the next lease, which does not count as having
 * taken every ready job, or come on the next page; the oldest history entries are counted instead.
 */
public interface AnswerBudgetContract extends JobStoreFixture {
  int LONG = 100 * 1024;
  int LONGEST = 1024 * 1024;

  /** How many jobs of {@code length} bytes one lease takes: each while those before are under. */
  private static int perLease(int length) {
    return (int) ((AnswerBudget.PAYLOAD_BYTES - 1) / length) + 1;
  }

  /** How many jobs of {@code bytes} each, their other fields aside, one page takes. */
  private static int perPage(long bytes) {
    return (int) (AnswerBudget.ANSWER_BYTES / (bytes + AnswerBudget.JOB_FIELDS_BYTES));
  }

  private List<Job> enqueueJobs(int count, int length) {
    List<NewJob> jobs =
        IntStream.range(0, count)
            .mapToObj(
                i ->
                    job("t")
                        .payload(PayloadContract.payload(length), "application/octet-stream")
                        .build())
            .toList();
    return store().enqueue(jobs, T0).stream().map(EnqueueResult::job).toList();
  }

  /** Leases of up to {@code asked} jobs until the queue is empty, their ids in lease order. */
  private void assertLeasedInAnswersOf(List<Job> stored, int asked, int perAnswer, int length) {
    List<Long> leased = new ArrayList<>();
    for (int answer = 0; leased.size() < stored.size(); answer++) {
      List<Job> jobs = store().lease(spec("w", asked, at(30)), T0);
      int left = stored.size() - leased.size();
      assertThat(jobs).as("answer %s", answer).hasSize(Math.min(perAnswer, left));
      assertThat(AnswerBudget.tookEveryReady(jobs, asked))
          .as("answer %s took every ready job", answer)
          .isEqualTo(left < perAnswer && left < asked);
      assertThat(jobs)
          .allSatisfy(j -> assertThat(j.payload()).isEqualTo(PayloadContract.payload(length)));
      leased.addAll(ids(jobs));
    }
    assertThat(leased).containsExactlyElementsOf(ids(stored));
    assertThat(store().lease(spec("w", asked, at(30)), T0)).isEmpty();
  }

  @Test
  default void aLeaseStopsTakingJobsOnceTheirPayloadsReachTheBudget() {
    List<Job> stored = enqueueJobs(30, LONG);

    assertLeasedInAnswersOf(stored, 30, perLease(LONG), LONG);
  }

  @Test
  default void jobsWithTheLongestPayloadsGoTwoToALease() {
    List<Job> stored = enqueueJobs(3, LONGEST);

    assertThat(perLease(LONGEST)).isEqualTo(2);
    assertLeasedInAnswersOf(stored, 10, 2, LONGEST);
  }

  @Test
  default void aQueueWithLimitsKeepsToTheSameBudget() {
    store().setQueueLimits(QUEUE, new QueueLimits(100, null));
    List<Job> stored = enqueueJobs(30, LONG);

    assertLeasedInAnswersOf(stored, 30, perLease(LONG), LONG);
  }

  @Test
  default void shortPayloadsFillTheWholeAsk() {
    List<Job> stored = enqueueJobs(40, 1024);

    assertLeasedInAnswersOf(stored, 25, 25, 1024);
  }

  /** Pages of up to {@code pageSize} through {@code list}, their ids in order. */
  private void assertPagedAs(
      Function<Long, JobPage> list, List<Long> expected, int perPage, int length) {
    List<Long> listed = new ArrayList<>();
    Long token = null;
    do {
      JobPage page = list.apply(token);
      int left = expected.size() - listed.size();
      assertThat(page.jobs()).as("page after %s", token).hasSize(Math.min(perPage, left));
      assertThat(page.jobs())
          .allSatisfy(j -> assertThat(j.payload()).isEqualTo(PayloadContract.payload(length)));
      listed.addAll(ids(page.jobs()));
      token = page.nextBeforeId();
      assertThat(token == null).as("last page").isEqualTo(listed.size() == expected.size());
    } while (token != null);
    assertThat(listed).containsExactlyElementsOf(expected);
  }

  @Test
  default void aPageOfLongPayloadsEndsEarlyAndTheNextPageGoesOn() {
    List<Long> stored = ids(enqueueJobs(45, LONG));
    List<Long> newestFirst = new ArrayList<>(stored);
    Collections.reverse(newestFirst);

    assertPagedAs(
        token ->
            store().list(new JobQuery(null, null, null, null, null, null, null, false, token, 100)),
        newestFirst,
        perPage(LONG),
        LONG);
    assertPagedAs(
        token ->
            store().list(new JobQuery(null, null, null, null, null, null, null, true, token, 100)),
        stored,
        perPage(LONG),
        LONG);
  }

  @Test
  default void aPageOfDeadLettersWithTheLongestPayloadsHoldsTwo() {
    List<Long> dead = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      dead.add(
          deadLetter(
                  job("t")
                      .payload(PayloadContract.payload(LONGEST), "application/octet-stream")
                      .build(),
                  at(i),
                  "boom")
              .id());
    }
    Collections.reverse(dead);

    assertPagedAs(
        token ->
            store().listDeadLetters(new DeadLetterQuery(null, null, null, null, null, token, 10)),
        dead,
        2,
        LONGEST);
  }

  @Test
  default void aPageOfLongResultsEndsEarlyToo() {
    List<Job> stored = enqueueJobs(3, 0);
    List<Job> leased = store().lease(spec("w", 3, at(30)), T0);
    byte[] longest = PayloadContract.payload(LONGEST);
    store()
        .completeAll(
            "w",
            leased.stream()
                .map(j -> new Completion(j.id(), claim(j), longest, "application/octet-stream"))
                .toList(),
            at(1));

    assertPagedAs(
        token ->
            store().list(new JobQuery(null, null, null, null, null, null, null, true, token, 100)),
        ids(stored),
        2,
        0);
  }

  @Test
  default void aPageOfDeadLettersWithLongErrorsEndsEarly() {
    String error = "e".repeat(LONG);
    List<Long> dead = new ArrayList<>();
    int payload = 16;
    for (int i = 0; i < 40; i++) {
      NewJob shortPayload =
          job("t").payload(PayloadContract.payload(payload), "application/octet-stream").build();
      dead.add(deadLetter(shortPayload, at(i), error).id());
    }
    Collections.reverse(dead);
    int perPage = perPage(LONG + payload);

    assertThat(perPage).isLessThan(dead.size());
    assertPagedAs(
        token ->
            store().listDeadLetters(new DeadLetterQuery(null, null, null, null, null, token, 100)),
        dead,
        perPage,
        payload);
  }

  @Test
  default void aJobsOwnPayloadAndResultLeaveLessRoomForItsHistory() {
    byte[] longest = PayloadContract.payload(LONGEST);
    long id = enqueue(job("t").payload(longest, "application/octet-stream").build()).id();
    String trace = "x".repeat(700 * 1024);
    for (int i = 0; i < 2; i++) {
      Job leased = leaseOne("w", at(i), at(30 + i));
      Failure failure = new Failure(ErrorKind.RETRYABLE, "E", "attempt " + i, trace, null);
      store().fail(id, claim(leased), "w", failure, TestJobs.retryAt(at(i)), at(i));
    }
    Job last = leaseOne("w", at(2), at(32));
    store()
        .completeAll("w", List.of(new Completion(id, claim(last), longest, "text/plain")), at(3));

    Job read = store().get(id).orElseThrow();

    // 2 MiB of payload and result, the success, then one 700 KiB failure: the next passes 3 MiB.
    assertThat(read.history()).extracting(Attempt::errorMessage).containsExactly("attempt 1", null);
    assertThat(read.historyOmitted()).isEqualTo(1);
  }

  @Test
  default void aLongHistoryKeepsItsNewestEntriesAndCountsTheOlderOnes() {
    long id = enqueue(job("t").build()).id();
    String longest = "x".repeat(LONGEST);
    for (int i = 0; i < 3; i++) {
      Job leased = leaseOne("w", at(i), at(30 + i));
      Failure failure = new Failure(ErrorKind.RETRYABLE, "E", "attempt " + i, longest, null);
      store().fail(id, claim(leased), "w", failure, TestJobs.retryAt(at(i)), at(i));
    }
    enqueue(job("t").build());

    Job read = store().get(id).orElseThrow();

    assertThat(read.history())
        .extracting(Attempt::errorMessage)
        .containsExactly("attempt 1", "attempt 2");
    assertThat(read.historyOmitted()).isEqualTo(1);
  }

  @Test
  default void aShortHistoryComesWhole() {
    long id = enqueue(job("t").build()).id();
    Job leased = leaseOne("w", T0, at(30));
    store()
        .fail(
            id,
            claim(leased),
            "w",
            new Failure(ErrorKind.RETRYABLE, "E", "once", "at x", null),
            TestJobs.retryAt(T0),
            T0);

    Job read = store().get(id).orElseThrow();

    assertThat(read.history()).extracting(Attempt::errorMessage).containsExactly("once");
    assertThat(read.historyOmitted()).isZero();
  }
}
