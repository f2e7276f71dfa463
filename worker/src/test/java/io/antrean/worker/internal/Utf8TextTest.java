package io.antrean.worker.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class Utf8TextTest {

  @Test
  void shortTextIsUnchanged() {
    assertThat(Utf8Text.truncate("hello", 5)).isEqualTo("hello");
  }

  @Test
  void cutsAsciiToTheBudget() {
    assertThat(Utf8Text.truncate("hello world", 5)).isEqualTo("hello");
  }

  @Test
  void neverSplitsAMultiByteCharacter() {
    // "é" is two bytes, "😀" four.
    assertThat(Utf8Text.truncate("aé😀", 2)).isEqualTo("a");
    assertThat(Utf8Text.truncate("aé😀", 3)).isEqualTo("aé");
    assertThat(Utf8Text.truncate("aé😀", 6)).isEqualTo("aé");
    assertThat(Utf8Text.truncate("aé😀", 7)).isEqualTo("aé😀");
  }

  @Test
  void resultFitsTheBudgetInBytes() {
    String text = "ü".repeat(10_000);

    String cut = Utf8Text.truncate(text, 8192);

    assertThat(cut.getBytes(StandardCharsets.UTF_8)).hasSizeLessThanOrEqualTo(8192);
    assertThat(cut).hasSize(4096);
  }
}
