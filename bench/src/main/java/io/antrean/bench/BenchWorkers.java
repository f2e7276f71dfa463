package io.antrean.bench;

import java.time.Duration;

/**
 * The workers that run a scenario's {@code bench.noop} jobs while the bench measures: worker
 * processes the bench started ({@link WorkerProcesses}), worker-library instances in the bench's
 * own JVM ({@link InProcessWorkers}), or none when external workers serve the queue. Close to stop
 * them; closing waits for them to end.
 */
interface BenchWorkers extends AutoCloseable {
  /** Workers times concurrency as results show it: {@code 2x25}, or {@code external}. */
  String describe();

  /**
   * Throws if a worker stopped while it should be running, so that a run does not wait out {@code
   * --wait} for jobs nobody will run.
   *
   * @throws BenchFailedException naming the worker and why it stopped
   */
  void throwIfFailed();

  /**
   * How much longer than {@code --wait} the first jobs may take, because the workers are still
   * starting: zero unless they are processes of their own.
   */
  default Duration startAllowance() {
    return Duration.ZERO;
  }

  /** Stops the workers and waits for them; reports trouble as a warning, never throws. */
  @Override
  void close();

  /** No workers of the bench's own: workers started elsewhere serve the queue. */
  BenchWorkers EXTERNAL =
      new BenchWorkers() {
        @Override
        public String describe() {
          return "external";
        }

        @Override
        public void throwIfFailed() {}

        @Override
        public void close() {}
      };
}
