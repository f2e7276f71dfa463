package io.antrean.coordinator.store.postgres;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/** The plan PostgreSQL picks for a statement with its parameters bound, as EXPLAIN's text. */
final class PlanText {
  private PlanText() {}

  /**
   * Explains {@code sql} on {@code connection}; a {@code String[]} parameter is bound as a text
   * array, a {@code byte[][]} as a bytea array, a {@code Long[]} as a bigint array.
   */
  static String explain(Connection connection, String sql, Object... parameters)
      throws SQLException {
    try (PreparedStatement explain = connection.prepareStatement("EXPLAIN " + sql)) {
      for (int i = 0; i < parameters.length; i++) {
        Object value = parameters[i];
        if (value instanceof String[] strings) {
          value = connection.createArrayOf("text", strings);
        } else if (value instanceof byte[][] bytes) {
          value = connection.createArrayOf("bytea", bytes);
        } else if (value instanceof Long[] longs) {
          value = connection.createArrayOf("bigint", longs);
        }
        explain.setObject(i + 1, value);
      }
      StringBuilder plan = new StringBuilder();
      try (ResultSet rows = explain.executeQuery()) {
        while (rows.next()) {
          plan.append(rows.getString(1)).append('\n');
        }
      }
      return plan.toString();
    }
  }
}
