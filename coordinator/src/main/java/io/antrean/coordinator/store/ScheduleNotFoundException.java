package io.antrean.coordinator.store;

/** No schedule has the given name. */
public final class ScheduleNotFoundException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public ScheduleNotFoundException(String name) {
    super("schedule '" + name + "' not found");
  }
}
