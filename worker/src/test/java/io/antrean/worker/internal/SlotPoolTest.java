package io.antrean.worker.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class SlotPoolTest {

  @Test
  void takesEveryFreeSlotUpToTheMaximum() throws InterruptedException {
    SlotPool slots = new SlotPool(4);

    assertThat(slots.acquireUpTo(3)).isEqualTo(3);
    assertThat(slots.acquireUpTo(256)).isEqualTo(1);
    assertThat(slots.free()).isZero();
  }

  @Test
  void waitsForAFreeSlotWhenNoneIsLeft()
      throws InterruptedException, ExecutionException, TimeoutException {
    SlotPool slots = new SlotPool(2);
    assertThat(slots.acquireUpTo(2)).isEqualTo(2);

    CompletableFuture<Integer> waiting = acquireElsewhere(slots, 2);
    assertThat(waiting).isNotDone();
    slots.release(1);

    assertThat(waiting.get(5, TimeUnit.SECONDS)).isEqualTo(1);
    assertThat(slots.free()).isZero();
  }

  @Test
  void tryAcquireTakesWhatIsFreeWithoutWaiting() throws InterruptedException {
    SlotPool slots = new SlotPool(4);
    assertThat(slots.acquireUpTo(3)).isEqualTo(3);

    assertThat(slots.tryAcquireUpTo(256)).isEqualTo(1);
    assertThat(slots.tryAcquireUpTo(256)).isZero();
    slots.release(2);
    assertThat(slots.tryAcquireUpTo(1)).isEqualTo(1);
    assertThat(slots.free()).isEqualTo(1);
  }

  @Test
  void releaseGivesSlotsBack() throws InterruptedException {
    SlotPool slots = new SlotPool(3);
    int taken = slots.acquireUpTo(3);

    slots.release(taken);

    assertThat(slots.free()).isEqualTo(slots.capacity());
  }

  @Test
  void aHigherPrefetchFreesPlacesAndWakesAWaiter()
      throws InterruptedException, ExecutionException, TimeoutException {
    SlotPool slots = new SlotPool(2);
    assertThat(slots.acquireUpTo(5)).isEqualTo(2);
    CompletableFuture<Integer> waiting = acquireElsewhere(slots, 5);
    assertThat(waiting).isNotDone();

    slots.prefetch(3);

    assertThat(waiting.get(5, TimeUnit.SECONDS)).isEqualTo(3);
    assertThat(slots.capacity()).isEqualTo(5);
    assertThat(slots.free()).isZero();
  }

  @Test
  void aLowerPrefetchKeepsGivenBackPlacesOutUntilTheJobsHeldFit() throws InterruptedException {
    SlotPool slots = new SlotPool(2);
    slots.prefetch(3);
    assertThat(slots.acquireUpTo(5)).isEqualTo(5);

    slots.prefetch(1);
    assertThat(slots.refillable(2)).as("of 2 places given back, 5 held, 3 allowed").isZero();
    assertThat(slots.refillable(3)).isEqualTo(1);
    slots.release(2);
    assertThat(slots.free()).isZero();
    assertThat(slots.tryAcquireUpTo(5)).isZero();
    slots.release(1);

    assertThat(slots.tryAcquireUpTo(5)).isEqualTo(1);
  }

  @Test
  void givingBackMorePlacesThanWereTakenIsABug() throws InterruptedException {
    SlotPool slots = new SlotPool(2);
    assertThat(slots.acquireUpTo(1)).isEqualTo(1);

    assertThatThrownBy(() -> slots.release(2)).isInstanceOf(IllegalStateException.class);
  }

  /** Takes places with {@link SlotPool#acquireUpTo} on another thread; -1 if interrupted. */
  private static CompletableFuture<Integer> acquireElsewhere(SlotPool slots, int max) {
    return CompletableFuture.supplyAsync(
        () -> {
          try {
            return slots.acquireUpTo(max);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
          }
        });
  }
}
