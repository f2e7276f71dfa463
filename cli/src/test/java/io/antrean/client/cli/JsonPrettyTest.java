package io.antrean.client.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class JsonPrettyTest {

  @Test
  void nestedObjectsAndArraysGetOneMemberPerLine() {
    assertThat(
            JsonPretty.print("{\"to\":\"ada@example.com\",\"cc\":[\"b\",\"c\"],\"n\":{\"a\":1}}"))
        .isEqualTo(
            String.join(
                "\n",
                "{",
                "  \"to\": \"ada@example.com\",",
                "  \"cc\": [",
                "    \"b\",",
                "    \"c\"",
                "  ],",
                "  \"n\": {",
                "    \"a\": 1",
                "  }",
                "}"));
  }

  @Test
  void numbersStringsAndEscapesComeOutExactlyAsTheyWentIn() {
    assertThat(
            JsonPretty.print(
                "{\"big\":12345678901234567890,\"f\":2,\"s\":\"a, {b}: [c] \\\"q\\\" \\\\\"}"))
        .isEqualTo(
            String.join(
                "\n",
                "{",
                "  \"big\": 12345678901234567890,",
                "  \"f\": 2,",
                "  \"s\": \"a, {b}: [c] \\\"q\\\" \\\\\"",
                "}"));
  }

  @Test
  void emptyContainersStayOnOneLineAndExistingWhitespaceIsReplaced() {
    assertThat(JsonPretty.print("{ \"a\" : { } ,\n \"b\":[ ] }"))
        .isEqualTo(String.join("\n", "{", "  \"a\": {},", "  \"b\": []", "}"));
  }

  @Test
  void scalarsAreLeftAlone() {
    assertThat(JsonPretty.print("\"just text\"")).isEqualTo("\"just text\"");
    assertThat(JsonPretty.print("42")).isEqualTo("42");
  }
}
