package io.antrean.coordinator.store.postgres;

import static io.antrean.coordinator.store.TestJobs.T0;
import static io.antrean.coordinator.store.TestJobs.at;
import static io.antrean.coordinator.store.TestJobs.job;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.store.IdempotencyConflictException;
import io.antrean.coordinator.store.JobStoreFixture;
import io.antrean.coordinator.store.LeaseClaim;
import io.antrean.coordinator.store.LeaseSpec;
import io.antrean.coordinator.store.TestJobs;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

/**
 * Wake-ups across coordinators: a change on one store instance reaches a listener subscribed on
 * another instance through LISTEN/NOTIFY on the shared database.
 */
@Timeout(60)
class PostgresJobsReadyTest {
  @RegisterExtension static final TestPostgres postgres = new TestPostgres();
  private static final Duration WAIT = Duration.ofSeconds(20);

  private PostgresOptions options;
  private String listenerApplication;
  private PostgresJobStore producer;
  private PostgresJobStore listener;
  private final BlockingQueue<String> heard = new LinkedBlockingQueue<>();

  @BeforeEach
  void openTwoStoresAndListenOnOne() throws Exception {
    options = postgres.freshSchema();
    listenerApplication = new ListenerCensus(options.schema()).applicationName();
    producer = PostgresJobStore.open(options);
    listener = PostgresJobStore.open(options);
    listener.subscribeJobsReady(heard::add);
    assertThat(listener.awaitListening(WAIT)).as("listening").isTrue();
  }

  @AfterEach
  void closeBoth() {
    producer.close();
    listener.close();
  }

  private static String uniqueQueue(String name) {
    return name + "-" + UUID.randomUUID();
  }

  /** Waits for a wake-up for the queue and returns every queue heard before it. */
  private List<String> awaitWakeUp(String queue) throws InterruptedException {
    List<String> before = new ArrayList<>();
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (System.nanoTime() < deadline) {
      String next = heard.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
      if (queue.equals(next)) {
        return before;
      }
      if (next != null) {
        before.add(next);
      }
    }
    throw new AssertionError("no wake-up for queue " + queue + " within " + WAIT);
  }

  private Job leaseOne(String queue, int expiresAfterSeconds) {
    LeaseSpec spec = new LeaseSpec("w", queue, Set.of(), 1, at(expiresAfterSeconds));
    return producer.lease(spec, T0).get(0);
  }

  @Test
  void enqueueOnOneStoreWakesAListenerOnAnother() throws Exception {
    String queue = uniqueQueue("mail");

    producer.enqueue(List.of(job("email").queue(queue).build()), T0);

    awaitWakeUp(queue);
  }

  @Test
  void releaseExpiryAndRedriveWakeListenersToo() throws Exception {
    String released = uniqueQueue("released");
    String expired = uniqueQueue("expired");
    String redriven = uniqueQueue("redriven");
    producer.enqueue(
        List.of(
            job("t").queue(released).build(),
            job("t").queue(expired).build(),
            job("t").queue(redriven).build()),
        T0);
    Job toRelease = leaseOne(released, 30);
    Job toExpire = leaseOne(expired, 10);
    Job toRedrive = leaseOne(redriven, 30);
    producer.fail(
        toRedrive.id(),
        LeaseClaim.of(toRedrive),
        "w",
        JobStoreFixture.PERMANENT,
        TestJobs.NEVER_RETRY,
        at(1));
    heard.clear();

    producer.release(toRelease.id(), LeaseClaim.of(toRelease), "w", "shutdown", at(2));
    awaitWakeUp(released);
    producer.expireLeases(at(10), 10);
    awaitWakeUp(expired);
    producer.redrive(List.of(toRedrive.id()), at(3), Duration.ZERO, at(3));
    awaitWakeUp(redriven);
  }

  @Test
  void aRolledBackEnqueueWakesNobody() throws Exception {
    String keyed = uniqueQueue("keyed");
    producer.enqueue(List.of(job("email").queue(keyed).key("k").payload("{\"v\":1}").build()), T0);
    awaitWakeUp(keyed);
    String rolledBack = uniqueQueue("rolled-back");
    String committed = uniqueQueue("committed");

    assertThatThrownBy(
            () ->
                producer.enqueue(
                    List.of(
                        job("t").queue(rolledBack).build(),
                        job("email").queue(keyed).key("k").payload("{\"v\":2}").build()),
                    T0))
        .isInstanceOf(IdempotencyConflictException.class);
    producer.enqueue(List.of(job("t").queue(committed).build()), T0);

    // Notifications arrive in commit order: one from the rolled-back call would come first.
    assertThat(awaitWakeUp(committed)).doesNotContain(rolledBack);
  }

  @Test
  void listenerReconnectsAfterItsConnectionIsKilled() throws Exception {
    try (Connection admin = postgres.connect();
        Statement statement = admin.createStatement();
        ResultSet killed =
            statement.executeQuery(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
                    + " WHERE application_name = '"
                    + listenerApplication
                    + "'")) {
      killed.next();
      assertThat(killed.getInt(1)).as("listening connections terminated").isPositive();
    }
    String queue = uniqueQueue("after-reconnect");

    // Notifications sent before the listener is back are lost by design; keep sending.
    await()
        .atMost(WAIT)
        .pollInterval(Duration.ofMillis(200))
        .until(
            () -> {
              producer.enqueue(List.of(job("t").queue(queue).build()), T0);
              return heard.contains(queue);
            });
  }

  private int listeningConnections() throws Exception {
    try (Connection admin = postgres.connect();
        Statement statement = admin.createStatement();
        ResultSet listening =
            statement.executeQuery(
                "SELECT count(*) FROM pg_stat_activity WHERE application_name = '"
                    + listenerApplication
                    + "'")) {
      listening.next();
      return listening.getInt(1);
    }
  }

  @Test
  void closingTheStoreClosesItsListeningConnection() throws Exception {
    assertThat(listeningConnections()).isEqualTo(1);

    listener.close();

    // The server drops a backend a moment after its client hangs up.
    await().atMost(WAIT).until(() -> listeningConnections() == 0);
  }

  /** A bare session listening on the channel, as another coordinator's would: not counted. */
  private static Connection bareListener() throws Exception {
    Connection bare = postgres.connect();
    try (Statement statement = bare.createStatement()) {
      statement.execute("LISTEN " + PooledTransactions.JOBS_READY_CHANNEL);
    }
    return bare;
  }

  /**
   * Waits for a census that finds no other listener: schemas are reused by later tests, and the
   * server drops the backend of an earlier test's closed store a moment after it hung up.
   */
  private void awaitAlone() {
    await().atMost(WAIT).until(() -> !listener.notifiesOthers());
  }

  /** A session with this installation's listener application name, as another coordinator's. */
  private Connection installationSession() throws Exception {
    Properties properties = new Properties();
    properties.setProperty("user", options.user());
    properties.setProperty(
        "ApplicationName", new ListenerCensus(options.schema()).applicationName());
    return DriverManager.getConnection(options.jdbcUrl(), properties);
  }

  private static void notify(Statement statement, String payload) throws Exception {
    statement
        .executeQuery(
            "SELECT pg_notify('" + PooledTransactions.JOBS_READY_CHANNEL + "', '" + payload + "')")
        .close();
  }

  /** Reads the bare session's notifications until one names the queue; returns those before it. */
  private static List<String> awaitNotified(Connection bare, String queue) throws Exception {
    PGConnection session = bare.unwrap(PGConnection.class);
    List<String> before = new ArrayList<>();
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (System.nanoTime() < deadline) {
      PGNotification[] notifications = session.getNotifications(200);
      for (PGNotification notification :
          notifications == null ? new PGNotification[0] : notifications) {
        if (queue.equals(notification.getParameter())) {
          return before;
        }
        before.add(notification.getParameter());
      }
    }
    throw new AssertionError("no notification for queue " + queue + " within " + WAIT);
  }

  @Test
  void aCoordinatorAloneTellsItsOwnSubscribersWithoutNotifyingUntilAnotherJoins() throws Exception {
    // The producer store has no subscriber, so no listening connection: the listener store is
    // alone once a census no longer finds the listener of an earlier test on this schema.
    awaitAlone();
    String alone = uniqueQueue("alone");
    String joined = uniqueQueue("joined");
    try (Connection bare = bareListener();
        Statement statement = bare.createStatement()) {
      listener.enqueue(List.of(job("t").queue(alone).build()), T0);
      awaitWakeUp(alone);

      // Another installation's join note changes nothing: the listener has read it once it hears
      // the queue notified after it.
      String otherInstallation = new ListenerCensus(options.schema() + "_other").joinNote();
      String after = uniqueQueue("after-other-note");
      notify(statement, otherInstallation);
      notify(statement, after);
      awaitWakeUp(after);
      assertThat(listener.notifiesOthers())
          .as("notifies after another installation's note")
          .isFalse();
      // A session of this installation announces itself, as a coordinator does once its LISTEN is
      // in place; it carries the application name, so later censuses count it too.
      String thisInstallation = new ListenerCensus(options.schema()).joinNote();
      try (Connection newcomer = installationSession();
          Statement announce = newcomer.createStatement()) {
        notify(announce, thisInstallation);
        await().atMost(WAIT).until(listener::notifiesOthers);
        listener.enqueue(List.of(job("t").queue(joined).build()), T0);

        // Notifications arrive in commit order: one for the first Enqueue would come first.
        assertThat(awaitNotified(bare, joined))
            .containsExactly(otherInstallation, after, thisInstallation);
        awaitWakeUp(joined);
      }
    }
  }

  @Test
  void theCensusCountsAnotherListeningCoordinatorUntilItCloses() throws Exception {
    awaitAlone();
    PostgresJobStore other = PostgresJobStore.open(options);
    Set<String> otherHeard = ConcurrentHashMap.newKeySet();
    try {
      other.subscribeJobsReady(otherHeard::add);
      assertThat(other.awaitListening(WAIT)).as("listening").isTrue();
      assertThat(other.notifiesOthers()).as("the newcomer counts the first").isTrue();
      await().atMost(WAIT).until(listener::notifiesOthers);
      String queue = uniqueQueue("two");

      listener.enqueue(List.of(job("t").queue(queue).build()), T0);

      await().atMost(WAIT).until(() -> otherHeard.contains(queue));
    } finally {
      other.close();
    }
    // The next census (every few seconds) no longer finds the closed store's session.
    await().atMost(WAIT).until(() -> !listener.notifiesOthers());
  }
}
