package io.antrean.worker;

/**
 * Runs one job of one type. Register it with {@link WorkerBuilder#handler(String, JobHandler)} or
 * ship it through a {@link JobHandlerProvider}.
 *
 * <p>Outcome contract:
 *
 * <ul>
 *   <li>Returning normally completes the job with the returned bytes as its result ({@code null}
 *       means an empty result). The result's content type is {@code application/json} unless the
 *       handler sets another with {@link JobContext#resultContentType(String)}.
 *   <li>Throwing fails the attempt. The worker's {@link ErrorClassifier} decides whether the
 *       failure is {@link FailureKind#RETRYABLE retryable} or {@link FailureKind#PERMANENT
 *       permanent}; throw {@link RetryableException} or {@link PermanentException} to decide it
 *       yourself. Nothing a handler throws, {@link Error}s included, escapes the worker.
 *   <li>Once the job has been stopped ({@link JobContext#isCancelled()}), the outcome is ignored:
 *       the worker hands the job back or drops it as described in {@link CancellationReason}.
 * </ul>
 *
 * <p>Delivery is at least once: the same job may run again after a crash, a lost lease or a retry.
 * Use {@link JobContext#idempotencyKey()} to make side effects safe to repeat.
 *
 * <p>Thread-safety: one handler instance serves every job of its type, on up to {@code concurrency}
 * threads at once, so it must be thread-safe (stateless handlers are). A handler should react to
 * {@linkplain Thread#interrupt() interruption} promptly: it is how the worker stops a cancelled
 * job, a job whose lease was lost and, after the shutdown grace, every job still running.
 */
@FunctionalInterface
public interface JobHandler {

  /**
   * Runs the job described by {@code ctx} on the calling (handler) thread.
   *
   * @param ctx the job and its lease; valid only until this method returns
   * @return the result to store with the completed job, or {@code null} for none
   * @throws Exception to fail the attempt; see the class comment for how it is classified
   */
  byte[] handle(JobContext ctx) throws Exception;
}
