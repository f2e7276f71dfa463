package io.antrean.duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class DurationSyntaxTest {

  @ParameterizedTest
  @CsvSource({
    "500ms, PT0.5S",
    "30s, PT30S",
    "2m, PT2M",
    "1h, PT1H",
    "7d, PT168H",
    "0s, PT0S",
    "1m30s, PT1M30S",
    "1h30m, PT1H30M",
    "2d12h, PT60H",
    "1s500ms, PT1.5S",
    "1d2h3m4s5ms, PT26H3M4.005S",
    "5m, PT5M",
    "5ms, PT0.005S"
  })
  void readsWholeNumbersWithUnitsAndTheirCombinations(String text, String expected) {
    assertThat(DurationSyntax.parse(text)).isEqualTo(Duration.parse(expected));
  }

  @ParameterizedTest
  @CsvSource({"PT30S, PT30S", "PT0.5S, PT0.5S", "P7D, PT168H", "P1DT2H, PT26H", "pt1m30s, PT90S"})
  void readsIso8601(String text, String expected) {
    assertThat(DurationSyntax.parse(text)).isEqualTo(Duration.parse(expected));
  }

  @Test
  void ignoresSurroundingWhitespaceAndLetterCase() {
    assertThat(DurationSyntax.parse(" 10S ")).isEqualTo(Duration.ofSeconds(10));
    assertThat(DurationSyntax.parse("1M30S")).isEqualTo(Duration.ofSeconds(90));
    assertThat(DurationSyntax.parse("250MS")).isEqualTo(Duration.ofMillis(250));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        " ",
        "5",
        "s",
        "5x",
        "5 s",
        "1.5s",
        "-5s",
        "PT-5S",
        "-PT5S",
        "P",
        "PT",
        "30s1m",
        "1m1m",
        "1m 30s",
        "99999999999999999999d",
        "9223372036854775807d",
        "thirty seconds"
      })
  void refusesEverythingElseWithOneMessage(String text) {
    assertThatThrownBy(() -> DurationSyntax.parse(text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "'" + text + "' is not a duration; write for example 500ms, 30s, 1m30s, 7d or PT30S");
  }

  @Test
  void theMessageQuotesTheValueAsWritten() {
    assertThat(DurationSyntax.problem(" 5x ")).startsWith("' 5x ' is not a duration");
  }
}
