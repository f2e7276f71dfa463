package io.antrean.coordinator.store;

/** The store cannot answer now (I/O error, database down, closed); the caller may retry. */
public final class StoreUnavailableException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public StoreUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }
}
