package io.antrean.worker;

/**
 * Service-provider interface through which the runnable worker (module {@code worker-runner}) finds
 * its handlers with {@link java.util.ServiceLoader}. List implementations in {@code
 * META-INF/services/io.antrean.worker.JobHandlerProvider}; each needs a public no-argument
 * constructor.
 *
 * <p>Thread-safety: both methods are called once, on the thread that builds the worker.
 */
public interface JobHandlerProvider {

  /**
   * The job type this provider's handler runs, for example {@code "email.send"}; not blank, and
   * unique among the providers on the class path.
   *
   * @return the job type
   */
  String type();

  /**
   * Creates the handler for {@link #type()}. It must be thread-safe (see {@link JobHandler}).
   *
   * @return a handler, never {@code null}
   */
  JobHandler create();

  /**
   * Whether the runnable worker loads this handler when it is not told which types to run. A
   * handler that exists only for tests and benchmarks (one that halts the JVM, or completes jobs
   * without doing anything) answers false: a real deployment never runs it by accident, and a
   * worker started with its type named ({@code --types crash}) still loads it.
   *
   * @return true unless the handler must be asked for by name; true by default
   */
  default boolean loadedByDefault() {
    return true;
  }
}
