package io.antrean.coordinator.store.sqlite;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Relaxes a constraint of a table in the schema text SQLite stores, the procedure SQLite documents
 * for a change ALTER TABLE cannot make ("Making Other Kinds Of Table Schema Changes",
 * lang_altertable.html): the text is edited with {@code writable_schema} on and the schema cookie
 * bumped, so every connection reads the new schema. Only for changes every existing row already
 * passes (a wider CHECK, a dropped NOT NULL); the file format does not change.
 */
final class StoredSchemaText {
  private StoredSchemaText() {}

  /**
   * Replaces {@code before} with {@code after} in the stored text of {@code table}, once; nothing
   * when the text already holds {@code after} (a database migrated back by hand).
   *
   * @throws IllegalStateException if the text holds neither
   */
  static void relax(Statement statement, String table, String before, String after)
      throws SQLException {
    if (holds(statement, table, after)) {
      return;
    }
    int cookie;
    try (ResultSet row = statement.executeQuery("PRAGMA schema_version")) {
      row.next();
      cookie = row.getInt(1);
    }
    statement.execute("PRAGMA writable_schema = ON");
    int changed =
        statement.executeUpdate(
            "UPDATE sqlite_master SET sql = replace(sql, "
                + literal(before)
                + ", "
                + literal(after)
                + ") WHERE type = 'table' AND name = "
                + literal(table)
                + " AND instr(sql, "
                + literal(before)
                + ") > 0");
    if (changed != 1) {
      throw new IllegalStateException("'" + before + "' was not found in table " + table);
    }
    statement.execute("PRAGMA schema_version = " + (cookie + 1));
    statement.execute("PRAGMA writable_schema = OFF");
  }

  private static boolean holds(Statement statement, String table, String text) throws SQLException {
    try (ResultSet row =
        statement.executeQuery(
            "SELECT instr(sql, "
                + literal(text)
                + ") > 0 FROM sqlite_master WHERE type = 'table' AND name = "
                + literal(table))) {
      return row.next() && row.getBoolean(1);
    }
  }

  private static String literal(String text) {
    return "'" + text.replace("'", "''") + "'";
  }
}
