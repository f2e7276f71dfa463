package io.antrean.coordinator.grpc;

import com.google.rpc.BadRequest;
import io.antrean.coordinator.core.FieldViolation;
import io.antrean.coordinator.core.ValidationException;
import java.util.List;

/**
 * A validation failure cut to a size that fits in gRPC trailers. Clients refuse trailers over 8 KiB
 * by default (grpc-java reports that as INTERNAL on the client), and a batch of a thousand bad
 * jobs, or a field that quotes a long value, would exceed it; so at most {@value #MAX_VIOLATIONS}
 * violations are sent, each field and description cut, and the message says how many there were.
 */
final class BoundedViolations {
  static final int MAX_VIOLATIONS = 16;
  static final int MAX_FIELD_CHARS = 100;
  static final int MAX_DESCRIPTION_CHARS = 160;

  private BoundedViolations() {}

  static BadRequest badRequest(ValidationException v) {
    BadRequest.Builder bad = BadRequest.newBuilder();
    List<FieldViolation> all = v.violations();
    for (FieldViolation fv : all.subList(0, Math.min(all.size(), MAX_VIOLATIONS))) {
      bad.addFieldViolations(
          BadRequest.FieldViolation.newBuilder()
              .setField(cut(fv.field(), MAX_FIELD_CHARS))
              .setDescription(cut(fv.description(), MAX_DESCRIPTION_CHARS)));
    }
    return bad.build();
  }

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
