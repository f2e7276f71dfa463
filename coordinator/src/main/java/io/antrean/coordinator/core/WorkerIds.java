package io.antrean.coordinator.core;

import io.antrean.proto.WorkerCallLimits;
import javax.annotation.Nullable;

/**
 * The rule for a worker id, which every worker call carries and the coordinator keeps (in the
 * attempt history and the worker registry): required and at most {@value
 * WorkerCallLimits#MAX_WORKER_ID_CHARS} characters, so a client cannot make the coordinator hold an
 * unbounded string per call.
 */
public final class WorkerIds {
  private WorkerIds() {}

  /** What is wrong with the id, or null when it is acceptable. */
  @Nullable
  public static String problem(String workerId) {
    if (workerId.isEmpty()) {
      return "is required";
    }
    return workerId.length() > WorkerCallLimits.MAX_WORKER_ID_CHARS
        ? "at most " + WorkerCallLimits.MAX_WORKER_ID_CHARS + " characters"
        : null;
  }
}
