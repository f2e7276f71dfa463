package io.antrean.coordinator.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class JobsReadyAnnouncerTest {
  private final BlockingQueue<List<String>> rounds = new LinkedBlockingQueue<>();
  private JobsReadyAnnouncer announcer;

  @AfterEach
  void close() {
    if (announcer != null) {
      announcer.close();
    }
  }

  private List<String> nextRound() throws InterruptedException {
    List<String> round = rounds.poll(10, TimeUnit.SECONDS);
    assertThat(round).as("a round of notifications within 10 s").isNotNull();
    return round;
  }

  @Test
  void announcedQueuesAreSentOnceEachInTheOrderNamed() throws Exception {
    announcer = new JobsReadyAnnouncer(rounds::add);

    announcer.announce(List.of("mail", "reports", "mail"));

    assertThat(nextRound()).containsExactly("mail", "reports");
  }

  /** An announcer whose first send is held until released. */
  private JobsReadyAnnouncer holdingFirstSend(HeldWrite first) {
    return new JobsReadyAnnouncer(
        queues -> {
          if (!first.begun()) {
            first.hold();
          }
          rounds.add(queues);
        });
  }

  @Test
  void queuesAnnouncedDuringASendGoOutTogetherInTheNextRound() throws Exception {
    HeldWrite first = new HeldWrite();
    announcer = holdingFirstSend(first);
    announcer.announce(List.of("a"));
    first.awaitWriting();

    announcer.announce(List.of("b"));
    announcer.announce(Set.of("c"));
    announcer.announce(List.of("b"));
    first.release();

    assertThat(nextRound()).containsExactly("a");
    assertThat(nextRound()).containsExactly("b", "c");
  }

  @Test
  void aFailedSendDoesNotStopLaterOnes() throws Exception {
    AtomicInteger sends = new AtomicInteger();
    announcer =
        new JobsReadyAnnouncer(
            queues -> {
              if (sends.incrementAndGet() == 1) {
                throw new IllegalStateException("the database went away");
              }
              rounds.add(queues);
            });

    announcer.announce(List.of("lost"));
    announcer.announce(List.of("later"));

    // "later" may have joined the failed round; announce until one gets through.
    List<String> round = rounds.poll(200, TimeUnit.MILLISECONDS);
    while (round == null) {
      announcer.announce(List.of("later"));
      round = rounds.poll(200, TimeUnit.MILLISECONDS);
    }
    assertThat(round).contains("later");
    assertThat(sends.get()).isGreaterThanOrEqualTo(2);
  }

  @Test
  void closeSendsWhatIsPendingAndDropsLaterAnnouncements() throws Exception {
    HeldWrite first = new HeldWrite();
    announcer = holdingFirstSend(first);
    announcer.announce(List.of("first"));
    first.awaitWriting();
    announcer.announce(List.of("pending"));

    Thread closer = new Thread(announcer::close);
    closer.start();
    first.release();
    closer.join(TimeUnit.SECONDS.toMillis(10));
    announcer.announce(List.of("after-close"));

    assertThat(closer.isAlive()).as("close returned").isFalse();
    assertThat(rounds).containsExactly(List.of("first"), List.of("pending"));
  }
}
