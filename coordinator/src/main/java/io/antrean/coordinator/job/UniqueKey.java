package io.antrean.coordinator.job;

import java.util.Objects;

/**
 * A job's unique-while-active key: while a job of the same queue with this key is PENDING or
 * RUNNING, another is not stored.
 *
 * @param key at most 256 characters
 * @param returnExisting on a clash, answer with the active job (deduplicated) instead of refusing
 */
public record UniqueKey(String key, boolean returnExisting) {
  public UniqueKey {
    Objects.requireNonNull(key, "key");
    if (key.isEmpty()) {
      throw new IllegalArgumentException("a unique key is not empty");
    }
  }
}
