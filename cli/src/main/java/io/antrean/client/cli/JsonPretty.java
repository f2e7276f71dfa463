package io.antrean.client.cli;

/**
 * Re-indents JSON text for people, two spaces a level, without parsing values: numbers, strings and
 * escapes come out exactly as they went in (a round trip through a JSON library would turn {@code
 * 2} into {@code 2.0} and lose digits of large integers). Stateless and thread-safe.
 */
final class JsonPretty {
  private static final String INDENT = "  ";

  private JsonPretty() {}

  /**
   * The JSON with one member or element per line.
   *
   * @param json text already known to be valid JSON; anything else comes out garbled
   */
  static String print(String json) {
    StringBuilder out = new StringBuilder(json.length() * 2);
    int depth = 0;
    boolean inString = false;
    boolean escaped = false;
    for (int i = 0; i < json.length(); i++) {
      char c = json.charAt(i);
      if (inString) {
        out.append(c);
        if (escaped) {
          escaped = false;
        } else if (c == '\\') {
          escaped = true;
        } else if (c == '"') {
          inString = false;
        }
        continue;
      }
      switch (c) {
        case '"' -> {
          inString = true;
          out.append(c);
        }
        case '{', '[' -> {
          int next = nextNonSpace(json, i + 1);
          char close = c == '{' ? '}' : ']';
          if (next < json.length() && json.charAt(next) == close) {
            out.append(c).append(close);
            i = next;
          } else {
            depth++;
            out.append(c);
            newLine(out, depth);
          }
        }
        case '}', ']' -> {
          depth--;
          newLine(out, depth);
          out.append(c);
        }
        case ',' -> {
          out.append(c);
          newLine(out, depth);
        }
        case ':' -> out.append(": ");
        default -> {
          if (!Character.isWhitespace(c)) {
            out.append(c);
          }
        }
      }
    }
    return out.toString();
  }

  private static int nextNonSpace(String json, int from) {
    int i = from;
    while (i < json.length() && Character.isWhitespace(json.charAt(i))) {
      i++;
    }
    return i;
  }

  private static void newLine(StringBuilder out, int depth) {
    out.append('\n').append(INDENT.repeat(Math.max(0, depth)));
  }
}
