package io.antrean.client;

import io.antrean.proto.v1.DeadLetterFilter;
import io.antrean.proto.v1.Job;
import io.antrean.proto.v1.ListDeadLettersRequest;
import io.antrean.proto.v1.ListDeadLettersResponse;
import io.antrean.proto.v1.PurgeDeadLettersRequest;
import io.antrean.proto.v1.PurgeDeadLettersResponse;
import io.antrean.proto.v1.RedriveDeadLettersRequest;
import io.antrean.proto.v1.RedriveDeadLettersResponse;
import javax.annotation.Nullable;

/**
 * An operator's view of the dead-letter queue (the coordinator's {@code antrean.v1.AdminService}):
 * the {@code FAILED} jobs, each with its payload and every attempt, which can be inspected,
 * redriven (sent back to {@code PENDING} with a fresh attempt budget) or purged.
 *
 * <p>Obtain one from {@link AntreanClient#deadLetters()}. It shares that client's connection and
 * deadline, needs no closing, and is thread-safe. Calls fail as {@link AntreanClient}'s do; with
 * bearer tokens, these calls need the admin role ({@code PERMISSION_DENIED} otherwise, as a plain
 * {@link AntreanException}).
 */
public interface DeadLetters {

  /**
   * One page of dead letters matching the request's filter, newest id first, without history. An
   * empty filter lists every dead letter. Pass the response's {@code next_page_token} in the next
   * request for the next page; it is empty on the last page.
   *
   * @throws InvalidArgumentException for a page token the server did not issue, a page size over
   *     1000 or a time range that ends before it starts
   */
  ListDeadLettersResponse list(ListDeadLettersRequest request);

  /**
   * One page of dead letters; see {@link #list(ListDeadLettersRequest)}.
   *
   * @param filter which dead letters; the default instance lists all of them
   * @param pageSize at most 1000; 0 for the server's default (100)
   * @param pageToken from the previous page, or {@code null} (or empty) for the first page
   */
  default ListDeadLettersResponse list(
      DeadLetterFilter filter, int pageSize, @Nullable String pageToken) {
    return list(
        ListDeadLettersRequest.newBuilder()
            .setFilter(filter)
            .setPageSize(pageSize)
            .setPageToken(pageToken == null ? "" : pageToken)
            .build());
  }

  /**
   * One dead letter with its payload and full attempt history.
   *
   * @throws JobNotFoundException if no job has this id
   * @throws FailedPreconditionException with reason {@link
   *     FailedPreconditionException#NOT_DEAD_LETTERED} if the job exists but is not {@code FAILED}
   */
  Job get(long id);

  /**
   * Moves dead letters back to {@code PENDING} with a fresh attempt budget, keeping payload,
   * history and idempotency key. The server spreads them out: the n-th becomes leasable n / rate
   * seconds after now. Ids that are unknown or not dead-lettered are skipped and listed in the
   * response, not treated as an error.
   *
   * @return the redriven ids in the order they become leasable, the skipped ids, and when the last
   *     one becomes leasable
   * @throws InvalidArgumentException if the request names no ids, no filter and not {@code all}, or
   *     for a rate that is negative or over 100000 per second
   * @throws UnavailableException if the coordinator did not answer; some jobs may have been
   *     redriven, and repeating the call is safe (they are no longer dead letters)
   */
  RedriveDeadLettersResponse redrive(RedriveDeadLettersRequest request);

  /**
   * Redrives the selected dead letters at the server's default rate (100 per second) and limit
   * (10000 jobs); see {@link #redrive(RedriveDeadLettersRequest)}.
   */
  default RedriveDeadLettersResponse redrive(DeadLetterSelection selection) {
    return redrive(selection.toRedriveRequest().build());
  }

  /**
   * Redrives the selected dead letters; see {@link #redrive(RedriveDeadLettersRequest)}.
   *
   * @param ratePerSecond jobs per second that become leasable; positive, at most 100000
   * @param limit the most jobs this call redrives; positive
   * @throws IllegalArgumentException if {@code ratePerSecond} or {@code limit} is not positive
   */
  default RedriveDeadLettersResponse redrive(
      DeadLetterSelection selection, double ratePerSecond, int limit) {
    if (!(ratePerSecond > 0) || limit <= 0) {
      throw new IllegalArgumentException(
          "rate and limit must be positive: rate " + ratePerSecond + ", limit " + limit);
    }
    return redrive(
        selection.toRedriveRequest().setRatePerSecond(ratePerSecond).setLimit(limit).build());
  }

  /**
   * Deletes dead letters with their history. This cannot be undone. Ids that are unknown or not
   * dead-lettered are left alone and not counted.
   *
   * @return how many jobs were deleted
   * @throws InvalidArgumentException if the request names no ids, no filter and not {@code all}
   * @throws UnavailableException if the coordinator did not answer; some jobs may have been deleted
   */
  PurgeDeadLettersResponse purge(PurgeDeadLettersRequest request);

  /**
   * Deletes the selected dead letters; see {@link #purge(PurgeDeadLettersRequest)}.
   *
   * @return how many jobs were deleted
   */
  default long purge(DeadLetterSelection selection) {
    return purge(selection.toPurgeRequest().build()).getPurged();
  }
}
