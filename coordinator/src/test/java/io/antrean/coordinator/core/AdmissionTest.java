package io.antrean.coordinator.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.antrean.coordinator.core.Admission.Kind;
import io.antrean.coordinator.store.OverloadedException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class AdmissionTest {
  private final Admission admission =
      new Admission(new InFlightLimits(1000, 2, 1, 1, Duration.ofMillis(1500)));

  @Test
  void callsPastTheLimitAreRefusedWithTheLimitAndTheRetryHint() {
    Admission.Ticket first = admission.admit(Kind.UNARY);
    admission.admit(Kind.UNARY);

    assertThatThrownBy(() -> admission.admit(Kind.UNARY))
        .isInstanceOfSatisfying(
            OverloadedException.class,
            e -> {
              assertThat(e.limit()).isEqualTo("in_flight_calls");
              assertThat(e.retryAfter()).isEqualTo(Duration.ofMillis(1500));
              assertThat(e.getMessage()).contains("2 unary calls");
            });
    assertThat(admission.inFlight(Kind.UNARY)).isEqualTo(2);

    first.close();
    first.close();
    assertThat(admission.inFlight(Kind.UNARY)).isEqualTo(1);
    admission.admit(Kind.UNARY);
  }

  @Test
  void eachKindHasItsOwnCount() {
    admission.admit(Kind.LONG_POLL);
    admission.admit(Kind.WATCH);

    assertThatThrownBy(() -> admission.admit(Kind.LONG_POLL))
        .isInstanceOfSatisfying(
            OverloadedException.class, e -> assertThat(e.limit()).isEqualTo("long_polls"));
    assertThatThrownBy(() -> admission.admit(Kind.WATCH))
        .isInstanceOfSatisfying(
            OverloadedException.class, e -> assertThat(e.limit()).isEqualTo("watch_streams"));
    admission.admit(Kind.UNARY);
  }

  @Test
  void bytesPastTheLimitAreRefusedAndNotHeldAndClosingGivesEveryByteBack() {
    Admission.Ticket a = admission.admit(Kind.UNARY);
    a.addBytes(600);
    Admission.Ticket b = admission.admit(Kind.UNARY);

    assertThatThrownBy(() -> b.addBytes(401))
        .isInstanceOfSatisfying(
            OverloadedException.class, e -> assertThat(e.limit()).isEqualTo("in_flight_bytes"));
    assertThat(admission.bytesInFlight()).isEqualTo(600);
    b.addBytes(400);
    assertThat(admission.bytesInFlight()).isEqualTo(1000);

    a.close();
    b.close();
    assertThat(admission.bytesInFlight()).isZero();
    assertThat(admission.inFlight(Kind.UNARY)).isZero();
  }

  @Test
  void aRequestLargerThanTheWholeLimitIsTakenOnlyAlone() {
    Admission.Ticket big = admission.admit(Kind.UNARY);
    big.addBytes(5000);
    Admission.Ticket small = admission.admit(Kind.UNARY);

    assertThatThrownBy(() -> small.addBytes(1)).isInstanceOf(OverloadedException.class);
    big.close();
    small.addBytes(1);
  }

  @Test
  void defaultsScaleWithTheHeapWithinBounds() {
    assertThat(InFlightLimits.forHeap(128L << 20).maxBytes()).isEqualTo(16L << 20);
    assertThat(InFlightLimits.forHeap(1L << 30).maxBytes()).isEqualTo(128L << 20);
    assertThat(InFlightLimits.forHeap(64L << 30).maxBytes()).isEqualTo(256L << 20);
  }
}
