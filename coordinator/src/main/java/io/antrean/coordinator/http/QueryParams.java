package io.antrean.coordinator.http;

import com.google.protobuf.Timestamp;
import com.google.protobuf.util.Timestamps;
import io.antrean.coordinator.core.FieldViolation;
import io.antrean.coordinator.core.ValidationException;
import io.antrean.proto.v1.JobState;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.text.ParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;
import javax.annotation.Nullable;

/**
 * A request's query parameters, strictly: every name must be one the route knows and may appear
 * once. Problems are collected and thrown together as a {@link ValidationException} (a 422 naming
 * each parameter) by {@link #check()}. Not thread-safe; one per request.
 */
final class QueryParams {
  private final Map<String, String> values = new HashMap<>();
  private final List<FieldViolation> violations = new ArrayList<>();

  private QueryParams() {}

  /**
   * @param rawQuery the URI's raw (still percent-encoded) query, or null
   * @param allowed the parameter names the route accepts
   */
  static QueryParams parse(@Nullable String rawQuery, Set<String> allowed) {
    QueryParams q = new QueryParams();
    if (rawQuery == null || rawQuery.isEmpty()) {
      return q;
    }
    for (String pair : rawQuery.split("&", -1)) {
      if (pair.isEmpty()) {
        continue;
      }
      int eq = pair.indexOf('=');
      String name = decode(eq < 0 ? pair : pair.substring(0, eq), q);
      String value = eq < 0 ? "" : decode(pair.substring(eq + 1), q);
      if (name == null || value == null) {
        continue;
      }
      if (!allowed.contains(name)) {
        q.violations.add(
            new FieldViolation(
                name, "unknown parameter; accepted: " + String.join(", ", new TreeSet<>(allowed))));
      } else if (q.values.putIfAbsent(name, value) != null) {
        q.violations.add(new FieldViolation(name, "given more than once"));
      }
    }
    return q;
  }

  @Nullable
  private static String decode(String s, QueryParams q) {
    try {
      return URLDecoder.decode(s, StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      q.violations.add(new FieldViolation("query", "not a well-formed percent-encoded query"));
      return null;
    }
  }

  /** Records that the parameter's value is wrong, for {@link #check}. */
  void invalid(String name, String description) {
    violations.add(new FieldViolation(name, description));
  }

  /** The value, or "" when absent. */
  String text(String name) {
    return values.getOrDefault(name, "");
  }

  /** The value as an int, or 0 when absent. */
  int integer(String name) {
    String v = values.get(name);
    if (v == null) {
      return 0;
    }
    try {
      return Integer.parseInt(v);
    } catch (NumberFormatException e) {
      violations.add(new FieldViolation(name, "must be an integer"));
      return 0;
    }
  }

  /** {@code true} or {@code false}, in any case; false when absent. */
  boolean flag(String name) {
    String v = values.get(name);
    if (v == null || v.equalsIgnoreCase("false")) {
      return false;
    }
    if (!v.equalsIgnoreCase("true")) {
      violations.add(new FieldViolation(name, "must be true or false"));
    }
    return v.equalsIgnoreCase("true");
  }

  /** An RFC 3339 time, or null when absent. */
  @Nullable
  Timestamp timestamp(String name) {
    String v = values.get(name);
    if (v == null) {
      return null;
    }
    String problem = JsonFieldCheck.timestampProblem(v);
    if (problem != null) {
      violations.add(new FieldViolation(name, problem));
      return null;
    }
    try {
      return Timestamps.parse(v);
    } catch (ParseException e) {
      violations.add(new FieldViolation(name, "must be an RFC 3339 time"));
      return null;
    }
  }

  /** A job state by its short name ({@code pending}) or enum name; UNSPECIFIED when absent. */
  JobState state(String name) {
    String v = values.get(name);
    if (v == null) {
      return JobState.JOB_STATE_UNSPECIFIED;
    }
    String upper = v.toUpperCase(Locale.ROOT);
    for (JobState s : JobState.values()) {
      if (s != JobState.UNRECOGNIZED
          && s != JobState.JOB_STATE_UNSPECIFIED
          && (s.name().equals(upper) || s.name().equals("JOB_STATE_" + upper))) {
        return s;
      }
    }
    violations.add(
        new FieldViolation(name, "must be one of pending, running, succeeded, failed, cancelled"));
    return JobState.JOB_STATE_UNSPECIFIED;
  }

  /**
   * Runs a read-only call built from these parameters, reporting every bad parameter in one answer:
   * when some failed to parse, the call still runs (with those parameters left at their defaults)
   * so that the problems only the core finds, such as a page size out of range, are listed too.
   *
   * @throws ValidationException naming every bad parameter, the core's findings included
   */
  <T> T checkedWith(Supplier<T> readOnlyCall) {
    if (violations.isEmpty()) {
      return readOnlyCall.get();
    }
    List<FieldViolation> all = new ArrayList<>(violations);
    try {
      readOnlyCall.get();
    } catch (ValidationException e) {
      for (FieldViolation v : e.violations()) {
        if (all.stream().noneMatch(seen -> seen.field().equals(v.field()))) {
          all.add(v);
        }
      }
    } catch (RuntimeException e) {
      // The parameters' own problems are the answer.
    }
    throw new ValidationException(all);
  }

  /**
   * @throws ValidationException naming every bad parameter seen so far
   */
  void check() {
    if (!violations.isEmpty()) {
      throw new ValidationException(violations);
    }
  }
}
