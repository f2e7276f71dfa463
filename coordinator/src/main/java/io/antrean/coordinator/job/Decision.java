package io.antrean.coordinator.job;

import java.util.Objects;
import javax.annotation.Nullable;

/**
 * What {@link JobLifecycle} decided for one event: a change for the store to persist, or the {@link
 * Refusal} that leaves the job as it is. Exactly one of the two is present.
 *
 * @param <T> the kind of change the event can bring
 */
public record Decision<T>(@Nullable T change, @Nullable Refusal refusal) {
  public Decision {
    if ((change == null) == (refusal == null)) {
      throw new IllegalArgumentException("a decision is either a change or a refusal");
    }
  }

  public static <T> Decision<T> to(T change) {
    return new Decision<>(Objects.requireNonNull(change, "change"), null);
  }

  public static <T> Decision<T> refused(Refusal refusal) {
    return new Decision<>(null, Objects.requireNonNull(refusal, "refusal"));
  }

  public boolean isRefused() {
    return refusal != null;
  }
}
