package io.antrean.bench;

import com.google.protobuf.ByteString;
import io.antrean.client.AntreanClient;
import io.antrean.proto.v1.EnqueueRequest;
import java.io.PrintWriter;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * What every scenario works with: the coordinator, the options, the payload and stderr. Immutable;
 * shared by the threads of a scenario.
 *
 * @param target the coordinator's connections
 * @param settings the checked options
 * @param payload the payloads jobs carry
 * @param err where progress lines and warnings go
 * @param workerLaunch how worker processes are started, asked only when a scenario starts them
 */
record BenchContext(
    BenchTarget target,
    BenchSettings settings,
    BenchPayload payload,
    PrintWriter err,
    Supplier<WorkerLaunch> workerLaunch) {

  /** The producer's client. */
  AntreanClient client() {
    return target.client();
  }

  /**
   * Starts the workers {@code scenario} runs its jobs on in {@code queue}: {@code
   * --worker-processes} processes, or as many in-process workers with {@code --in-process-workers},
   * or none when external workers serve the queue.
   *
   * @throws BenchFailedException if worker processes cannot be started
   */
  BenchWorkers startWorkers(String queue, Scenario scenario) {
    int count = settings.workersFor(scenario);
    if (count == 0) {
      return BenchWorkers.EXTERNAL;
    }
    if (settings.inProcessWorkers()) {
      return InProcessWorkers.start(
          this, queue, count, settings.workerConcurrency(), settings.workerPrefetch());
    }
    return WorkerProcesses.start(
        this,
        workerLaunch.get(),
        queue,
        count,
        settings.workerConcurrency(),
        settings.workerPrefetch());
  }

  /** A {@code bench.noop} Enqueue request for {@code queue} with {@code payload}. */
  static EnqueueRequest request(String queue, ByteString payload) {
    return EnqueueRequest.newBuilder()
        .setQueue(queue)
        .setType(BenchSettings.JOB_TYPE)
        .setPayload(payload)
        .setContentType("application/json")
        .build();
  }

  /** Starts a progress ticker if progress lines are wanted; close it when the phase ends. */
  ProgressTicker progress(Supplier<String> line) {
    return ProgressTicker.start(settings.progress(), err, line);
  }

  /** Prints a warning that does not fail the run. */
  void warn(String message) {
    err.println("antrean bench: " + message);
    err.flush();
  }

  /**
   * Daemon threads named {@code prefix-1}, {@code prefix-2}, …, so that a stuck call never keeps
   * the JVM alive after the command returned.
   */
  static ThreadFactory daemonThreads(String prefix) {
    AtomicInteger count = new AtomicInteger();
    return task -> {
      Thread thread = new Thread(task, prefix + "-" + count.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    };
  }
}
