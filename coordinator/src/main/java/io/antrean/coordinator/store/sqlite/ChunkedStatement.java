package io.antrean.coordinator.store.sqlite;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;

/**
 * One statement over many rows, in texts for 1, 2, 4 ... {@value #MAX_CHUNK} rows. A list is cut
 * into chunks of those sizes, largest first ({@link #chunks}), so a handful of texts serves every
 * list and stays in the connection's cache ({@link CachedConnection}). Immutable.
 */
final class ChunkedStatement {
  /**
   * The most rows one statement takes; 64 rows of the widest (a new job's 17 parameters) stay far
   * below SQLite's 32,766 parameters.
   */
  static final int MAX_CHUNK = 64;

  // Element k is the text for 2^k rows, built once.
  private final String[] texts;

  /**
   * @param sql the statement's text for a number of rows
   */
  ChunkedStatement(IntFunction<String> sql) {
    texts = new String[slot(MAX_CHUNK) + 1];
    for (int k = 0; k < texts.length; k++) {
      texts[k] = sql.apply(1 << k);
    }
  }

  /** The text for a chunk of {@code size} rows, one of the sizes {@link #chunks} returns. */
  String sql(int size) {
    return texts[slot(size)];
  }

  /** The sizes {@code count} is cut into: powers of two up to {@link #MAX_CHUNK}, largest first. */
  static List<Integer> chunks(int count) {
    List<Integer> sizes = new ArrayList<>();
    int left = count;
    while (left >= MAX_CHUNK) {
      sizes.add(MAX_CHUNK);
      left -= MAX_CHUNK;
    }
    for (int size = MAX_CHUNK / 2; size > 0; size /= 2) {
      if (left >= size) {
        sizes.add(size);
        left -= size;
      }
    }
    return sizes;
  }

  private static int slot(int size) {
    return Integer.numberOfTrailingZeros(size);
  }
}
