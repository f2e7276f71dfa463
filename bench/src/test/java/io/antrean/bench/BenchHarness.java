package io.antrean.client.bench;

import io.antrean.client.cli.DurationConverter;
import io.grpc.Server;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Runs {@code bench} in this JVM under a stand-in for the {@code antrean} root command (same global
 * options) against {@link FakeQueues} on an in-process server, capturing what it prints, the
 * targets it dialled, and any exception that escaped it.
 */
final class BenchHarness implements AutoCloseable {
  /** What one run did. */
  record Result(int exitCode, String out, String err) {}

  /** The root command's global options, as {@code AntreanCli} declares them. */
  @Command(name = "antrean")
  static final class Root {
    @Option(names = "--coordinator", defaultValue = "fake:7400")
    String coordinator;

    @Option(names = "--timeout", defaultValue = "5s", converter = DurationConverter.class)
    Duration timeout;
  }

  final FakeQueues queues = new FakeQueues();
  final List<String> targets = new CopyOnWriteArrayList<>();
  final List<Exception> escaped = new CopyOnWriteArrayList<>();
  private final String name = InProcessServerBuilder.generateName();
  private final Server server;

  BenchHarness() {
    try {
      server =
          InProcessServerBuilder.forName(name)
              .addService(queues.jobService())
              .addService(queues.workerService())
              .build()
              .start();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Runs {@code antrean ARGS}; ARGS usually start with {@code bench}. */
  Result run(String... args) {
    ChannelOpener opener =
        target -> {
          targets.add(target);
          return InProcessChannelBuilder.forName(name).build();
        };
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine commandLine = new CommandLine(new Root());
    commandLine.addSubcommand(new BenchCommand(opener));
    commandLine.setOut(new PrintWriter(out, true));
    commandLine.setErr(new PrintWriter(err, true));
    commandLine.setExecutionExceptionHandler(
        (e, command, parsed) -> {
          escaped.add(e);
          return 1;
        });
    int exitCode = commandLine.execute(args);
    return new Result(exitCode, out.toString(), err.toString());
  }

  @Override
  public void close() throws InterruptedException {
    server.shutdownNow();
    server.awaitTermination(5, TimeUnit.SECONDS);
    queues.close();
  }
}
