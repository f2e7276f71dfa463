package io.antrean.coordinator.store.postgres;

import java.time.Duration;
import java.util.Objects;
import java.util.regex.Pattern;
import javax.annotation.Nullable;

/**
 * Where a {@link PostgresJobStore} finds its database and how many connections it may hold. Start
 * from {@link #of} and change what you need. {@link #toString()} never shows the password.
 *
 * @param jdbcUrl a {@code jdbc:postgresql://host:port/database} URL
 * @param user the database role
 * @param password the role's password; null when the server needs none (trust, peer, a .pgpass)
 * @param poolSize the most pooled connections this store holds; at least 1. The listener for
 *     wake-ups from other coordinators uses one more, outside the pool.
 * @param schema the schema that holds Antrean's tables; created by the first migration if missing.
 *     Several Antrean installations can share one database, one schema each.
 * @param connectionTimeout how long a call waits for a free pooled connection before it fails with
 *     {@link io.antrean.coordinator.store.StoreUnavailableException}
 */
public record PostgresOptions(
    String jdbcUrl,
    String user,
    @Nullable String password,
    int poolSize,
    String schema,
    Duration connectionTimeout) {

  /** The pool size of {@link #of}. */
  public static final int DEFAULT_POOL_SIZE = 10;

  /** The schema of {@link #of}. */
  public static final String DEFAULT_SCHEMA = "public";

  /** The connection timeout of {@link #of}. */
  public static final Duration DEFAULT_CONNECTION_TIMEOUT = Duration.ofSeconds(5);

  private static final Pattern SCHEMA_NAME = Pattern.compile("[a-z_][a-z0-9_]{0,62}");
  private static final Pattern URL_PASSWORD = Pattern.compile("(?i)(password=)[^&]*");

  public PostgresOptions {
    Objects.requireNonNull(jdbcUrl, "jdbcUrl");
    Objects.requireNonNull(user, "user");
    Objects.requireNonNull(schema, "schema");
    Objects.requireNonNull(connectionTimeout, "connectionTimeout");
    if (!jdbcUrl.startsWith("jdbc:postgresql:")) {
      throw new IllegalArgumentException("jdbcUrl must start with jdbc:postgresql:");
    }
    if (poolSize < 1) {
      throw new IllegalArgumentException("poolSize must be at least 1, got " + poolSize);
    }
    // Lower-case identifiers only: they need no quoting and mean the same in SQL and to Flyway.
    if (!SCHEMA_NAME.matcher(schema).matches()) {
      throw new IllegalArgumentException(
          "schema must be a lower-case SQL identifier ([a-z_][a-z0-9_]*, at most 63), got "
              + schema);
    }
    if (connectionTimeout.compareTo(Duration.ofMillis(250)) < 0) {
      throw new IllegalArgumentException(
          "connectionTimeout must be at least 250 ms, got " + connectionTimeout);
    }
  }

  /** The database at {@code jdbcUrl} with the default pool size, schema and timeout. */
  public static PostgresOptions of(String jdbcUrl, String user, @Nullable String password) {
    return new PostgresOptions(
        jdbcUrl, user, password, DEFAULT_POOL_SIZE, DEFAULT_SCHEMA, DEFAULT_CONNECTION_TIMEOUT);
  }

  public PostgresOptions withPoolSize(int value) {
    return new PostgresOptions(jdbcUrl, user, password, value, schema, connectionTimeout);
  }

  public PostgresOptions withSchema(String value) {
    return new PostgresOptions(jdbcUrl, user, password, poolSize, value, connectionTimeout);
  }

  public PostgresOptions withConnectionTimeout(Duration value) {
    return new PostgresOptions(jdbcUrl, user, password, poolSize, schema, value);
  }

  /** The JDBC URL with any password parameter in it masked, for logs. */
  public String redactedUrl() {
    return URL_PASSWORD.matcher(jdbcUrl).replaceAll("$1***");
  }

  /** Everything but the password (also masked inside the URL). */
  @Override
  public String toString() {
    return "PostgresOptions[jdbcUrl="
        + redactedUrl()
        + ", user="
        + user
        + ", password="
        + (password == null ? "none" : "***")
        + ", poolSize="
        + poolSize
        + ", schema="
        + schema
        + ", connectionTimeout="
        + connectionTimeout
        + "]";
  }
}
