package io.antrean.coordinator.store.postgres;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import javax.annotation.Nullable;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * PostgreSQL for the store tests: ONE server per test run ({@link TestPostgresServer}), shared by
 * every test class that registers this extension with {@code @RegisterExtension static final
 * TestPostgres postgres = new TestPostgres();}. A test asks for {@link #freshSchema()} and gets a
 * migrated schema with empty tables that no other test uses at the same time; it is emptied and
 * handed to a later test once this test (or, when asked for in a {@code @BeforeAll}, this class) is
 * done, so tests stay independent without paying for a migration each.
 */
public final class TestPostgres
    implements BeforeAllCallback, BeforeEachCallback, AfterEachCallback, AfterAllCallback {
  private static final ExtensionContext.Namespace NAMESPACE =
      ExtensionContext.Namespace.create(TestPostgres.class);

  private final List<String> schemasOfTheTest = new ArrayList<>();
  private final List<String> schemasOfTheClass = new ArrayList<>();
  private boolean inTest;
  @Nullable private TestPostgresServer server;

  @Override
  public void beforeAll(ExtensionContext context) {
    // The root context's store lives for the whole run and closes the server when it ends.
    server =
        context
            .getRoot()
            .getStore(NAMESPACE)
            .computeIfAbsent(
                TestPostgresServer.class,
                type -> TestPostgresServer.start(),
                TestPostgresServer.class);
  }

  @Override
  public void beforeEach(ExtensionContext context) {
    inTest = true;
  }

  @Override
  public void afterEach(ExtensionContext context) {
    inTest = false;
    giveBack(schemasOfTheTest);
  }

  @Override
  public void afterAll(ExtensionContext context) {
    giveBack(schemasOfTheClass);
  }

  /**
   * Options for a schema of the test's own: migrated, with empty tables (the schema's first store
   * migrates it; later ones find it up to date).
   */
  public PostgresOptions freshSchema() {
    String schema = server().takeSchema();
    (inTest ? schemasOfTheTest : schemasOfTheClass).add(schema);
    return server().options(schema);
  }

  private void giveBack(List<String> schemas) {
    schemas.forEach(server()::giveBack);
    schemas.clear();
  }

  /** A plain connection to the test database, outside every store. */
  Connection connect() throws SQLException {
    return server().connect();
  }

  /** A plain connection to the test database, in the schema of {@code options}. */
  Connection connect(PostgresOptions options) throws SQLException {
    Connection connection = connect();
    connection.setSchema(options.schema());
    return connection;
  }

  /** Runs one statement on a plain connection. */
  void execute(String sql) throws SQLException {
    try (Connection connection = connect();
        Statement statement = connection.createStatement()) {
      statement.execute(sql);
    }
  }

  /** Runs one statement on a plain connection, in the schema of {@code options}. */
  void execute(PostgresOptions options, String sql) throws SQLException {
    try (Connection connection = connect(options);
        Statement statement = connection.createStatement()) {
      statement.execute(sql);
    }
  }

  private TestPostgresServer server() {
    if (server == null) {
      throw new IllegalStateException(
          "register TestPostgres with @RegisterExtension on a static field");
    }
    return server;
  }
}
