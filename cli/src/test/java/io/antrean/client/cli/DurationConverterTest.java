package io.antrean.client.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.antrean.duration.DurationSyntax;
import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine.TypeConversionException;

class DurationConverterTest {
  private final DurationConverter converter = new DurationConverter();

  @ParameterizedTest
  @CsvSource({
    "250ms, PT0.25S",
    "5s, PT5S",
    "2m, PT2M",
    "1h30m, PT1H30M",
    "1d, PT24H",
    "1m30s, PT1M30S",
    "PT5S, PT5S",
    "P7D, PT168H",
    "pt0.5s, PT0.5S",
    "0s, PT0S"
  })
  void readsTheSharedSyntax(String text, String expected) {
    assertThat(converter.convert(text)).isEqualTo(Duration.parse(expected));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {"", "5", "5x", "s", "-5s", "PT-5S", "5 s", "1.5s", "99999999999999999999d"})
  void rejectsAnythingElseWithTheSharedMessage(String text) {
    assertThatThrownBy(() -> converter.convert(text))
        .isInstanceOf(TypeConversionException.class)
        .hasMessage(DurationSyntax.problem(text));
  }
}
