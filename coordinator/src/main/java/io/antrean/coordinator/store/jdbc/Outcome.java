package io.antrean.coordinator.store.jdbc;

import java.util.Objects;
import javax.annotation.Nullable;

/**
 * What a unit of work hands back from inside its transaction: a value, or a domain rejection that
 * must still commit what the work wrote (a stale token's history entry) and is thrown to the caller
 * only after that commit.
 */
public final class Outcome<T> {
  @Nullable private final T value;
  @Nullable private final RuntimeException rejection;

  private Outcome(@Nullable T value, @Nullable RuntimeException rejection) {
    this.value = value;
    this.rejection = rejection;
  }

  public static <T> Outcome<T> of(T value) {
    return new Outcome<>(Objects.requireNonNull(value, "value"), null);
  }

  public static <T> Outcome<T> rejected(RuntimeException rejection) {
    return new Outcome<>(null, Objects.requireNonNull(rejection, "rejection"));
  }

  /** The value, or throws the rejection (in the caller's thread, after the commit). */
  public T orThrow() {
    if (rejection != null) {
      throw rejection;
    }
    return value;
  }
}
