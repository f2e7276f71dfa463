package io.antrean.coordinator.core;

import javax.annotation.Nullable;

/**
 * The rule for a worker id, which every worker call carries and the coordinator keeps (in the
 * attempt history and the worker registry): required and at most {@value #MAX_LENGTH} characters,
 * so a client cannot make the coordinator hold an unbounded string per call.
 */
public final class WorkerIds {
  public static final int MAX_LENGTH = 256;

  private WorkerIds() {}

  /** What is wrong with the id, or null when it is acceptable. */
  @Nullable
  public static String problem(String workerId) {
    if (workerId.isEmpty()) {
      return "is required";
    }
    return workerId.length() > MAX_LENGTH ? "at most " + MAX_LENGTH + " characters" : null;
  }
}
