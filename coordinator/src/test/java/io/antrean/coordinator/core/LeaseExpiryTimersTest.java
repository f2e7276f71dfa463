package io.antrean.coordinator.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.antrean.coordinator.store.LeaseRef;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class LeaseExpiryTimersTest {
  private static final Instant T0 = Instant.parse("2026-11-30T10:00:00Z");
  private final LeaseExpiryTimers timers = new LeaseExpiryTimers();

  @Test
  void dueTimerIsHandedOutOnceAtItsExpiry() {
    timers.track(new LeaseRef(1, 1, T0.plusSeconds(30)));
    assertThat(timers.takeDue(T0.plusSeconds(29))).isEmpty();
    assertThat(timers.takeDue(T0.plusSeconds(30)))
        .containsExactly(new LeaseRef(1, 1, T0.plusSeconds(30)));
    assertThat(timers.takeDue(T0.plusSeconds(60))).isEmpty();
  }

  @Test
  void renewedLeaseFiresOnlyAtItsNewExpiry() {
    timers.track(new LeaseRef(1, 1, T0.plusSeconds(30)));
    timers.track(new LeaseRef(1, 1, T0.plusSeconds(50)));
    assertThat(timers.takeDue(T0.plusSeconds(40))).isEmpty();
    assertThat(timers.takeDue(T0.plusSeconds(50)))
        .extracting(LeaseRef::expiresAt)
        .containsExactly(T0.plusSeconds(50));
  }

  @Test
  void untrackedLeaseNeverFires() {
    timers.track(new LeaseRef(1, 1, T0.plusSeconds(30)));
    timers.untrack(1);
    assertThat(timers.takeDue(T0.plusSeconds(31))).isEmpty();
    assertThat(timers.size()).isZero();
  }

  @Test
  void nextDueIsTheEarliestTimer() {
    timers.track(new LeaseRef(1, 1, T0.plusSeconds(30)));
    timers.track(new LeaseRef(2, 1, T0.plusSeconds(10)));
    assertThat(timers.nextDue()).isEqualTo(T0.plusSeconds(10));
  }

  @Test
  void nextDueSkipsTheTimersOfFinishedAndRenewedLeases() {
    timers.track(new LeaseRef(1, 1, T0.plusSeconds(10)));
    timers.track(new LeaseRef(2, 1, T0.plusSeconds(20)));
    timers.track(new LeaseRef(3, 1, T0.plusSeconds(30)));

    timers.untrack(1);
    timers.track(new LeaseRef(2, 1, T0.plusSeconds(40)));
    assertThat(timers.nextDue()).isEqualTo(T0.plusSeconds(30));

    timers.untrack(3);
    assertThat(timers.nextDue()).isEqualTo(T0.plusSeconds(40));
    timers.untrack(2);
    assertThat(timers.nextDue()).isNull();
    assertThat(timers.takeDue(T0.plusSeconds(60))).isEmpty();
  }

  @Test
  void endedLeaseAnswersWhenThisCoordinatorGrantedIt() {
    timers.track(new LeaseRef(1, 7, T0.plusSeconds(30)), T0);
    timers.track(new LeaseRef(1, 7, T0.plusSeconds(60)));
    timers.track(new LeaseRef(2, 3, T0.plusSeconds(30)));

    assertThat(timers.untrack(1, 7)).isEqualTo(T0);
    assertThat(timers.untrack(1, 7)).isNull();
    assertThat(timers.untrack(2, 3)).isNull();
    assertThat(timers.size()).isZero();
  }

  @Test
  void grantOfAnotherTokenOrAFiredTimerIsForgotten() {
    timers.track(new LeaseRef(1, 7, T0.plusSeconds(30)), T0);
    assertThat(timers.untrack(1, 8)).isNull();

    timers.track(new LeaseRef(2, 1, T0.plusSeconds(30)), T0);
    assertThat(timers.takeDue(T0.plusSeconds(30))).hasSize(1);
    assertThat(timers.untrack(2, 1)).isNull();
  }
}
