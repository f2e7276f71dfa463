package io.antrean.client.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A plain-text table with a header row and columns padded to their widest cell. Not thread-safe.
 */
final class TextTable {
  private static final String GAP = "  ";

  private final List<String[]> rows = new ArrayList<>();
  private final int columns;

  TextTable(String... headers) {
    this.columns = headers.length;
    rows.add(headers.clone());
  }

  /**
   * Adds a row; {@code String.valueOf} renders each cell.
   *
   * @throws IllegalArgumentException if the row has more or fewer cells than the header
   */
  TextTable add(Object... cells) {
    if (cells.length != columns) {
      throw new IllegalArgumentException(
          "row has " + cells.length + " cells, header has " + columns);
    }
    rows.add(Arrays.stream(cells).map(String::valueOf).toArray(String[]::new));
    return this;
  }

  /** Whether only the header is there. */
  boolean isEmpty() {
    return rows.size() == 1;
  }

  /** Prints the header and rows, one line each, without trailing spaces. */
  void print(PrintWriter out) {
    int[] widths = widths();
    for (String[] row : rows) {
      StringBuilder line = new StringBuilder();
      for (int c = 0; c < columns; c++) {
        line.append(row[c]);
        if (c < columns - 1) {
          line.append(" ".repeat(widths[c] - row[c].length())).append(GAP);
        }
      }
      out.println(line.toString().stripTrailing());
    }
  }

  private int[] widths() {
    int[] widths = new int[columns];
    for (String[] row : rows) {
      for (int c = 0; c < columns; c++) {
        widths[c] = Math.max(widths[c], row[c].length());
      }
    }
    return widths;
  }
}
