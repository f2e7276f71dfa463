package io.antrean.coordinator.api;

import io.antrean.coordinator.core.FieldViolation;
import io.antrean.coordinator.core.ValidationException;
import java.util.ArrayList;
import java.util.List;

/**
 * A validation failure cut to a size that fits in gRPC trailers (and the same cut for HTTP, so both
 * transports say the same). Clients refuse trailers over 8 KiB by default (grpc-java reports that
 * as INTERNAL on the client), and a batch of a thousand bad jobs, or a field that quotes a long
 * value, would exceed it; so at most {@value #MAX_VIOLATIONS} violations are sent, each field and
 * description cut, and the message says how many there were.
 */
final class BoundedViolations {
  static final int MAX_VIOLATIONS = 16;
  static final int MAX_FIELD_CHARS = 100;
  static final int MAX_DESCRIPTION_CHARS = 160;

  private BoundedViolations() {}

  /** The first {@value #MAX_VIOLATIONS} violations, each field and description cut. */
  static List<FieldViolation> bounded(ValidationException v) {
    List<FieldViolation> all = v.violations();
    List<FieldViolation> kept = new ArrayList<>();
    for (FieldViolation fv : all.subList(0, Math.min(all.size(), MAX_VIOLATIONS))) {
      kept.add(
          new FieldViolation(
              cut(fv.field(), MAX_FIELD_CHARS), cut(fv.description(), MAX_DESCRIPTION_CHARS)));
    }
    return kept;
  }

  /** One line naming the first three violations and how many more there are. */
  static String message(ValidationException v) {
    List<FieldViolation> all = v.violations();
    StringBuilder sb = new StringBuilder("invalid request");
    for (FieldViolation fv : all.subList(0, Math.min(all.size(), 3))) {
      sb.append("; ")
          .append(cut(fv.field(), MAX_FIELD_CHARS))
          .append(": ")
          .append(cut(fv.description(), MAX_DESCRIPTION_CHARS));
    }
    if (all.size() > 3) {
      sb.append("; and ").append(all.size() - 3).append(" more");
      if (all.size() > MAX_VIOLATIONS) {
        sb.append(" (details list the first ").append(MAX_VIOLATIONS).append(')');
      }
    }
    return sb.toString();
  }

  private static String cut(String s, int max) {
    return s.length() <= max ? s : s.substring(0, max - 3) + "...";
  }
}
