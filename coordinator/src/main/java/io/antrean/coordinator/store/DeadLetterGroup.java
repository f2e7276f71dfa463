package io.antrean.coordinator.store;

import javax.annotation.Nullable;

/**
 * Dead-lettered jobs of one queue and type with the same last error, counted.
 *
 * @param lastError null for jobs dead-lettered without a message
 */
public record DeadLetterGroup(String queue, String type, @Nullable String lastError, long count) {}
