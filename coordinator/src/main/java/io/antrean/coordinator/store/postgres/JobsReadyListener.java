package io.antrean.coordinator.store.postgres;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.postgresql.Driver;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hears {@code NOTIFY antrean_jobs_ready, '<queue>'} from every coordinator on the database and
 * hands each queue name to the subscribed listeners.
 *
 * <p>One daemon thread holds a dedicated connection outside the pool (a LISTEN lasts as long as its
 * session, and a pooled connection would be handed to other work), waits for notifications with a
 * timeout, takes the {@link ListenerCensus} every few seconds (a round trip that also finds a
 * connection cut without a FIN), and reconnects with exponential backoff after any failure.
 * Notifications sent while it is disconnected are lost; the coordinator's periodic backup sweep
 * finds those jobs instead. Thread-safe.
 */
final class JobsReadyListener implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(JobsReadyListener.class);
  private static final int WAIT_MILLIS = 500;
  private static final long CENSUS_EVERY_NANOS = TimeUnit.SECONDS.toNanos(5);
  private static final int NETWORK_TIMEOUT_MILLIS = 5_000;
  private static final String JOIN =
      "SELECT pg_notify('" + PooledTransactions.JOBS_READY_CHANNEL + "', ?)";
  private static final Duration FIRST_BACKOFF = Duration.ofMillis(100);
  private static final Duration MAX_BACKOFF = Duration.ofSeconds(10);

  private final PostgresOptions options;
  private final ListenerCensus census;
  private final List<Consumer<String>> listeners = new CopyOnWriteArrayList<>();
  private final CountDownLatch closed = new CountDownLatch(1);
  private final Thread thread;
  private volatile CountDownLatch listening = new CountDownLatch(1);

  JobsReadyListener(PostgresOptions options, ListenerCensus census) {
    this.options = options;
    this.census = census;
    this.thread = new Thread(this::run, "antrean-postgres-jobs-ready");
    thread.setDaemon(true);
  }

  /** Adds a listener; the first one starts the thread. Listeners run on that thread. */
  synchronized void subscribe(Consumer<String> listener) {
    listeners.add(listener);
    if (thread.getState() == Thread.State.NEW && closed.getCount() > 0) {
      thread.start();
    }
  }

  /**
   * Hands queues made ready by this process to the subscribed listeners on the calling thread: what
   * this store's own notifications would have brought back, when no other coordinator listens.
   */
  void dispatchHere(Collection<String> queues) {
    for (String queue : queues) {
      dispatch(queue);
    }
  }

  /**
   * Waits until the LISTEN is in place and the first census taken (for tests: a NOTIFY sent before
   * it is not heard).
   */
  boolean awaitListening(Duration timeout) throws InterruptedException {
    return listening.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
  }

  private void run() {
    Duration backoff = FIRST_BACKOFF;
    while (closed.getCount() > 0) {
      try (Connection connection = connect()) {
        listen(connection);
        backoff = FIRST_BACKOFF;
        receive(connection);
      } catch (SQLException | RuntimeException e) {
        census.unknown();
        listening = new CountDownLatch(1);
        if (closed.getCount() == 0) {
          break;
        }
        log.warn(
            "listening for ready jobs on {} failed; reconnecting in {} ms: {}",
            options.redactedUrl(),
            backoff.toMillis(),
            e.toString());
        if (awaitClose(backoff)) {
          break;
        }
        backoff =
            backoff.multipliedBy(2).compareTo(MAX_BACKOFF) > 0
                ? MAX_BACKOFF
                : backoff.multipliedBy(2);
      }
    }
    census.unknown();
    log.debug("listener for ready jobs stopped");
  }

  private Connection connect() throws SQLException {
    Properties properties = new Properties();
    properties.setProperty("user", options.user());
    if (options.password() != null) {
      properties.setProperty("password", options.password());
    }
    properties.setProperty("ApplicationName", census.applicationName());
    properties.setProperty("tcpKeepAlive", "true");
    properties.setProperty(
        "connectTimeout", String.valueOf(Math.max(1, options.connectionTimeout().toSeconds())));
    Connection connection = new Driver().connect(options.jdbcUrl(), properties);
    if (connection == null) {
      throw new SQLException("not a PostgreSQL JDBC URL: " + options.redactedUrl());
    }
    // Every round trip fails after this long instead of hanging on a connection cut without a FIN.
    connection.setNetworkTimeout(Runnable::run, NETWORK_TIMEOUT_MILLIS);
    return connection;
  }

  private void listen(Connection connection) throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute("LISTEN " + PooledTransactions.JOBS_READY_CHANNEL);
    }
    try (PreparedStatement join = connection.prepareStatement(JOIN)) {
      join.setString(1, census.joinNote());
      join.executeQuery().close();
    }
    census.take(connection);
    listening.countDown();
    log.debug("listening for ready jobs on {}", options.redactedUrl());
  }

  private void receive(Connection connection) throws SQLException {
    PGConnection postgres = connection.unwrap(PGConnection.class);
    int ownSession = postgres.getBackendPID();
    long lastCensus = System.nanoTime();
    while (closed.getCount() > 0) {
      PGNotification[] notifications = postgres.getNotifications(WAIT_MILLIS);
      if (notifications != null) {
        for (PGNotification notification : notifications) {
          String payload = notification.getParameter();
          if (!ListenerCensus.isJoinNote(payload)) {
            dispatch(payload);
          } else if (notification.getPID() != ownSession) {
            census.heardJoinNote(payload);
          }
        }
      }
      if (System.nanoTime() - lastCensus > CENSUS_EVERY_NANOS) {
        census.take(connection);
        lastCensus = System.nanoTime();
      }
    }
  }

  private void dispatch(String queue) {
    for (Consumer<String> listener : listeners) {
      try {
        listener.accept(queue);
      } catch (RuntimeException e) {
        log.warn("a jobs-ready listener failed for queue {}", queue, e);
      }
    }
  }

  /** Waits out a backoff; true if the listener was closed meanwhile. */
  private boolean awaitClose(Duration backoff) {
    try {
      return closed.await(backoff.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return true;
    }
  }

  /** Stops the thread (within about half a second) and closes its connection. Idempotent. */
  @Override
  public void close() {
    closed.countDown();
    if (thread.getState() == Thread.State.NEW) {
      return;
    }
    try {
      thread.join(NETWORK_TIMEOUT_MILLIS + 1_000L);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
