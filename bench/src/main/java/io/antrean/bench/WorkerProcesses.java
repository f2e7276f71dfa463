package io.antrean.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * N worker processes the bench starts for one scenario, as a user runs them: the runnable worker
 * with {@code --types bench.noop}, {@code --concurrency K} ({@code --prefetch N} too when it is not
 * the worker's default, K) and its own connection. Each writes its output to a temporary log file,
 * shown when it fails. {@link #close} stops them the way an orchestrator would, with SIGTERM, waits
 * for each to exit and reports any that did not exit 0 (then keeps its log); one that outlasts
 * {@link #STOP_WAIT} is killed. Thread-safe.
 */
final class WorkerProcesses implements BenchWorkers {
  /** How long a worker may take to exit after SIGTERM (its shutdown grace is shorter). */
  static final Duration STOP_WAIT = Duration.ofSeconds(20);

  /** The worker's {@code --shutdown-grace}: no-op jobs end at once, so this is never reached. */
  static final String SHUTDOWN_GRACE = "5s";

  /** How much longer than {@code --wait} the warm-up waits for the processes to serve. */
  static final Duration START_ALLOWANCE = Duration.ofSeconds(60);

  private static final int LOG_TAIL_LINES = 15;

  private final BenchContext context;
  private final int concurrency;
  private final int prefetch;
  private final List<Process> processes = new ArrayList<>();
  private final List<Path> logs = new ArrayList<>();
  private volatile boolean stopping;

  private WorkerProcesses(BenchContext context, int concurrency, int prefetch) {
    this.context = context;
    this.concurrency = concurrency;
    this.prefetch = prefetch;
  }

  /**
   * Starts {@code count} worker processes on {@code queue}; returns once they are started (not yet
   * serving: the scenarios' warm-up waits for that).
   *
   * @throws BenchFailedException if one cannot be started; those started are stopped first
   */
  static WorkerProcesses start(
      BenchContext context,
      WorkerLaunch launch,
      String queue,
      int count,
      int concurrency,
      int prefetch) {
    WorkerProcesses workers = new WorkerProcesses(context, concurrency, prefetch);
    String prefix = "bench-" + ProcessHandle.current().pid() + "-" + queue + "-";
    try {
      for (int i = 1; i <= count; i++) {
        workers.launch(launch, queue, prefix + i);
      }
    } catch (IOException e) {
      workers.close();
      throw new BenchFailedException(
          "could not start a worker process (" + launch.command() + "): " + e.getMessage(), e);
    }
    return workers;
  }

  private void launch(WorkerLaunch launch, String queue, String workerId) throws IOException {
    List<String> command = new ArrayList<>(launch.command());
    command.addAll(
        List.of(
            "--coordinator",
            context.target().coordinator(),
            "--queue",
            queue,
            "--concurrency",
            Integer.toString(concurrency),
            "--types",
            BenchSettings.JOB_TYPE,
            "--worker-id",
            workerId,
            "--shutdown-grace",
            SHUTDOWN_GRACE));
    if (prefetch != concurrency) {
      // Only when asked for: a worker jar from before --prefetch (--worker-jar) still starts.
      command.addAll(List.of("--prefetch", Integer.toString(prefetch)));
    }
    Path log = Files.createTempFile("antrean-bench-" + workerId + "-", ".log");
    logs.add(log);
    processes.add(
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .redirectInput(ProcessBuilder.Redirect.from(nullDevice()))
            .start());
  }

  /** A JVM takes seconds to start on a loaded machine; the warm-up may take this much longer. */
  @Override
  public Duration startAllowance() {
    return START_ALLOWANCE;
  }

  @Override
  public String describe() {
    return processes.size() + "x" + concurrency;
  }

  /** The process ids, in start order. */
  List<Long> pids() {
    return processes.stream().map(Process::pid).toList();
  }

  @Override
  public void throwIfFailed() {
    for (int i = 0; i < processes.size(); i++) {
      Process process = processes.get(i);
      if (!process.isAlive() && !stopping) {
        throw new BenchFailedException(
            String.format(
                Locale.ROOT,
                "worker process %d (pid %d) exited with status %d; its output (%s) ends:%n%s",
                i + 1,
                process.pid(),
                process.exitValue(),
                logs.get(i),
                tail(logs.get(i))));
      }
    }
  }

  /** SIGTERM to every worker, then waits for each; reports those that did not exit 0. */
  @Override
  public void close() {
    stopping = true;
    processes.forEach(Process::destroy);
    List<String> trouble = new ArrayList<>();
    for (int i = 0; i < processes.size(); i++) {
      Process process = processes.get(i);
      String outcome = awaitExit(process);
      if (outcome == null) {
        deleteQuietly(logs.get(i));
      } else {
        trouble.add(
            "worker process "
                + (i + 1)
                + " (pid "
                + process.pid()
                + ") "
                + outcome
                + "; output in "
                + logs.get(i));
      }
    }
    trouble.forEach(context::warn);
  }

  /** Waits for the exit after SIGTERM; null for a clean one, else what went wrong. */
  private static String awaitExit(Process process) {
    try {
      if (!process.waitFor(STOP_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
        process.destroyForcibly();
        process.waitFor(STOP_WAIT.toMillis(), TimeUnit.MILLISECONDS);
        return "did not exit within " + STOP_WAIT.toSeconds() + " s of SIGTERM and was killed";
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
      return "was killed: the bench was interrupted";
    }
    return process.exitValue() == 0 ? null : "exited with status " + process.exitValue();
  }

  private static String tail(Path log) {
    try {
      List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
      return String.join(
          System.lineSeparator(),
          lines.subList(Math.max(0, lines.size() - LOG_TAIL_LINES), lines.size()));
    } catch (IOException | UncheckedIOException e) {
      return "(unreadable: " + e.getMessage() + ")";
    }
  }

  private static void deleteQuietly(Path log) {
    try {
      Files.deleteIfExists(log);
    } catch (IOException e) {
      // A temporary file left behind does no harm.
    }
  }

  private static java.io.File nullDevice() {
    return new java.io.File(
        System.getProperty("os.name").startsWith("Windows") ? "NUL" : "/dev/null");
  }
}
