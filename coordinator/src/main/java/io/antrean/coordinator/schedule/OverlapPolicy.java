package io.antrean.coordinator.schedule;

/** What a schedule does when it is due while the job of its previous fire is still active. */
public enum OverlapPolicy {
  /** Fires anyway. */
  ALLOW,
  /** Skips the due time while the previous job is PENDING or RUNNING. */
  SKIP
}
