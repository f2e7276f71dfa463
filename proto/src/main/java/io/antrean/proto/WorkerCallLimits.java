package io.antrean.proto;

/**
 * The limits of the worker's calls (worker_service.proto) that a coordinator enforces and a worker
 * keeps within: one place for both sides, so a worker never learns of them from refused calls.
 */
public final class WorkerCallLimits {
  /**
   * The longest result a Complete or a CompleteBatch item may carry, in bytes: as long as the
   * longest payload, so a job's answer (GetJob, a page of ListJobs) stays under gRPC's default 4
   * MiB.
   */
  public static final int MAX_RESULT_BYTES = 1 << 20;

  /** The most items one CompleteBatch carries. */
  public static final int MAX_COMPLETE_BATCH_ITEMS = 1000;

  /** The most leases one Heartbeat carries: the most a worker may hold at once. */
  public static final int MAX_HEARTBEAT_LEASES = 1024;

  /** The longest worker id, in characters: a coordinator refuses every call with a longer one. */
  public static final int MAX_WORKER_ID_CHARS = 256;

  private WorkerCallLimits() {}
}
