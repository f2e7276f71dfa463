package io.antrean.coordinator.core;

/** What the schedule duty reports, for metrics. Implementations are thread-safe and quick. */
public interface ScheduleEvents {
  /** Reports nothing. */
  ScheduleEvents NONE =
      new ScheduleEvents() {
        @Override
        public void onFired(String schedule, int jobs) {}

        @Override
        public void onMissed(String schedule, long dueTimes) {}
      };

  /** A fire of {@code schedule} stored {@code jobs} new jobs. */
  void onFired(String schedule, int jobs);

  /** Due times of {@code schedule} were dropped (misfire or overlap policy). */
  void onMissed(String schedule, long dueTimes);
}
