package io.antrean.coordinator.core;

import io.antrean.coordinator.store.DeadLetterQuery;
import java.util.List;
import javax.annotation.Nullable;

/**
 * Which dead letters an operator means: these ids, or every one matching a filter, or (with {@code
 * all}) every one.
 *
 * @param filter used when {@code ids} is empty; its page fields are ignored
 */
public record DeadLetterSelection(List<Long> ids, @Nullable DeadLetterQuery filter, boolean all) {
  public DeadLetterSelection {
    ids = List.copyOf(ids);
  }
}
