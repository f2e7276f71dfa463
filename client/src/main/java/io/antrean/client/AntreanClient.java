package io.antrean.client;

import io.antrean.proto.v1.Dependency;
import io.antrean.proto.v1.EnqueueBatchRequest;
import io.antrean.proto.v1.EnqueueBatchResponse;
import io.antrean.proto.v1.EnqueueRequest;
import io.antrean.proto.v1.EnqueueResponse;
import io.antrean.proto.v1.GetStatsResponse;
import io.antrean.proto.v1.Job;
import io.antrean.proto.v1.ListJobsRequest;
import io.antrean.proto.v1.ListJobsResponse;
import io.antrean.proto.v1.QueueInfo;
import io.antrean.proto.v1.QueueLimits;
import io.antrean.proto.v1.WorkerStatus;
import java.time.Duration;
import java.util.List;
import javax.annotation.Nullable;

/**
 * A producer's view of an Antrean coordinator: put jobs in, look at them, cancel them; and, through
 * {@link #deadLetters()}, an operator's view of the dead-letter queue; and queue control: {@link
 * #listQueues()}, {@link #pauseQueue}, {@link #resumeQueue} and {@link #setQueueLimits}.
 *
 * <p>Every call is blocking and carries a deadline (the client's default unless changed with {@link
 * #withTimeout}). Failures are unchecked: {@link InvalidArgumentException} for bad input, {@link
 * JobNotFoundException}, {@link AlreadyExistsException}, {@link FailedPreconditionException} when
 * the job is in the wrong state (its {@code reason()} says which rule), {@link
 * UnavailableException} when the coordinator cannot be reached or does not answer in time
 * (retryable), and {@link AntreanException} for every other status. Implementations are
 * thread-safe: share one client between threads and close it once when the application stops.
 */
public interface AntreanClient extends AutoCloseable {

  /**
   * Adds one job. When this returns, the job is durably stored.
   *
   * @return the stored job and whether an idempotency key matched an existing one
   * @throws InvalidArgumentException for a missing or unknown type, a bad queue name, a payload
   *     over the limit, a negative delay or a bad retry policy
   * @throws AlreadyExistsException if the idempotency key is remembered with another payload
   * @throws UnavailableException if the coordinator did not answer; the job may have been stored
   */
  EnqueueResponse enqueue(EnqueueRequest request);

  /** Adds the job a {@link JobSpec} describes; see {@link #enqueue(EnqueueRequest)}. */
  default EnqueueResponse enqueue(JobSpec spec) {
    return enqueue(spec.toRequest());
  }

  /**
   * Adds a job of the given type with a JSON payload to the {@code default} queue, with the
   * coordinator's defaults for everything else; see {@link #enqueue(EnqueueRequest)}.
   *
   * @param type the job type; not blank
   * @param jsonPayload the payload, sent as UTF-8 {@code application/json}
   */
  default EnqueueResponse enqueue(String type, String jsonPayload) {
    return enqueue(JobSpec.builder(type).jsonPayload(jsonPayload).build());
  }

  /**
   * Adds many jobs in one durable write: all or none.
   *
   * @return one result per request, in request order
   * @throws InvalidArgumentException for an empty or oversized batch or a bad job; field violations
   *     name the job as {@code jobs[i].field}
   */
  EnqueueBatchResponse enqueueBatch(EnqueueBatchRequest request);

  /** Adds the jobs the specs describe in one write; see {@link #enqueueBatch}. */
  default EnqueueBatchResponse enqueueBatch(List<JobSpec> specs) {
    EnqueueBatchRequest.Builder batch = EnqueueBatchRequest.newBuilder();
    specs.forEach(spec -> batch.addJobs(spec.toRequest()));
    return enqueueBatch(batch.build());
  }

  /**
   * One job with its attempt history.
   *
   * @throws JobNotFoundException if no job has this id
   */
  Job getJob(long id);

  /**
   * The jobs a job depends on ({@link JobSpec.Builder#dependsOn}), ascending by id, each with its
   * state and, once it succeeded, its result: how a fan-in step reads what the jobs it waited for
   * produced.
   *
   * @return the dependencies; empty when the job depends on nothing
   * @throws JobNotFoundException if no job has this id
   */
  List<Dependency> listDependencies(long id);

  /**
   * One page of jobs, newest first, filtered by the request's queue, type and state (history left
   * out). Pass the response's {@code next_page_token} in the next request for the next page.
   *
   * @throws InvalidArgumentException for a page token the server did not issue
   */
  ListJobsResponse listJobs(ListJobsRequest request);

  /**
   * Cancels a job. A {@code PENDING} job is {@code CANCELLED} at once. A {@code RUNNING} job comes
   * back still {@code RUNNING} with {@code cancel_requested} set: its worker learns of it at its
   * next heartbeat, stops the handler and the job then ends {@code CANCELLED} (unless the handler
   * finished first, in which case its outcome stands; {@link #getJob} tells which).
   *
   * @return the job as the cancellation left it
   * @throws JobNotFoundException if no job has this id
   * @throws FailedPreconditionException with reason {@link
   *     FailedPreconditionException#JOB_FINISHED} if the job already succeeded, failed or was
   *     cancelled
   */
  Job cancelJob(long id);

  /**
   * Follows a job with the WatchJob stream: the returned iterator yields the job as it is now, then
   * a snapshot per change of its state, attempts or cancel flag (intermediate ones may be skipped
   * under load; the latest never is), and ends after the terminal snapshot. Errors, including an
   * unknown id ({@link JobNotFoundException}), surface from the iterator; see {@link JobWatch}.
   * Close the watch if you stop reading early.
   *
   * @param timeout how long the watch may stay open; when it passes the iterator throws {@link
   *     UnavailableException} with {@code isDeadlineExceeded()}; positive
   * @throws IllegalArgumentException if {@code timeout} is zero or negative
   */
  JobWatch watchJob(long id, Duration timeout);

  /**
   * Blocks until the job reaches {@code SUCCEEDED}, {@code FAILED} or {@code CANCELLED}, and
   * returns it (without history). Built on {@link #watchJob}; a watch that ends with {@code
   * UNAVAILABLE} (for example a coordinator shutting down) is opened again while time remains.
   *
   * @param timeout how long to wait in all; positive
   * @return the job in its terminal state
   * @throws AwaitTimeoutException if the job did not finish within {@code timeout}
   * @throws JobNotFoundException if no job has this id
   * @throws IllegalArgumentException if {@code timeout} is zero or negative
   */
  default Job awaitTerminal(long id, Duration timeout) {
    return TerminalWait.await(this, id, timeout, System::nanoTime);
  }

  /**
   * Depth by state, the oldest pending job's age, and the dead-letter depth ({@code failed}) with
   * how many jobs entered the dead-letter queue within the response's {@code dead_letter_window}.
   *
   * @param queue only this queue, or {@code null} (or empty) for every queue that holds jobs
   */
  GetStatsResponse getStats(@Nullable String queue);

  /**
   * The counts of the jobs not yet finished alone (pending, scheduled, running and waiting, and the
   * oldest pending job's age); succeeded, failed, cancelled and the dead-letter growth are zero,
   * and without a queue only the queues holding such a job are listed. For one queue it costs the
   * coordinator what is left to run, not the finished jobs its store keeps: the call for a loop
   * that waits for a queue to drain. A coordinator older than this call answers every count
   * instead; the unfinished ones are right either way.
   *
   * @param queue only this queue, or {@code null} (or empty) for every queue with unfinished jobs
   */
  GetStatsResponse getUnfinishedStats(@Nullable String queue);

  /**
   * Every queue that holds jobs or has ever been paused, ordered by name, each with its pause state
   * ({@code paused}, and {@code paused_at} while paused) and its counts by state. Goes to the
   * coordinator's {@code AdminService}; with bearer tokens it needs the admin role ({@code
   * PERMISSION_DENIED} otherwise, as a plain {@link AntreanException}).
   *
   * @return the queues, possibly empty; never {@code null}
   */
  List<QueueInfo> listQueues();

  /**
   * The workers the coordinator has heard from on their Lease and Heartbeat calls, ordered by
   * worker id: each with what it said about itself (host, version, queues, types, concurrency), the
   * jobs it holds, when it was first and last seen, and whether it is live or lost (silent for
   * three heartbeat intervals). Each coordinator knows only the workers that call it. Goes to the
   * coordinator's {@code AdminService}; with bearer tokens it needs the admin role.
   *
   * @return the workers, possibly empty; never {@code null}
   * @throws UnavailableException if the coordinator did not answer
   */
  List<WorkerStatus> listWorkers();

  /**
   * Pauses a queue: it still accepts jobs ({@link #enqueue} is unaffected), but no worker leases
   * any of its jobs until it is resumed; jobs already running carry on. The pause is durable (it
   * outlives coordinator restarts) and holds for every coordinator sharing the store. A queue with
   * no jobs yet may be paused. Idempotent: pausing a paused queue keeps its original {@code
   * paused_at}.
   *
   * @param queue the queue's name
   * @return the queue after the change: {@code paused} set, with {@code paused_at} and its counts
   * @throws InvalidArgumentException for an empty or bad queue name (a field violation on {@code
   *     queue})
   * @throws UnavailableException if the coordinator did not answer; the queue may have been paused,
   *     and repeating the call is safe
   */
  QueueInfo pauseQueue(String queue);

  /**
   * Resumes a paused queue: its ready jobs become leasable at once and waiting workers are woken.
   * Idempotent: resuming a queue that is not paused changes nothing.
   *
   * @param queue the queue's name
   * @return the queue after the change: {@code paused} clear, no {@code paused_at}, its counts
   * @throws InvalidArgumentException for an empty or bad queue name (a field violation on {@code
   *     queue})
   * @throws UnavailableException if the coordinator did not answer; the queue may have been
   *     resumed, and repeating the call is safe
   */
  QueueInfo resumeQueue(String queue);

  /**
   * Sets a queue's concurrency limits, replacing the ones it had: at most {@code maxRunning} of its
   * jobs RUNNING at once, and at most {@code maxRunningPerKey} RUNNING jobs with one concurrency
   * key (see {@link JobSpec.Builder#concurrencyKey}); 0 means no such limit, both 0 removes the
   * limits. Every coordinator sharing the store enforces them at lease time; jobs held back wait
   * PENDING without spending an attempt; running jobs are not stopped. Durable and idempotent.
   *
   * @return the queue after the change, its {@code limits} set unless both are 0
   * @throws InvalidArgumentException for a bad queue name or a negative limit (field violations on
   *     {@code queue}, {@code max_running}, {@code max_running_per_key})
   * @throws UnavailableException if the coordinator did not answer; repeating the call is safe
   */
  default QueueInfo setQueueLimits(String queue, int maxRunning, int maxRunningPerKey) {
    return setQueueLimits(
        queue,
        QueueLimits.newBuilder()
            .setMaxRunning(maxRunning)
            .setMaxRunningPerKey(maxRunningPerKey)
            .build());
  }

  /**
   * Sets a queue's concurrency and rate limits, replacing the ones it had, as {@link
   * #setQueueLimits(String, int, int)} does, with rate limits too: {@code limits.rate} caps the
   * queue's starts (leases) per interval and {@code limits.rate_per_key} the starts per concurrency
   * key, each a token bucket kept by the store (exact across coordinators). A field left 0 or unset
   * is no such limit; an empty message removes every limit. Setting the limits refills the buckets.
   *
   * @return the queue after the change
   * @throws InvalidArgumentException for a bad queue name, a negative count, or a rate with fewer
   *     than 1 start or an interval not from 1 microsecond to 1 day (field violations such as
   *     {@code rate.starts}, {@code rate_per_key.interval})
   * @throws UnavailableException if the coordinator did not answer; repeating the call is safe
   */
  QueueInfo setQueueLimits(String queue, QueueLimits limits);

  /**
   * The dead-letter queue: list, inspect, redrive and purge {@code FAILED} jobs. The returned view
   * shares this client's connection and deadline (a {@link #withTimeout} client's view has that
   * client's deadline) and needs no closing; once an owning client is closed its calls fail with
   * {@link UnavailableException}. Cheap to call; the view is thread-safe.
   */
  DeadLetters deadLetters();

  /** The durable schedules, on this client's connection and deadline. */
  Schedules schedules();

  /**
   * A client that shares this one's connection but gives each call the given deadline. Closing the
   * returned client does nothing; the connection belongs to this one.
   *
   * @param timeout the deadline of each call, measured from its start; positive
   * @throws IllegalArgumentException if {@code timeout} is zero or negative
   */
  AntreanClient withTimeout(Duration timeout);

  /**
   * Releases the connection if this client owns it, waiting a few seconds for calls in flight; does
   * nothing for a borrowed connection. Idempotent; once an owning client is closed its calls fail
   * with {@link UnavailableException}. Does not throw checked exceptions.
   */
  @Override
  void close();
}
