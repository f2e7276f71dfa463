package io.antrean.coordinator.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Collects field violations of one request and throws them together. */
final class Violations {
  private final List<FieldViolation> list = new ArrayList<>();

  Violations check(boolean ok, String field, String description) {
    if (!ok) {
      list.add(new FieldViolation(field, description));
    }
    return this;
  }

  Violations required(String value, String field) {
    return check(!value.isEmpty(), field, "is required");
  }

  Violations notNegative(Duration d, String field) {
    return check(d == null || !d.isNegative(), field, "must not be negative");
  }

  Violations problem(String problem, String field) {
    return check(problem == null, field, problem);
  }

  /**
   * @throws ValidationException if any check failed
   */
  void throwIfAny() {
    if (!list.isEmpty()) {
      throw new ValidationException(list);
    }
  }
}
