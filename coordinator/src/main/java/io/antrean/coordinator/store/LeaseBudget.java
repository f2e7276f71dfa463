package io.antrean.coordinator.store;

import io.antrean.coordinator.job.Job;
import java.util.List;

/**
 * How many payload bytes one lease takes at most, so that an answer carrying its jobs stays under
 * the 4 MiB a gRPC client reads by default, whatever language it is in.
 *
 * <p>A lease takes ready jobs in its order until it has the number asked for or the payloads it
 * took reach {@link #PAYLOAD_BYTES}: the first job is always taken, and each next one only while
 * the payloads before it are under the budget. An answer's payloads are therefore under the budget
 * plus one payload (at most 1 MiB): under 3 MiB, which leaves the rest of the 4 MiB for the jobs'
 * other fields. A worker asking for many jobs of large payloads gets fewer per answer and asks
 * again at once; it never gets an answer it cannot read.
 */
public final class LeaseBudget {
  /** The payload bytes a lease stops taking jobs at. */
  public static final long PAYLOAD_BYTES = 2L << 20;

  private LeaseBudget() {}

  /** Whether a lease that took jobs whose payloads add up to {@code taken} bytes takes another. */
  public static boolean hasRoom(long taken) {
    return taken < PAYLOAD_BYTES;
  }

  /**
   * Whether a lease that asked for {@code asked} jobs and got {@code granted} took every ready job
   * it could see: it got fewer than it asked for, and not because the budget stopped it.
   */
  public static boolean tookEveryReady(List<Job> granted, int asked) {
    return granted.size() < asked && hasRoom(payloadBytes(granted));
  }

  private static long payloadBytes(List<Job> jobs) {
    long bytes = 0;
    for (Job job : jobs) {
      bytes += job.payloadSize();
    }
    return bytes;
  }
}
