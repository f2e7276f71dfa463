package io.antrean.bench;

import java.nio.file.Path;
import java.time.Duration;
import javax.annotation.Nullable;
import picocli.CommandLine.Option;

/**
 * The options of {@code antrean bench}, turned into {@link BenchSettings} when the command runs.
 */
final class BenchOptions {
  @Option(
      names = "--jobs",
      paramLabel = "N",
      description =
          "Jobs per scenario (default: enqueue-1 2000, enqueue-50 20000, batch 100000,"
              + " end-to-end 20000; latency sends --rate x --duration); for lease, the rounds"
              + " (default 2000).")
  @Nullable
  private Integer jobs;

  @Option(
      names = "--warm-up-jobs",
      paramLabel = "W",
      description =
          "Unmeasured jobs end-to-end runs first on the same workers (default: N, at most 2000),"
              + " and latency sends at --rate before its measured window (default: one second's"
              + " worth); 0: none. Fresh worker JVMs need tens of thousands of jobs to finish"
              + " compiling the path, so a larger W measures the steady state of long-running"
              + " workers.")
  @Nullable
  private Integer warmUpJobs;

  @Option(
      names = "--concurrency",
      paramLabel = "C",
      defaultValue = "50",
      description =
          "Enqueue calls in flight for enqueue-50 and latency (default: ${DEFAULT-VALUE}).")
  private int concurrency;

  @Option(
      names = "--rate",
      paramLabel = "JOBS_PER_SECOND",
      defaultValue = "500",
      description = "The steady rate latency sends at (default: ${DEFAULT-VALUE}).")
  private double rate;

  @Option(
      names = "--duration",
      paramLabel = "DURATION",
      defaultValue = "10s",
      converter = DurationConverter.class,
      description = "How long latency sends, e.g. 2s, 1m (default: ${DEFAULT-VALUE}).")
  private Duration duration;

  @Option(
      names = "--payload-bytes",
      paramLabel = "BYTES",
      defaultValue = "100",
      description = "Size of each job's JSON payload (default: ${DEFAULT-VALUE}).")
  private int payloadBytes;

  @Option(
      names = "--queue",
      paramLabel = "QUEUE",
      description =
          "Use this queue for every scenario instead of a fresh bench-<random> one per scenario;"
              + " end-to-end then expects external workers unless --workers is given.")
  @Nullable
  private String queue;

  @Option(
      names = "--worker-processes",
      paramLabel = "N",
      description =
          "Worker processes end-to-end and latency start and stop, each the runnable worker"
              + " (--worker-jar) with the bench.noop handler (default: 2; end-to-end with --queue:"
              + " 0, meaning external workers already serve that queue). Also how many in-process"
              + " workers drain the enqueue scenarios' queues.")
  @Nullable
  private Integer workerProcesses;

  @Option(
      names = "--in-process-workers",
      description =
          "Run those workers in the bench's own JVM (the worker library, no process of their"
              + " own): a diagnostic of the coordinator alone.")
  private boolean inProcessWorkers;

  @Option(
      names = "--worker-concurrency",
      paramLabel = "K",
      defaultValue = "25",
      description = "Jobs each worker runs at a time (default: ${DEFAULT-VALUE}).")
  private int workerConcurrency;

  @Option(
      names = "--worker-prefetch",
      paramLabel = "N",
      description =
          "Most jobs each worker leases beyond its --worker-concurrency while its handlers finish"
              + " faster than a round trip, 0 for none (default: the worker's, as many as"
              + " --worker-concurrency).")
  private Integer workerPrefetch;

  @Option(
      names = "--worker-jar",
      paramLabel = "JAR",
      description =
          "The runnable worker's jar (default: worker-runner/target/antrean-worker-runner.jar under"
              + " ANTREAN_HOME, else next to this bench's checkout).")
  @Nullable
  private Path workerJar;

  @Option(
      names = "--wait",
      paramLabel = "DURATION",
      defaultValue = "60s",
      converter = DurationConverter.class,
      description =
          "How long end-to-end and latency wait for the last job after the last enqueue, and"
              + " how long draining goes on without a job finishing (default: ${DEFAULT-VALUE}).")
  private Duration wait;

  @Option(
      names = "--backlog",
      paramLabel = "N",
      defaultValue = "0",
      description =
          "Pending jobs lease puts in its queue before measuring; each round leases one of them"
              + " (0: each round enqueues the job it leases) (default: ${DEFAULT-VALUE}).")
  private int backlog;

  @Option(
      names = "--drain",
      negatable = true,
      defaultValue = "true",
      fallbackValue = "true",
      description =
          "Run the jobs enqueue-1, enqueue-50, batch and lease leave in their fresh queues,"
              + " after measuring (default: on).")
  private boolean drain;

  @Option(
      names = "--prefill",
      negatable = true,
      defaultValue = "true",
      fallbackValue = "true",
      description =
          "end-to-end: enqueue all N jobs while the queue is paused, then time from resuming it"
              + " to the last job finished, as the peer benchmark times its workers (default: on)."
              + " --no-prefill times from the first enqueue, the workers running meanwhile.")
  private boolean prefill;

  @Option(names = "--json", description = "Print one JSON document instead of a table.")
  private boolean json;

  @Option(
      names = "--progress",
      negatable = true,
      description =
          "Print a progress line to stderr each second (default: on, except with --json when"
              + " stderr is not a terminal).")
  @Nullable
  private Boolean progress;

  /** Whether results are printed as JSON. */
  boolean json() {
    return json;
  }

  /**
   * The checked settings.
   *
   * @param stderrIsTerminal whether stderr is a terminal, which decides the progress default
   * @throws IllegalArgumentException naming an option out of range
   */
  BenchSettings settings(boolean stderrIsTerminal) {
    boolean showProgress = progress != null ? progress : !json || stderrIsTerminal;
    return new BenchSettings(
        jobs,
        concurrency,
        rate,
        duration,
        payloadBytes,
        queue,
        workerProcesses,
        inProcessWorkers,
        workerConcurrency,
        workerPrefetch != null ? workerPrefetch : workerConcurrency,
        workerJar,
        wait,
        drain,
        prefill,
        warmUpJobs,
        showProgress,
        backlog);
  }
}
