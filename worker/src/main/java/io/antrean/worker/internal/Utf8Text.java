package io.antrean.worker.internal;

import java.nio.charset.StandardCharsets;

/** Cuts text to a byte budget in UTF-8 without splitting a character. Stateless. */
final class Utf8Text {
  private Utf8Text() {}

  /**
   * Returns {@code text}, or its longest prefix whose UTF-8 encoding fits in {@code maxBytes}
   * bytes, never ending inside a surrogate pair.
   */
  static String truncate(String text, int maxBytes) {
    if (text.length() * 3L <= maxBytes
        || text.getBytes(StandardCharsets.UTF_8).length <= maxBytes) {
      return text;
    }
    int bytes = 0;
    int end = 0;
    while (end < text.length()) {
      int codePoint = text.codePointAt(end);
      int size = utf8Length(codePoint);
      if (bytes + size > maxBytes) {
        break;
      }
      bytes += size;
      end += Character.charCount(codePoint);
    }
    return text.substring(0, end);
  }

  private static int utf8Length(int codePoint) {
    if (codePoint < 0x80) {
      return 1;
    }
    if (codePoint < 0x800) {
      return 2;
    }
    return codePoint < 0x10000 ? 3 : 4;
  }
}
