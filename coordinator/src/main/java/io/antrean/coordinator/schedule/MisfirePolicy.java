package io.antrean.coordinator.schedule;

/** What a schedule does with due times that passed while nobody could fire them. */
public enum MisfirePolicy {
  /** Drops missed due times; fires a due time only while it is at most a grace period late. */
  SKIP,
  /** Fires one job for the latest missed due time and drops the others. */
  RUN_ONCE,
  /** Fires one job per missed due time, the latest {@code misfireLimit} of them. */
  RUN_ALL
}
