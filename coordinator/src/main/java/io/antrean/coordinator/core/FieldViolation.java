package io.antrean.coordinator.core;

/**
 * One thing wrong with a request.
 *
 * @param field the field's path in the protocol's names, for example {@code jobs[2].type}
 * @param description what is wrong, for example {@code unknown job type: send-fax}
 */
public record FieldViolation(String field, String description) {}
