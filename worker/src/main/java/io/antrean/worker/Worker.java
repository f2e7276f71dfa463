package io.antrean.worker;

import io.antrean.worker.internal.WorkerRuntime;
import io.antrean.worker.internal.WorkerSettings;
import io.grpc.ManagedChannel;
import java.time.Duration;

/**
 * A worker process's connection to one queue of an Antrean coordinator: it leases jobs of the types
 * it has handlers for, runs each on one of {@code concurrency} handler threads, keeps the leases
 * alive with heartbeats, and reports each outcome.
 *
 * <p>Lifecycle: {@link #builder()} … {@link WorkerBuilder#build()}, then {@link #start()}. {@link
 * #shutdown()} stops leasing, releases the jobs leased ahead that no handler has started, lets
 * running jobs finish within the shutdown grace while heartbeats go on, then interrupts what is
 * left and releases it to the coordinator (a release spends no attempt). {@link #shutdownNow()}
 * skips the grace. Both return at once; {@link #awaitTermination(Duration)} waits for the end. A
 * worker cannot be restarted.
 *
 * <p>Successful jobs are reported in batches without any added delay: a completion joins a pending
 * list, and one CompleteBatch call sends everything pending (up to 1,000 jobs) as soon as no other
 * is in flight, so a lone job is reported at once while under load one call carries every job that
 * finished during the previous call's round trip. A job keeps its slot, and its heartbeats, until
 * its completion is answered, and shutdown waits for completions in flight. A coordinator that does
 * not implement CompleteBatch gets one Complete per job for the rest of the worker's life; failures
 * and releases are always reported one call per job.
 *
 * <p>Delivery is at least once: design handlers to run twice (see {@link
 * JobContext#idempotencyKey()}).
 *
 * <p>Thread-safe.
 */
public final class Worker {
  private final WorkerRuntime runtime;
  private final String workerId;

  private Worker(WorkerRuntime runtime, String workerId) {
    this.runtime = runtime;
    this.workerId = workerId;
  }

  /**
   * Starts configuring a worker.
   *
   * @return a new builder with the documented defaults
   */
  public static WorkerBuilder builder() {
    return new WorkerBuilder();
  }

  static Worker create(
      WorkerSettings settings, String coordinator, ManagedChannel channel, boolean ownsChannel) {
    return new Worker(
        new WorkerRuntime(settings, coordinator, channel, ownsChannel), settings.workerId());
  }

  /**
   * Starts the poll loop and the heartbeats; returns at once. Connection trouble does not make it
   * fail: the poll loop backs off and retries until the worker is shut down.
   *
   * @throws IllegalStateException if the worker was started or shut down before
   */
  public void start() {
    runtime.start();
  }

  /**
   * Begins a graceful shutdown and returns at once: no new leases; running jobs get the shutdown
   * grace to finish (heartbeats continue); then the rest are interrupted and released. A worker
   * that was never started terminates at once. Calling it again has no effect.
   */
  public void shutdown() {
    runtime.shutdown();
  }

  /**
   * Begins a shutdown without grace and returns at once: running jobs are interrupted and released
   * right away. Handlers that ignore interruption get a few seconds, after which their jobs are
   * released for them and their outcome is ignored. May follow {@link #shutdown()} to cut its grace
   * short.
   */
  public void shutdownNow() {
    runtime.shutdownNow();
  }

  /**
   * Waits until the worker has terminated: leasing stopped, every job finished or released,
   * heartbeats stopped and, if the worker made its own channel, the channel closed. A handler
   * thread that ignored interruption may still be running then; its outcome is ignored.
   *
   * @param timeout how long to wait at most
   * @return true if the worker terminated, false if the timeout passed first
   * @throws InterruptedException if interrupted while waiting
   */
  public boolean awaitTermination(Duration timeout) throws InterruptedException {
    return runtime.awaitTermination(timeout);
  }

  /**
   * Whether the worker has terminated.
   *
   * @return true once {@link #awaitTermination(Duration)} would return true at once
   */
  public boolean isTerminated() {
    return runtime.isTerminated();
  }

  /**
   * The id this worker presents to the coordinator.
   *
   * @return the worker id
   */
  public String workerId() {
    return workerId;
  }

  /**
   * How many leases the worker holds right now: running jobs, jobs leased ahead that wait for a
   * handler thread ({@link WorkerBuilder#prefetch}), and jobs whose outcome is being reported or
   * waits in the completion batch.
   *
   * @return the number of held leases, at most the concurrency plus the prefetch
   */
  public int heldLeases() {
    return runtime.heldLeases();
  }
}
