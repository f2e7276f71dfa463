package io.antrean.client.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine.TypeConversionException;

class TimeBoundTest {
  private static final Instant NOW = Instant.parse("2027-01-15T08:00:00Z");
  private final TimeBound.Converter converter = new TimeBound.Converter();

  @ParameterizedTest
  @CsvSource({
    "30m, 2027-01-15T07:30:00Z",
    "1h, 2027-01-15T07:00:00Z",
    "2d, 2027-01-13T08:00:00Z",
    "1h30m, 2027-01-15T06:30:00Z",
    "PT15M, 2027-01-15T07:45:00Z",
    "0s, 2027-01-15T08:00:00Z"
  })
  void aDurationCountsBackFromNow(String text, String expected) {
    assertThat(converter.convert(text).resolve(NOW)).isEqualTo(Instant.parse(expected));
  }

  @ParameterizedTest
  @CsvSource({
    "2026-11-02T10:00:00Z, 2026-11-02T10:00:00Z",
    "2026-11-02T12:00:00+02:00, 2026-11-02T10:00:00Z",
    "2026-11-02T10:00:00.250Z, 2026-11-02T10:00:00.250Z",
    "2026-11-02t10:00:00z, 2026-11-02T10:00:00Z",
    "2026-11-02 10:00:00Z, 2026-11-02T10:00:00Z",
    "2026-11-02, 2026-11-02T00:00:00Z"
  })
  void anRfc3339TimeOrADateIsThatInstantWhateverNowIs(String text, String expected) {
    TimeBound bound = converter.convert(text);

    assertThat(bound.resolve(NOW)).isEqualTo(Instant.parse(expected));
    assertThat(bound.resolve(NOW.plus(Duration.ofDays(3)))).isEqualTo(Instant.parse(expected));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {"", "yesterday", "-1h", "1 hour", "2026-11-02T10:00:00", "2026-13-02", "12:00Z"})
  void anythingElseIsRejectedWithTheAcceptedForms(String text) {
    assertThatThrownBy(() -> converter.convert(text))
        .isInstanceOf(TypeConversionException.class)
        .hasMessageContaining("RFC 3339 time (2026-11-02T10:00:00Z");
  }
}
