package io.antrean.coordinator.store;

import io.antrean.coordinator.job.Job;
import java.util.List;

/**
 * How many payload bytes one answer carrying jobs takes at most, a lease or a page of a listing, so
 * that it stays under the 4 MiB a gRPC client reads by default, whatever language it is in, and a
 * listing of long payloads never holds more than a few MiB of them in the coordinator's heap. A
 * job's history (GetJob) keeps its newest entries to the same budget, counting their error texts.
 *
 * <p>Jobs are taken in the answer's order until there are as many as asked for or the payloads
 * taken (in a listing, payloads and results) reach {@link #PAYLOAD_BYTES}: the first job is always
 * taken, and each next one only while the bytes before it are under the budget. An answer's
 * payloads are therefore under the budget plus one payload (at most 1 MiB): under 3 MiB, which
 * leaves the rest of the 4 MiB for the jobs' other fields. A worker asking for many jobs of long
 * payloads gets fewer per lease and leases again at once; a listing ends its page early and gives
 * the next page's token.
 */
public final class AnswerBudget {
  /** The payload bytes at which an answer stops taking jobs. */
  public static final long PAYLOAD_BYTES = 2L << 20;

  private AnswerBudget() {}

  /** Whether an answer whose jobs' payloads add up to {@code taken} bytes takes another job. */
  public static boolean hasRoom(long taken) {
    return taken < PAYLOAD_BYTES;
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
