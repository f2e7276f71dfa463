package io.antrean.coordinator.core;

/** The coordinator is shutting down and ends the call; the caller may retry on another one. */
public final class CoordinatorStoppingException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public CoordinatorStoppingException() {
    super("coordinator shutting down; retry");
  }
}
