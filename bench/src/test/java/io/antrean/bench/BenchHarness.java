package io.antrean.bench;

import io.grpc.Server;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import picocli.CommandLine;

/**
 * Runs {@code antrean bench} in this JVM, as {@link BenchMain} sets it up, against {@link
 * FakeQueues}, capturing what it prints, the targets it dialled, and any exception that escaped it.
 * {@link #inProcess()} serves the fakes on an in-process server (worker processes cannot reach it);
 * {@link #onLoopback()} serves them on a loopback port, which worker processes the bench starts
 * reach like a coordinator: they run the real runnable worker ({@code
 * io.antrean.worker.WorkerMain}) from this test's class path.
 */
final class BenchHarness implements AutoCloseable {
  /** What one run did. */
  record Result(int exitCode, String out, String err) {}

  final FakeQueues queues = new FakeQueues();
  final List<String> targets = new CopyOnWriteArrayList<>();
  final List<Exception> escaped = new CopyOnWriteArrayList<>();

  /** How worker processes are started: the runnable worker from the class path, unless set. */
  volatile Function<BenchSettings, WorkerLaunch> launches = settings -> workerFromClassPath();

  private final Server server;
  private final Function<String, io.grpc.ManagedChannel> channels;
  private final String coordinator;

  private BenchHarness(boolean loopback) {
    try {
      if (loopback) {
        server =
            NettyServerBuilder.forAddress(
                    new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))
                .addService(queues.jobService())
                .addService(queues.workerService())
                .addService(queues.adminService())
                .build()
                .start();
        coordinator = "127.0.0.1:" + server.getPort();
        channels = ChannelOpener.COORDINATORS::open;
      } else {
        String name = InProcessServerBuilder.generateName();
        server =
            InProcessServerBuilder.forName(name)
                .addService(queues.jobService())
                .addService(queues.workerService())
                .addService(queues.adminService())
                .build()
                .start();
        coordinator = null;
        channels = target -> InProcessChannelBuilder.forName(name).build();
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Fakes on an in-process server; only in-process workers reach them. */
  static BenchHarness inProcess() {
    return new BenchHarness(false);
  }

  /** Fakes on a loopback port, which worker processes reach. */
  static BenchHarness onLoopback() {
    return new BenchHarness(true);
  }

  /**
   * Runs {@code antrean bench ARGS}; on loopback, with {@code --coordinator} set to the fakes' port
   * first.
   */
  Result run(String... args) {
    ChannelOpener opener =
        target -> {
          targets.add(target);
          return channels.apply(target);
        };
    List<String> all = new ArrayList<>();
    if (coordinator != null) {
      all.add("--coordinator");
      all.add(coordinator);
      // Worker processes share a loaded machine with the test; calls get room to be slow.
      all.add("--timeout");
      all.add("60s");
    }
    all.addAll(List.of(args));
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine commandLine =
        BenchMain.commandLine(new BenchCommand(opener, settings -> launches.apply(settings)));
    commandLine.setOut(new PrintWriter(out, true));
    commandLine.setErr(new PrintWriter(err, true));
    CommandLine.IExecutionExceptionHandler reporter = commandLine.getExecutionExceptionHandler();
    commandLine.setExecutionExceptionHandler(
        (e, command, parsed) -> {
          escaped.add(e);
          return reporter.handleExecutionException(e, command, parsed);
        });
    int exitCode = commandLine.execute(all.toArray(String[]::new));
    return new Result(exitCode, out.toString(), err.toString());
  }

  /** The runnable worker from this JVM's class path, as a process. */
  static WorkerLaunch workerFromClassPath() {
    return new WorkerLaunch(
        List.of(
            WorkerLaunch.javaBinary(),
            "-cp",
            System.getProperty("java.class.path"),
            "io.antrean.worker.WorkerMain"));
  }

  @Override
  public void close() throws InterruptedException {
    server.shutdownNow();
    server.awaitTermination(5, TimeUnit.SECONDS);
    queues.close();
  }
}
