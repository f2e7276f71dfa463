package io.antrean.coordinator.store;

import static io.antrean.coordinator.store.TestJobs.at;
import static io.antrean.coordinator.store.TestJobs.job;
import static org.assertj.core.api.Assertions.assertThat;

import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.job.JobState;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Listing and purging the dead-letter queue, and its growth count. See {@link RedriveContract}. */
public interface DeadLetterContract extends JobStoreFixture {

  static DeadLetterQuery all(int limit) {
    return new DeadLetterQuery(null, null, null, null, null, null, limit);
  }

  default List<Long> deadLetterIds(DeadLetterQuery query) {
    return ids(store().listDeadLetters(query).jobs());
  }

  @Test
  default void listDeadLettersShowsOnlyFailedJobsNewestFirstWithoutHistory() {
    Job older = deadLetter("a", at(1));
    succeeded(job("done").build(), at(2));
    Job newer = deadLetter("b", at(3));
    enqueue("running");
    leaseOne("w", at(4), at(30));
    store().cancel(enqueue("cancelled").id(), at(5));
    enqueue("pending");

    JobPage page = store().listDeadLetters(all(10));

    assertThat(ids(page.jobs())).containsExactly(newer.id(), older.id());
    assertThat(page.nextBeforeId()).isNull();
    assertThat(page.jobs()).allSatisfy(j -> assertThat(j.history()).isEmpty());
    assertThat(page.jobs().get(0).lastError()).isEqualTo("BadPayload: missing field 'to'");
  }

  @Test
  default void listDeadLettersAndsEveryFilter() {
    long a = deadLetter(job("email").queue("mail").build(), at(10), "SMTP timeout").id();
    long b = deadLetter(job("sms").queue("mail").build(), at(20), "invalid number").id();
    long c = deadLetter(job("email").queue("other").build(), at(30), "smtp refused").id();
    long d = deadLetter(job("email").queue("mail").build(), at(40), "quota exceeded").id();

    assertThat(deadLetterIds(new DeadLetterQuery("mail", null, null, null, null, null, 10)))
        .containsExactly(d, b, a);
    assertThat(deadLetterIds(new DeadLetterQuery(null, "email", null, null, null, null, 10)))
        .containsExactly(d, c, a);
    assertThat(deadLetterIds(new DeadLetterQuery(null, null, "Smtp", null, null, null, 10)))
        .containsExactly(c, a);
    assertThat(deadLetterIds(new DeadLetterQuery(null, null, null, at(20), at(40), null, 10)))
        .as("failedAfter is inclusive, failedBefore exclusive")
        .containsExactly(c, b);
    assertThat(deadLetterIds(new DeadLetterQuery("mail", "email", "SMTP", at(10), null, null, 10)))
        .containsExactly(a);
    assertThat(deadLetterIds(new DeadLetterQuery("mail", "sms", "smtp", null, null, null, 10)))
        .isEmpty();
  }

  @Test
  default void errorFilterMatchesLiterallyAndIgnoresCaseBeyondAscii() {
    long umlaut = deadLetter(job("a").build(), at(1), "Größe ÜBERSCHRITTEN").id();
    long percent = deadLetter(job("b").build(), at(2), "disk 100% full").id();
    deadLetter(job("c").build(), at(3), "disk 1000 full");

    assertThat(
            deadLetterIds(new DeadLetterQuery(null, null, "überschritten", null, null, null, 10)))
        .containsExactly(umlaut);
    assertThat(deadLetterIds(new DeadLetterQuery(null, null, "GRÖSSE", null, null, null, 10)))
        .as("ß folds like ss")
        .containsExactly(umlaut);
    assertThat(deadLetterIds(new DeadLetterQuery(null, null, "100%", null, null, null, 10)))
        .containsExactly(percent);
    assertThat(deadLetterIds(new DeadLetterQuery(null, null, "disk_1", null, null, null, 10)))
        .as("_ is no wildcard")
        .isEmpty();
  }

  @Test
  default void listDeadLettersPagesByBeforeIdThroughAFilter() {
    List<Long> mail = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      mail.add(deadLetter(job("t").queue("mail").build(), at(i), "boom").id());
      deadLetter(job("t").queue("other").build(), at(i), "boom");
    }
    DeadLetterQuery query = new DeadLetterQuery("mail", null, null, null, null, null, 2);

    JobPage first = store().listDeadLetters(query);
    JobPage second = store().listDeadLetters(query.withPage(first.nextBeforeId(), 2));
    JobPage third = store().listDeadLetters(query.withPage(second.nextBeforeId(), 2));

    assertThat(ids(first.jobs())).containsExactly(mail.get(4), mail.get(3));
    assertThat(ids(second.jobs())).containsExactly(mail.get(2), mail.get(1));
    assertThat(ids(third.jobs())).containsExactly(mail.get(0));
    assertThat(third.nextBeforeId()).isNull();
    assertThat(store().listDeadLetters(query.withPage(null, 5)).nextBeforeId())
        .as("a page that holds the rest exactly is the last")
        .isNull();
  }

  @Test
  default void purgeDeletesOnlyDeadLettersAndFreesTheirKeys() {
    Job dead = deadLetter(job("email").key("k").payload("{\"v\":1}").build(), at(1), "boom");
    Job done = succeeded(job("done").build(), at(2));
    Job pending = enqueue("pending");

    int purged = store().purgeDeadLetters(List.of(dead.id(), done.id(), pending.id(), 4242L));

    assertThat(purged).isEqualTo(1);
    assertThat(store().get(dead.id())).isEmpty();
    assertThat(reload(done.id()).state()).isEqualTo(JobState.SUCCEEDED);
    assertThat(reload(pending.id()).state()).isEqualTo(JobState.PENDING);
    assertThat(store().listDeadLetters(all(10)).jobs()).isEmpty();
    assertThat(store().purgeDeadLetters(List.of(dead.id()))).isZero();
    EnqueueResult reused =
        store().enqueue(List.of(job("email").key("k").payload("{\"v\":2}").build()), at(3)).get(0);
    assertThat(reused.deduplicated()).isFalse();
    assertThat(reused.job().id()).isGreaterThan(pending.id());
  }

  @Test
  default void deadLetteredSinceCountsStillFailedJobsPerQueueTypeAndError() {
    deadLetter(job("email").queue("mail").build(), at(1), "SMTP timeout");
    for (int i = 0; i < 3; i++) {
      deadLetter(job("email").queue("mail").build(), at(10 + i), "SMTP timeout");
    }
    deadLetter(job("email").queue("mail").build(), at(10), "quota exceeded");
    deadLetter(job("sms").queue("other").build(), at(10), "invalid number");
    Job redriven = deadLetter(job("sms").queue("other").build(), at(10), "invalid number");
    deadLetter(job("sms").queue("other").build(), at(20), "invalid number");
    succeeded(job("email").queue("mail").build(), at(30));
    store().redrive(List.of(redriven.id()), at(100), Duration.ZERO, at(40));

    List<DeadLetterGroup> groups = store().deadLetteredSince(at(10));

    assertThat(groups)
        .containsExactly(
            new DeadLetterGroup("mail", "email", "BadPayload: SMTP timeout", 3),
            new DeadLetterGroup("other", "sms", "BadPayload: invalid number", 2),
            new DeadLetterGroup("mail", "email", "BadPayload: quota exceeded", 1));
    assertThat(store().deadLetteredSince(at(21))).isEmpty();
  }
}
