package io.antrean.coordinator.store;

import io.antrean.coordinator.job.Job;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * How many bytes one answer carrying jobs takes at most, so that it stays under the 4 MiB a gRPC
 * client reads by default, whatever language it is in, and the coordinator never holds more than a
 * few MiB of it in its heap.
 *
 * <p>A lease takes jobs in order until there are as many as asked for or their payloads reach
 * {@link #PAYLOAD_BYTES}: the first job is always taken, and each next one only while the payloads
 * before it are under the budget. A lease's payloads are therefore under the budget plus one
 * payload (at most 1 MiB): under 3 MiB, which leaves the rest of the 4 MiB for the jobs' other
 * fields (256 jobs at most). A worker asking for many jobs of long payloads gets fewer per lease
 * and leases again at once.
 *
 * <p>A page of a listing, and a job with its history (GetJob), keep to {@link #ANSWER_BYTES} with
 * everything they carry counted ({@link #fits}): a listed job as its payload, result and last error
 * plus {@link #JOB_FIELDS_BYTES} for its other fields; a history entry as its error texts plus
 * {@link #ATTEMPT_FIELDS_BYTES}. The first job of a page is always taken (at most 1 MiB of payload,
 * 1 MiB of result and 12 KiB of error), and so is a job's newest history entry; nothing else passes
 * the budget. A listing ends its page early and gives the next page's token; GetJob leaves out the
 * oldest history entries and counts them.
 */
public final class AnswerBudget {
  /** The payload bytes at which a lease stops taking jobs. */
  public static final long PAYLOAD_BYTES = 2L << 20;

  /**
   * The most bytes a page of a listing, or a job with its history, carries (the first item aside).
   */
  public static final long ANSWER_BYTES = 3L << 20;

  /**
   * What a job's fields other than its payload, result and last error take in an answer, at most
   * about: ids, names, keys, content types, times, trace parent, lease.
   */
  public static final long JOB_FIELDS_BYTES = 1024;

  /** What a history entry's fields other than its error texts take in an answer, at most about. */
  public static final long ATTEMPT_FIELDS_BYTES = 256;

  private AnswerBudget() {}

  /** Whether a lease whose jobs' payloads add up to {@code taken} bytes takes another job. */
  public static boolean hasRoom(long taken) {
    return taken < PAYLOAD_BYTES;
  }

  /**
   * Whether a page, or a job with its history, that holds {@code taken} bytes ({@link
   * #ANSWER_BYTES}) takes an item of {@code next} more; {@code first} is always taken.
   */
  public static boolean fits(long taken, long next, boolean first) {
    return first || taken + next <= ANSWER_BYTES;
  }

  /** What {@code job} takes in a page or a GetJob, its history aside ({@link #ANSWER_BYTES}). */
  public static long listedBytes(Job job) {
    String lastError = job.lastError();
    return job.payloadSize()
        + job.resultSize()
        + (lastError == null ? 0 : lastError.getBytes(StandardCharsets.UTF_8).length)
        + JOB_FIELDS_BYTES;
  }

  /**
   * Whether a lease that asked for {@code asked} jobs and got {@code granted} took every ready job
   * it could see: it got fewer than it asked for, and not because the budget stopped it.
   */
  public static boolean tookEveryReady(List<Job> granted, int asked) {
    return granted.size() < asked && !cutShort(granted, asked);
  }

  /** Whether the budget, not the queue, ended a lease that got {@code granted} of {@code asked}. */
  public static boolean cutShort(List<Job> granted, int asked) {
    return granted.size() < asked && !hasRoom(payloadBytes(granted));
  }

  private static long payloadBytes(List<Job> jobs) {
    long bytes = 0;
    for (Job job : jobs) {
      bytes += job.payloadSize();
    }
    return bytes;
  }
}
