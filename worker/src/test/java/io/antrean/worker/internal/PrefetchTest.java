package io.antrean.worker.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PrefetchTest {
  private static final long MS = 1_000_000;

  private final SlotPool slots = new SlotPool(4);

  @Test
  void leasesNothingAheadBeforeBothTimesAreMeasured() {
    Prefetch prefetch = new Prefetch(10, slots);
    prefetch.handlerRan(MS / 100);

    assertThat(prefetch.jobs()).isZero();
    assertThat(slots.capacity()).isEqualTo(4);
  }

  @Test
  void leasesAheadWhatTheHandlersFinishInOneRoundTrip() {
    Prefetch prefetch = new Prefetch(100, slots);
    prefetch.handlerRan(2 * MS);

    prefetch.roundTrip(3 * MS);

    // Four threads finish a 2 ms job each in one 3 ms round trip: 6 jobs.
    assertThat(prefetch.jobs()).isEqualTo(6);
    assertThat(slots.capacity()).isEqualTo(4 + 6);
  }

  @Test
  void neverMoreThanTheMaximum() {
    Prefetch prefetch = new Prefetch(10, slots);
    prefetch.handlerRan(MS / 1000);

    prefetch.roundTrip(3 * MS);

    assertThat(prefetch.jobs()).isEqualTo(10);
    assertThat(slots.capacity()).isEqualTo(14);
  }

  @Test
  void noneForHandlersSlowerThanTheRoundTripTimesTheThreads() {
    Prefetch prefetch = new Prefetch(10, slots);
    prefetch.handlerRan(13 * MS);

    prefetch.roundTrip(3 * MS);

    assertThat(prefetch.jobs()).isZero();
    assertThat(slots.capacity()).isEqualTo(4);
  }

  @Test
  void handlersThatTurnSlowBringThePrefetchDownAtTheNextRoundTrip() {
    Prefetch prefetch = new Prefetch(10, slots);
    prefetch.handlerRan(MS / 1000);
    prefetch.roundTrip(3 * MS);
    assertThat(slots.capacity()).isEqualTo(14);

    prefetch.handlerRan(2_000 * MS);
    prefetch.roundTrip(3 * MS);

    assertThat(prefetch.jobs()).isZero();
    assertThat(slots.capacity()).isEqualTo(4);
  }

  @Test
  void aMaximumOfZeroTurnsItOff() {
    Prefetch prefetch = new Prefetch(0, slots);
    prefetch.handlerRan(MS / 1000);

    prefetch.roundTrip(3 * MS);

    assertThat(prefetch.jobs()).isZero();
    assertThat(slots.capacity()).isEqualTo(4);
  }
}
