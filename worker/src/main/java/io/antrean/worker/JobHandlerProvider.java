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
}
