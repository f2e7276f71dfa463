package io.antrean.worker;

/**
 * Why the worker stopped a running job. The handler thread is interrupted in every case, and the
 * handler's outcome is ignored; what happens to the job depends on the reason.
 */
public enum CancellationReason {
  /**
   * A producer cancelled the job. The worker releases it with reason {@code "cancelled"}, and the
   * coordinator marks it cancelled.
   */
  CANCEL_REQUESTED,
  /**
   * The coordinator answered a heartbeat with "lost": the lease expired or the job finished
   * elsewhere. Another worker may be running it; nothing is reported.
   */
  LEASE_LOST,
  /**
   * The worker could not renew the lease before its local deadline (the coordinator was
   * unreachable). The worker drops the job without reporting; another worker takes it over.
   */
  LEASE_EXPIRED,
  /**
   * The worker is shutting down and the grace period is over. The worker releases the job with
   * reason {@code "shutdown"}, which spends no attempt.
   */
  SHUTDOWN
}
