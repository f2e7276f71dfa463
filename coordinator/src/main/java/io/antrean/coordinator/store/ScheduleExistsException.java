package io.antrean.coordinator.store;

/** A schedule of the given name exists already. */
public final class ScheduleExistsException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public ScheduleExistsException(String name) {
    super("schedule '" + name + "' already exists");
  }
}
