package io.antrean.it;

import io.antrean.proto.v1.JobServiceGrpc;
import io.antrean.proto.v1.WorkerServiceGrpc;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Real coordinator and worker processes for one test, on loopback, with their logs under
 * target/it-logs. Every process started here is stopped after the test; on a failure the logs are
 * printed. Register with {@code @RegisterExtension}.
 */
final class Cluster implements AfterEachCallback {
  private static final Path COORDINATOR_JAR = jar("antrean.coordinator.jar");
  private static final Path WORKER_JAR = jar("antrean.worker.jar");

  /** Every bundled handler, those only loaded when named included. */
  static final String TEST_HANDLERS = "email.send,report.build,flaky,sleep,crash,bench.noop";

  private final List<JvmProcess> processes = new ArrayList<>();
  private final List<ManagedChannel> channels = new CopyOnWriteArrayList<>();
  // One channel per started peer process, so polling a peer does not open a connection per poll.
  private final Map<Peer, ManagedChannel> peerChannels = new ConcurrentHashMap<>();
  private Path logDir;
  private Path dataDir;
  private int port = -1;
  private int httpPort = -1;
  private JvmProcess coordinator;
  private int coordinatorStarts;

  private static Path jar(String property) {
    String value = System.getProperty(property);
    if (value == null) {
      throw new IllegalStateException("system property " + property + " is not set");
    }
    return Path.of(value);
  }

  void setUp(Path dir, String testName) throws IOException {
    this.logDir = Path.of("target", "it-logs", testName).toAbsolutePath();
    this.dataDir = dir.resolve("data");
    Files.createDirectories(dataDir);
  }

  /** Starts (or restarts, on the same data dir and port) the coordinator and waits until ready. */
  JvmProcess startCoordinator(String... extraArgs) throws Exception {
    Peer peer = startPeer("coordinator-" + (coordinatorStarts + 1), dataDir, port, extraArgs);
    coordinator = peer.process();
    port = peer.port();
    httpPort = peer.httpPort();
    return coordinator;
  }

  /** A coordinator process, the gRPC port it serves on and its HTTP port (-1 when off). */
  record Peer(JvmProcess process, int port, int httpPort) {
    String target() {
      return "127.0.0.1:" + port;
    }
  }

  /**
   * Starts one more coordinator process on the PostgreSQL database, with its own data directory
   * beside the test's, named after it, on a free port, and waits until it serves.
   */
  Peer startPostgresPeer(String name, SharedPostgres.Database db, String... extraArgs)
      throws Exception {
    List<String> args =
        new ArrayList<>(
            List.of(
                "--store", "postgres", "--postgres-url", db.url(), "--postgres-user", db.user()));
    args.addAll(List.of(extraArgs));
    return startPeer(name, dataDir.resolveSibling(name), -1, args.toArray(String[]::new));
  }

  /**
   * Starts one more coordinator process (for clusters sharing a PostgreSQL store), on a free port
   * unless {@code fixedPort} is not negative, and waits until it serves.
   */
  Peer startPeer(String name, Path data, int fixedPort, String... extraArgs) throws Exception {
    Path ready = dir().resolve("ready-" + (++coordinatorStarts));
    Path httpReady = dir().resolve("http-port-" + coordinatorStarts);
    List<String> args =
        new ArrayList<>(
            List.of(
                "--data-dir", data.toString(),
                "--grpc-port", Integer.toString(fixedPort < 0 ? 0 : fixedPort),
                "--ready-file", ready.toString(),
                "--http-port-file", httpReady.toString()));
    if (!List.of(extraArgs).contains("--http-port")) {
      // Several coordinators run at once: none may hold the fixed default HTTP port.
      args.addAll(List.of("--http-port", "0"));
    }
    if (!List.of(extraArgs).contains("--sweep-interval")) {
      args.addAll(List.of("--sweep-interval", "1s"));
    }
    args.addAll(List.of(extraArgs));
    JvmProcess started = JvmProcess.start(name, COORDINATOR_JAR, logDir, args);
    processes.add(started);
    try {
      Awaitility.await(name + " ready")
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofMillis(50))
          .until(() -> Files.exists(ready) || !started.isAlive());
    } catch (ConditionTimeoutException e) {
      throw new AssertionError(name + " did not start\n" + started.logText(), e);
    }
    if (!started.isAlive()) {
      throw new AssertionError(name + " exited at start\n" + started.logText());
    }
    return new Peer(
        started,
        Integer.parseInt(Files.readString(ready, StandardCharsets.UTF_8).trim()),
        Integer.parseInt(Files.readString(httpReady, StandardCharsets.UTF_8).trim()));
  }

  Path dir() {
    return dataDir.getParent();
  }

  /**
   * Starts a worker process talking to the given coordinator target(s). Unless {@code extraArgs}
   * say {@code --types}, it runs {@link #TEST_HANDLERS}: the tests' handlers (crash, sleep,
   * bench.noop) are loaded only when asked for by name.
   */
  JvmProcess startWorkerOn(String target, String name, String... extraArgs) throws IOException {
    return startWorkerOn(target, name, List.of(), extraArgs);
  }

  /** As {@link #startWorkerOn(String, String, String...)}, with extra JVM options. */
  JvmProcess startWorkerOn(String target, String name, List<String> jvmOptions, String... extraArgs)
      throws IOException {
    List<String> args = new ArrayList<>(List.of("--coordinator", target, "--worker-id", name));
    if (!List.of(extraArgs).contains("--types")) {
      args.addAll(List.of("--types", TEST_HANDLERS));
    }
    args.addAll(List.of(extraArgs));
    JvmProcess w = JvmProcess.start(name, WORKER_JAR, logDir, jvmOptions, args);
    processes.add(w);
    return w;
  }

  ManagedChannel channel(String target) {
    ManagedChannel ch = ManagedChannelBuilder.forTarget(target).usePlaintext().build();
    channels.add(ch);
    return ch;
  }

  /** The base URL of the coordinator's HTTP API, for example {@code http://127.0.0.1:34567}. */
  String httpBase() {
    if (httpPort < 0) {
      throw new IllegalStateException(
          "the coordinator serves no HTTP (started with --http-port -1?)");
    }
    return "http://127.0.0.1:" + httpPort;
  }

  JvmProcess coordinator() {
    return coordinator;
  }

  String target() {
    return "127.0.0.1:" + port;
  }

  /** Starts a worker process; it runs {@link #TEST_HANDLERS} unless told otherwise. */
  JvmProcess startWorker(String name, String... extraArgs) throws IOException {
    return startWorkerOn(target(), name, extraArgs);
  }

  ManagedChannel channel() {
    return channel(target());
  }

  JobServiceGrpc.JobServiceBlockingStub jobs() {
    return JobServiceGrpc.newBlockingStub(channel()).withDeadlineAfter(30, TimeUnit.SECONDS);
  }

  /** A JobService stub on the peer, over the peer's one channel; each call within 60 s. */
  JobServiceGrpc.JobServiceBlockingStub jobs(Peer peer) {
    return JobServiceGrpc.newBlockingStub(peerChannel(peer))
        .withDeadlineAfter(60, TimeUnit.SECONDS);
  }

  /** The channel to the peer: one per peer process (a restarted peer is a new peer). */
  ManagedChannel peerChannel(Peer peer) {
    return peerChannels.computeIfAbsent(peer, p -> channel(p.target()));
  }

  WorkerServiceGrpc.WorkerServiceBlockingStub workerStub() {
    return WorkerServiceGrpc.newBlockingStub(channel());
  }

  @Override
  public void afterEach(ExtensionContext context) throws Exception {
    for (ManagedChannel ch : channels) {
      ch.shutdownNow();
    }
    peerChannels.clear();
    boolean failed = context.getExecutionException().isPresent();
    for (JvmProcess p : processes) {
      if (p.isAlive()) {
        p.terminate();
        try {
          p.awaitExit(Duration.ofSeconds(15));
        } catch (AssertionError e) {
          p.close();
        }
      }
      if (failed) {
        System.out.println("===== log of " + p.name() + " =====\n" + p.logText());
      }
    }
  }
}
