package io.antrean.coordinator.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.antrean.coordinator.core.QueueRates.Kind;
import io.antrean.coordinator.core.QueueRates.Minute;
import io.antrean.coordinator.core.QueueRates.Series;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class QueueRatesTest {
  private static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");

  private final QueueRates rates = new QueueRates();

  @Test
  void countsArePerQueueAndMinuteEndingWithTheCurrentMinute() {
    rates.count("mail", Kind.ENQUEUED, T0);
    rates.count("mail", Kind.ENQUEUED, T0.plusSeconds(59));
    rates.count("mail", Kind.STARTED, T0.plusSeconds(61));
    rates.count("mail", Kind.SUCCEEDED, T0.plusSeconds(62));
    rates.count("mail", Kind.FAILED, T0.plusSeconds(63));
    rates.count("reports", Kind.ENQUEUED, T0.plusSeconds(120));

    List<Series> all = rates.snapshot(null, T0.plusSeconds(150));

    assertThat(all).extracting(Series::queue).containsExactly("mail", "reports");
    List<Minute> mail = all.get(0).minutes();
    assertThat(mail).hasSize(QueueRates.MINUTES);
    assertThat(mail.get(59).start()).isEqualTo(T0.plusSeconds(120));
    assertThat(mail.get(57)).isEqualTo(new Minute(T0, 2, 0, 0, 0));
    assertThat(mail.get(58)).isEqualTo(new Minute(T0.plusSeconds(60), 0, 1, 1, 1));
    assertThat(mail.get(59)).isEqualTo(new Minute(T0.plusSeconds(120), 0, 0, 0, 0));
    assertThat(rates.snapshot("reports", T0.plusSeconds(150)))
        .singleElement()
        .satisfies(s -> assertThat(s.minutes().get(59).enqueued()).isEqualTo(1));
  }

  @Test
  void aMinuteOlderThanAnHourIsForgottenWhenItsSlotComesRound() {
    rates.count("mail", Kind.ENQUEUED, T0);
    rates.count("mail", Kind.ENQUEUED, T0.plusSeconds(3600));

    List<Minute> minutes = rates.snapshot(null, T0.plusSeconds(3600)).get(0).minutes();
    assertThat(minutes.stream().mapToLong(Minute::enqueued).sum()).isEqualTo(1);
    assertThat(minutes.get(0).start()).isEqualTo(T0.plusSeconds(60));

    assertThat(rates.snapshot(null, T0.plusSeconds(2 * 3600)))
        .as("nothing in the last hour")
        .isEmpty();
  }

  @Test
  void anEventOlderThanTheRingIsIgnored() {
    rates.count("mail", Kind.ENQUEUED, T0.plusSeconds(3600));
    rates.count("mail", Kind.ENQUEUED, T0);

    assertThat(rates.snapshot(null, T0.plusSeconds(3600)).get(0).minutes().get(59).enqueued())
        .isEqualTo(1);
  }

  @Test
  void badQueueNameIsAValidationErrorOnQueue() {
    assertThatThrownBy(() -> rates.snapshot("no spaces", T0))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("queue");
  }
}
