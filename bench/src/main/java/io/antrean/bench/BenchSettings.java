package io.antrean.bench;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;
import javax.annotation.Nullable;

/**
 * The options of one {@code antrean bench} run, checked, with the per-scenario defaults resolved
 * here so that every scenario reads them the same way. Immutable.
 *
 * @param jobs jobs per scenario, or {@code null} for each scenario's default
 * @param concurrency enqueue calls in flight for enqueue-50 and latency
 * @param rate jobs per second that latency sends
 * @param duration how long latency sends
 * @param payloadBytes the size of each job's JSON payload
 * @param queue the queue every scenario uses, or {@code null} for a fresh one per scenario
 * @param workerProcesses the workers end-to-end and latency start, or {@code null} for each
 *     scenario's default; 0 means external workers serve {@code queue}
 * @param inProcessWorkers whether those workers run in the bench's JVM instead of as processes
 * @param workerConcurrency handler threads of each worker the bench starts
 * @param workerPrefetch the most jobs each of them leases beyond its handler threads
 * @param workerJar the runnable worker's jar, or {@code null} for the one this checkout built
 * @param waitLimit how long to wait for the last job to be run after the last enqueue
 * @param drain whether to run the jobs the enqueue scenarios leave in their fresh queues
 * @param prefill whether end-to-end enqueues its jobs into the paused queue and times the workers
 *     from resuming it, rather than from the first enqueue while they run
 * @param warmUpJobs the unmeasured jobs end-to-end runs first and latency sends before its measured
 *     window, or {@code null} for their defaults
 * @param progress whether to print progress lines to stderr
 * @param backlog pending jobs lease puts in its queue before it measures
 */
record BenchSettings(
    @Nullable Integer jobs,
    int concurrency,
    double rate,
    Duration duration,
    int payloadBytes,
    @Nullable String queue,
    @Nullable Integer workerProcesses,
    boolean inProcessWorkers,
    int workerConcurrency,
    int workerPrefetch,
    @Nullable Path workerJar,
    Duration waitLimit,
    boolean drain,
    boolean prefill,
    @Nullable Integer warmUpJobs,
    boolean progress,
    int backlog) {

  /** The job type of every bench job; the bench's workers run only this type. */
  static final String JOB_TYPE = "bench.noop";

  /** End-to-end's unmeasured jobs at most, unless {@code --warm-up-jobs} says. */
  static final int DEFAULT_WARM_UP_JOBS = 2_000;

  /** Workers when a scenario needs them and {@code --worker-processes} does not say. */
  static final int DEFAULT_WORKERS = 2;

  static final int MAX_JOBS = 10_000_000;
  static final int MAX_CONCURRENCY = 1_000;
  static final int MAX_WORKERS = 64;
  static final int MAX_WORKER_CONCURRENCY = 256;
  static final int MAX_WORKER_PREFETCH = 1024;
  static final double MAX_RATE = 100_000;
  static final Duration MAX_DURATION = Duration.ofHours(1);

  /**
   * Checks the ranges.
   *
   * @throws IllegalArgumentException naming the option that is out of range
   */
  BenchSettings {
    if (jobs != null) {
      require(jobs >= 1 && jobs <= MAX_JOBS, "--jobs must be 1 to " + MAX_JOBS);
    }
    require(
        concurrency >= 1 && concurrency <= MAX_CONCURRENCY,
        "--concurrency must be 1 to " + MAX_CONCURRENCY);
    require(rate > 0 && rate <= MAX_RATE, "--rate must be above 0 and at most " + (int) MAX_RATE);
    require(
        !duration.isZero() && duration.compareTo(MAX_DURATION) <= 0,
        "--duration must be above 0 and at most 1h");
    require(
        payloadBytes >= BenchPayload.MIN_BYTES && payloadBytes <= BenchPayload.MAX_BYTES,
        "--payload-bytes must be " + BenchPayload.MIN_BYTES + " to " + BenchPayload.MAX_BYTES);
    if (workerProcesses != null) {
      require(
          workerProcesses >= 0 && workerProcesses <= MAX_WORKERS,
          "--worker-processes must be 0 to " + MAX_WORKERS);
    }
    require(
        workerConcurrency >= 1 && workerConcurrency <= MAX_WORKER_CONCURRENCY,
        "--worker-concurrency must be 1 to " + MAX_WORKER_CONCURRENCY);
    require(
        workerPrefetch >= 0 && workerPrefetch <= MAX_WORKER_PREFETCH,
        "--worker-prefetch must be 0 to " + MAX_WORKER_PREFETCH);
    require(!waitLimit.isZero(), "--wait must be above 0");
    require(
        rate * duration.toNanos() / 1e9 <= MAX_JOBS,
        "--rate x --duration must be at most " + MAX_JOBS + " jobs");
    require(backlog >= 0 && backlog <= MAX_JOBS, "--backlog must be 0 to " + MAX_JOBS);
    if (warmUpJobs != null) {
      require(warmUpJobs >= 0 && warmUpJobs <= MAX_JOBS, "--warm-up-jobs must be 0 to " + MAX_JOBS);
    }
    if (queue != null) {
      require(
          queue.matches("[A-Za-z0-9._-]{1,64}"), "--queue must be 1 to 64 of A-Z a-z 0-9 . - _");
    }
  }

  private static void require(boolean condition, String message) {
    if (!condition) {
      throw new IllegalArgumentException(message);
    }
  }

  /** How many jobs {@code scenario} sends; latency sends {@code rate * duration}. */
  int jobsFor(Scenario scenario) {
    if (scenario == Scenario.LATENCY) {
      return (int) Math.max(1, jobsAtRate(duration));
    }
    return jobs != null ? jobs : scenario.defaultJobs();
  }

  /** The unmeasured jobs end-to-end runs first: {@code --warm-up-jobs}, else min(N, 2,000). */
  int warmUpJobsFor(int jobs) {
    return warmUpJobs != null ? warmUpJobs : Math.min(jobs, DEFAULT_WARM_UP_JOBS);
  }

  /**
   * The unmeasured jobs latency sends at the rate before its measured window: {@code
   * --warm-up-jobs}, else one second's worth ({@link LatencyScenario#WARM_UP}).
   */
  long latencyWarmUpJobs() {
    return warmUpJobs != null ? warmUpJobs : jobsAtRate(LatencyScenario.WARM_UP);
  }

  /** The jobs sent at {@code --rate} over {@code time}, rounded up. */
  private long jobsAtRate(Duration time) {
    return (long) Math.ceil(rate * time.toNanos() / 1e9);
  }

  /** The queue {@code --queue} names, or a fresh {@code bench-<8 hex digits>} for each call. */
  String queueForScenario() {
    if (queue != null) {
      return queue;
    }
    byte[] random = new byte[4];
    ThreadLocalRandom.current().nextBytes(random);
    return "bench-" + HexFormat.of().formatHex(random);
  }

  /**
   * How many workers {@code scenario} starts: {@code --worker-processes}, else 2, but none for
   * end-to-end on a queue named with {@code --queue} (external workers serve it); the enqueue
   * scenarios start workers only afterwards, to drain.
   */
  int workersFor(Scenario scenario) {
    if (workerProcesses != null) {
      return workerProcesses;
    }
    if (scenario == Scenario.END_TO_END && queue != null) {
      return 0;
    }
    return DEFAULT_WORKERS;
  }

  /**
   * Checks the combinations that cannot work.
   *
   * @throws IllegalArgumentException naming the options
   */
  void checkFor(Scenario scenario) {
    if (scenario == Scenario.LEASE && backlog > 0) {
      require(
          jobsFor(scenario) <= backlog,
          "lease with --backlog "
              + backlog
              + " can run at most that many rounds, not --jobs "
              + jobsFor(scenario)
              + ": each round leases one backlog job");
    }
    if ((scenario == Scenario.END_TO_END || scenario == Scenario.LATENCY)
        && workersFor(scenario) == 0) {
      require(
          queue != null,
          scenario.label()
              + " with external workers (--worker-processes 0) needs --queue naming the queue"
              + " they serve");
      require(
          !inProcessWorkers,
          "--in-process-workers needs at least one (--worker-processes 1 or more)");
    }
  }

  /** {@code --wait} for messages, in seconds with a decimal: {@code 0.2 s}, {@code 60.0 s}. */
  String waitText() {
    return String.format(Locale.ROOT, "%.1f s", waitLimit.toMillis() / 1000.0);
  }

  /** Whether jobs an enqueue scenario left behind in its fresh queue are run afterwards. */
  boolean drainsQueue() {
    return drain && queue == null;
  }

  /** How many in-process workers drain a queue: {@code --worker-processes}, or 2 if 0. */
  int drainWorkers() {
    return workerProcesses == null || workerProcesses == 0 ? DEFAULT_WORKERS : workerProcesses;
  }
}
