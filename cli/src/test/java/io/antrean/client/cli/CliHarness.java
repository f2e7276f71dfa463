package io.antrean.client.cli;

import io.antrean.client.FakeAdminService;
import io.antrean.client.FakeJobService;
import io.antrean.client.InProcessCoordinator;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import picocli.CommandLine;

/**
 * Runs {@code antrean} commands in this JVM against a {@link FakeJobService} and a {@link
 * FakeAdminService} on an in-process server, capturing what they print and the coordinator and
 * timeout they asked for. The CLI's clock stands still at {@link #NOW}.
 */
final class CliHarness implements AutoCloseable {
  /** What one run of the command line did. */
  record Result(int exitCode, String out, String err) {}

  /** What {@code --since 1h} and the like count back from: 2027-01-15T08:00:00Z. */
  static final Instant NOW = Instant.ofEpochSecond(1_800_000_000L);

  final FakeJobService service = new FakeJobService();
  final FakeAdminService admin = new FakeAdminService();
  final List<String> targets = new CopyOnWriteArrayList<>();
  final List<Duration> timeouts = new CopyOnWriteArrayList<>();
  private final InProcessCoordinator coordinator = InProcessCoordinator.start(service, admin);

  Result run(String... args) {
    ClientConnector connector =
        (target, timeout) -> {
          targets.add(target);
          timeouts.add(timeout);
          return coordinator.client(timeout);
        };
    return run(connector, args);
  }

  static Result run(ClientConnector connector, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine commandLine = AntreanCli.commandLine(connector, Clock.fixed(NOW, ZoneOffset.UTC));
    commandLine.setOut(new PrintWriter(out, true));
    commandLine.setErr(new PrintWriter(err, true));
    int exitCode = commandLine.execute(args);
    return new Result(exitCode, out.toString(), err.toString());
  }

  @Override
  public void close() throws InterruptedException {
    coordinator.close();
  }
}
