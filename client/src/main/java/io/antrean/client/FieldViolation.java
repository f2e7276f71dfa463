package io.antrean.client;

import java.util.Objects;

/**
 * One rejected field of a request, from a {@code google.rpc.BadRequest} detail.
 *
 * @param field the path of the field, for example {@code type} or {@code jobs[2].retry_policy}
 * @param description why the server rejected it, for people to read
 */
public record FieldViolation(String field, String description) {
  /** Checks that neither part is null. */
  public FieldViolation {
    Objects.requireNonNull(field, "field");
    Objects.requireNonNull(description, "description");
  }

  /** Renders the violation as {@code field: description}. */
  @Override
  public String toString() {
    return field + ": " + description;
  }
}
