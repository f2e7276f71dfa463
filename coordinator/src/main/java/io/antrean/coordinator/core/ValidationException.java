package io.antrean.coordinator.core;

import java.util.List;

/** A request was rejected before anything was stored; every fault is listed. */
public final class ValidationException extends RuntimeException {
  private static final long serialVersionUID = 1L;
  private final transient List<FieldViolation> violations;

  public ValidationException(List<FieldViolation> violations) {
    super(summary(violations));
    if (violations.isEmpty()) {
      throw new IllegalArgumentException("a validation failure needs at least one violation");
    }
    this.violations = List.copyOf(violations);
  }

  public List<FieldViolation> violations() {
    return violations;
  }

  private static String summary(List<FieldViolation> violations) {
    StringBuilder sb = new StringBuilder("invalid request");
    for (FieldViolation v : violations) {
      sb.append("; ").append(v.field()).append(": ").append(v.description());
    }
    return sb.toString();
  }
}
