package io.antrean.coordinator.store;

import static io.antrean.coordinator.store.TestJobs.NEVER_RETRY;
import static io.antrean.coordinator.store.TestJobs.T0;
import static io.antrean.coordinator.store.TestJobs.at;
import static io.antrean.coordinator.store.TestJobs.job;
import static io.antrean.coordinator.store.TestJobs.spec;
import static org.assertj.core.api.Assertions.assertThat;

import io.antrean.coordinator.job.ErrorKind;
import io.antrean.coordinator.job.Failure;
import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.job.NewJob;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Payloads of every length, empty to 100 KiB, come back whole from every operation that returns a
 * job, however the store keeps them.
 */
public interface PayloadContract extends JobStoreFixture {
  /** Lengths around the ones a store might treat apart, and a long one. */
  int[] LENGTHS = {0, 1, 2047, 2048, 2049, 4096, 100 * 1024};

  /** Bytes of the given length, the same for a length every time. */
  static byte[] payload(int length) {
    byte[] bytes = new byte[length];
    new Random(length).nextBytes(bytes);
    return bytes;
  }

  private static NewJob withPayload(String type, int length) {
    return job(type).payload(payload(length), "application/octet-stream").build();
  }

  private static void assertPayloads(List<Job> jobs) {
    assertThat(jobs)
        .allSatisfy(
            j ->
                assertThat(j.payload())
                    .as("payload of %s", j.type())
                    .isEqualTo(payload(Integer.parseInt(j.type()))));
  }

  @Test
  default void everyPayloadComesBackWholeFromEnqueueLeaseReadsAndCompletion() {
    List<NewJob> jobs =
        Arrays.stream(LENGTHS).mapToObj(n -> withPayload(String.valueOf(n), n)).toList();
    List<Job> stored = store().enqueue(jobs, T0).stream().map(EnqueueResult::job).toList();
    assertPayloads(stored);

    List<Job> leased = store().lease(spec("w", LENGTHS.length, at(30)), T0);
    assertThat(leased).hasSize(LENGTHS.length);
    assertPayloads(leased);
    assertPayloads(stored.stream().map(j -> reload(j.id())).toList());
    assertPayloads(store().list(new JobQuery(null, null, null, null, 100)).jobs());

    List<CompletionOutcome> outcomes =
        store()
            .completeAll(
                "w",
                leased.stream().map(j -> new Completion(j.id(), claim(j), null, null)).toList(),
                at(1));
    assertThat(outcomes)
        .extracting(CompletionOutcome::status)
        .containsOnly(CompletionOutcome.Status.COMPLETED);
    assertPayloads(stored.stream().map(j -> reload(j.id())).toList());
  }

  @Test
  default void aLongPayloadComesBackAfterRetryDeadLetterAndRedrive() {
    int length = 100 * 1024;
    long id = enqueue(withPayload(String.valueOf(length), length)).id();
    Job first = leaseOne("w");
    Failure failure = new Failure(ErrorKind.PERMANENT, "BadPayload", "no", null, null);
    Job retried = store().fail(id, claim(first), "w", failure, TestJobs.retryAt(T0), T0);
    Job second = leaseOne("w");
    Job dead = store().fail(id, claim(second), "w", failure, NEVER_RETRY, at(1));

    JobPage deadLetters =
        store().listDeadLetters(new DeadLetterQuery(null, null, null, null, null, null, 10));
    List<Job> redriven = store().redrive(List.of(id), at(2), Duration.ZERO, at(2));

    assertPayloads(List.of(first, retried, second, dead, redriven.get(0), reload(id)));
    assertPayloads(deadLetters.jobs());
  }

  @Test
  default void aLongPayloadComesBackWithTheJobItsKeysPointTo() {
    int length = 100 * 1024;
    NewJob keyed = job(String.valueOf(length)).payload(payload(length), "x").key("k").build();
    NewJob unique =
        job(String.valueOf(length)).payload(payload(length), "x").unique("u", true).build();
    Map<Boolean, Job> first =
        store().enqueue(List.of(keyed, unique), T0).stream()
            .map(EnqueueResult::job)
            .collect(Collectors.toMap(j -> j.idempotencyKey() != null, Function.identity()));

    List<EnqueueResult> again = store().enqueue(List.of(keyed, unique), T0);

    assertThat(again).allSatisfy(r -> assertThat(r.deduplicated()).isTrue());
    assertThat(again.get(0).job().id()).isEqualTo(first.get(true).id());
    assertThat(again.get(1).job().id()).isEqualTo(first.get(false).id());
    assertPayloads(again.stream().map(EnqueueResult::job).toList());
  }
}
