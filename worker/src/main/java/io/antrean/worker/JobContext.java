package io.antrean.worker;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * One leased job as its {@link JobHandler} sees it: the job's data, its lease, and the ways to talk
 * back to the worker (progress, cancellation).
 *
 * <p>Thread-safety: every method may be called from any thread, for example from threads the
 * handler starts itself. The context is only meaningful until the handler returns.
 */
public interface JobContext {

  /**
   * The job's id, assigned by the coordinator and never reused.
   *
   * @return the job id
   */
  long jobId();

  /**
   * The queue the job was leased from.
   *
   * @return the queue name
   */
  String queue();

  /**
   * The job type, which selected this handler.
   *
   * @return the job type
   */
  String type();

  /**
   * The payload, as enqueued.
   *
   * @return a fresh copy of the payload bytes; empty, never {@code null}, when there is none
   */
  byte[] payload();

  /**
   * The payload decoded as UTF-8 (malformed input is replaced, never thrown).
   *
   * @return the payload text
   */
  String payloadUtf8();

  /**
   * The payload's content type, {@code application/json} unless the producer said otherwise.
   *
   * @return the content type
   */
  String contentType();

  /**
   * Which attempt this is: the job's lease count including this lease, so 1 on the first run. It
   * also counts leases that expired (a worker died), so it can exceed the handler runs you saw.
   *
   * @return the attempt number, at least 1
   */
  int attempt();

  /**
   * A key for the job's side effects that is the same on every attempt of the job: the producer's
   * idempotency key when the job has one, else {@code "antrean-job-<id>"}. Pass it to the systems
   * you call (a payment API, an upsert) so that running the job twice has the effect of running it
   * once.
   *
   * @return the stable key
   */
  String idempotencyKey();

  /**
   * The fencing token of this lease. It grows with every lease of the job, so a downstream store
   * can reject writes from an older attempt.
   *
   * @return the fencing token
   */
  long fencingToken();

  /**
   * The id of the worker running the job.
   *
   * @return the worker id
   */
  String workerId();

  /**
   * The jobs this job depends on ({@code depends_on} at enqueue), ascending by id, each with its
   * state and result, asked from the coordinator ({@code JobService.ListDependencies}, one call
   * each time, bounded by the worker's RPC timeout): the fan-in step of a fan-out/fan-in flow.
   *
   * @return the dependencies; empty when the job depends on nothing
   * @throws io.grpc.StatusRuntimeException when the coordinator cannot answer (the handler may let
   *     it propagate: the attempt then fails and is retried)
   */
  List<Dependency> dependencies();

  /**
   * Records a progress note; the latest note is sent with the next heartbeat and stored on the job.
   * Cheap: it only sets a field. Notes longer than 1 KiB (UTF-8) are cut.
   *
   * @param note a short human-readable note, for example {@code "page 3/10"}; not {@code null}
   */
  void progress(String note);

  /**
   * Whether the worker has stopped this job (see {@link #cancellationReason()}). A long handler
   * should check it between steps, or rely on interruption, and then give up by throwing (for
   * example {@link java.util.concurrent.CancellationException}); its outcome is ignored anyway.
   *
   * @return true once the job has been stopped
   */
  boolean isCancelled();

  /**
   * Why the worker stopped this job.
   *
   * @return the reason, or empty while the job may run on
   */
  Optional<CancellationReason> cancellationReason();

  /**
   * Runs {@code callback} once when the job is stopped, for handlers blocked in something that
   * ignores interruption (close a socket, cancel a future). If the job is already stopped the
   * callback runs at once on the calling thread; otherwise it runs on the worker thread that stops
   * the job, so it must be quick and must not block. Exceptions it throws are logged and ignored.
   *
   * @param callback the action to run; not {@code null}
   */
  void onCancel(Runnable callback);

  /**
   * Sets the content type stored with the result this handler returns.
   *
   * @param contentType for example {@code "text/plain"}; {@code application/json} by default
   */
  void resultContentType(String contentType);

  /**
   * The instant the worker's local lease deadline passes if no heartbeat renews it, read from the
   * worker's clock. Heartbeats move it forward while the coordinator is reachable.
   *
   * @return the local lease deadline
   */
  Instant leaseDeadline();

  /**
   * How long until the local lease deadline, measured on the worker's monotonic ticker.
   *
   * @return the remaining time; zero or negative once the deadline has passed
   */
  Duration leaseTimeRemaining();
}
