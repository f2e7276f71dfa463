package io.antrean.coordinator.store.postgres;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Collections;
import java.util.Map;

/** The plan PostgreSQL picks for a statement with its parameters bound, as EXPLAIN's text. */
final class PlanText {
  /** The arguments of {@code lease_jobs} (migration V14), as parameters of its query. */
  private static final Map<String, String> LEASE_ARGUMENTS =
      Map.of(
          "p_queue", "($1::text)",
          "p_now", "($2::timestamptz)",
          "p_types", "($3::text[])",
          "p_limit", "($4::integer)",
          "p_digests", "($5::bytea[])",
          "p_worker_id", "($6::text)",
          "p_expires_at", "($7::timestamptz)",
          "p_max_bytes", "($8::bigint)");

  private PlanText() {}

  /**
   * The plan {@code lease_jobs} keeps: the generic plan of the query in its body as the
   * connection's schema holds it, its arguments made parameters, under the settings the function
   * sets for itself ({@code plan_cache_mode = force_generic_plan}, {@code enable_sort = off}).
   */
  static String explainLease(Connection connection) throws SQLException {
    String body = (String) leaseFunction(connection, "prosrc");
    String query =
        body.substring(
            body.indexOf("RETURN QUERY") + "RETURN QUERY".length(), body.lastIndexOf(';'));
    for (Map.Entry<String, String> argument : LEASE_ARGUMENTS.entrySet()) {
      query = query.replace(argument.getKey(), argument.getValue());
    }
    String[] settings = (String[]) ((Array) leaseFunction(connection, "proconfig")).getArray();
    return explainPrepared(
        connection,
        query,
        settings,
        "EXECUTE function_plan (NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)");
  }

  /**
   * The plan of {@code unfinished_counts} (migration V16) for {@code queue}: the query of its body
   * with the queue and now bound, under the settings the function sets for itself.
   */
  static String explainUnfinishedCounts(Connection connection, String queue) throws SQLException {
    String query =
        ((String) function(connection, "unfinished_counts", 2, "prosrc"))
            .replace("p_queue", "($1::text)")
            .replace("p_now", "($2::timestamptz)");
    String[] settings =
        (String[]) ((Array) function(connection, "unfinished_counts", 2, "proconfig")).getArray();
    return explainPrepared(
        connection, query, settings, "EXECUTE function_plan ('" + queue + "', now())");
  }

  /**
   * The generic plan of {@code sql}, a statement with JDBC's {@code ?} parameters and no question
   * mark elsewhere: the plan PostgreSQL keeps for a statement once it judges it dearer to plan each
   * call, made without knowing any parameter.
   */
  static String explainGeneric(Connection connection, String sql) throws SQLException {
    StringBuilder query = new StringBuilder();
    int parameters = 0;
    for (char c : sql.toCharArray()) {
      if (c == '?') {
        query.append('$').append(++parameters);
      } else {
        query.append(c);
      }
    }
    return explainPrepared(
        connection,
        query.toString(),
        new String[] {"plan_cache_mode=force_generic_plan"},
        "EXECUTE function_plan ("
            + String.join(", ", Collections.nCopies(parameters, "NULL"))
            + ")");
  }

  /** Explains {@code execute} of {@code query} prepared as {@code function_plan} under settings. */
  private static String explainPrepared(
      Connection connection, String query, String[] settings, String execute) throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute("PREPARE function_plan AS " + query);
      for (String setting : settings) {
        int equals = setting.indexOf('=');
        statement.execute(
            "SET " + setting.substring(0, equals) + " = '" + setting.substring(equals + 1) + "'");
      }
      try {
        return explain(connection, execute);
      } finally {
        for (String setting : settings) {
          statement.execute("RESET " + setting.substring(0, setting.indexOf('=')));
        }
        statement.execute("DEALLOCATE function_plan");
      }
    }
  }

  /**
   * A column of the row in {@code pg_proc} of the {@code lease_jobs} the store calls (the one with
   * a payload budget), in the connection's schema.
   */
  static Object leaseFunction(Connection connection, String column) throws SQLException {
    return function(connection, "lease_jobs", 8, column);
  }

  /** A column of the row in {@code pg_proc} of a function of the connection's schema. */
  static Object function(Connection connection, String name, int arguments, String column)
      throws SQLException {
    try (PreparedStatement function =
        connection.prepareStatement(
            "SELECT "
                + column
                + " FROM pg_proc WHERE proname = ? AND pronargs = ?"
                + " AND pronamespace = current_schema()::regnamespace")) {
      function.setString(1, name);
      function.setInt(2, arguments);
      try (ResultSet row = function.executeQuery()) {
        row.next();
        return row.getObject(1);
      }
    }
  }

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
