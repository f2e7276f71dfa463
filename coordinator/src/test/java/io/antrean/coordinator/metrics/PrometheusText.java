package io.antrean.coordinator.metrics;

import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * A strict parser of the Prometheus text exposition format (0.0.4), for tests: every line must be a
 * comment, a {@code # HELP}/{@code # TYPE} line or a well-formed sample, and every sample must
 * belong to a family declared by a {@code # TYPE} line before it. Samples are keyed by their name
 * and sorted labels: {@code name{a="x",b="y"}}.
 */
final class PrometheusText {
  private final Map<String, String> types = new HashMap<>();
  private final Map<String, Double> samples = new HashMap<>();

  static PrometheusText parse(String text) {
    PrometheusText p = new PrometheusText();
    int lineNo = 0;
    for (String line : text.split("\n", -1)) {
      lineNo++;
      if (line.isEmpty()) {
        continue;
      }
      try {
        p.line(line);
      } catch (RuntimeException e) {
        throw new AssertionError("line " + lineNo + " is not Prometheus text: " + line, e);
      }
    }
    return p;
  }

  private void line(String line) {
    if (line.startsWith("# TYPE ")) {
      String[] parts = line.substring(7).split(" ");
      if (parts.length != 2 || !parts[0].matches("[a-zA-Z_:][a-zA-Z0-9_:]*")) {
        throw new IllegalArgumentException("bad TYPE");
      }
      types.put(parts[0], parts[1]);
      return;
    }
    if (line.startsWith("#")) {
      return;
    }
    int at = 0;
    while (at < line.length()
        && (Character.isLetterOrDigit(line.charAt(at)) || "_:".indexOf(line.charAt(at)) >= 0)) {
      at++;
    }
    String name = line.substring(0, at);
    if (name.isEmpty() || Character.isDigit(name.charAt(0))) {
      throw new IllegalArgumentException("bad metric name");
    }
    TreeMap<String, String> labels = new TreeMap<>();
    if (at < line.length() && line.charAt(at) == '{') {
      at = labels(line, at + 1, labels);
    }
    if (at >= line.length() || line.charAt(at) != ' ') {
      throw new IllegalArgumentException("no value");
    }
    String[] rest = line.substring(at + 1).split(" ");
    double value = number(rest[0]);
    if (family(name) == null) {
      throw new IllegalArgumentException("sample of an undeclared family: " + name);
    }
    if (samples.put(key(name, labels), value) != null) {
      throw new IllegalArgumentException("duplicate sample");
    }
  }

  private static int labels(String line, int at, TreeMap<String, String> labels) {
    while (line.charAt(at) != '}') {
      int eq = line.indexOf('=', at);
      String label = line.substring(at, eq);
      if (!label.matches("[a-zA-Z_][a-zA-Z0-9_]*") || line.charAt(eq + 1) != '"') {
        throw new IllegalArgumentException("bad label");
      }
      StringBuilder value = new StringBuilder();
      int i = eq + 2;
      for (; line.charAt(i) != '"'; i++) {
        char c = line.charAt(i);
        if (c == '\\') {
          char next = line.charAt(++i);
          value.append(next == 'n' ? '\n' : next);
        } else {
          value.append(c);
        }
      }
      labels.put(label, value.toString());
      at = i + 1;
      if (line.charAt(at) == ',') {
        at++;
      }
    }
    return at + 1;
  }

  private static double number(String s) {
    return switch (s) {
      case "+Inf" -> Double.POSITIVE_INFINITY;
      case "-Inf" -> Double.NEGATIVE_INFINITY;
      case "NaN" -> Double.NaN;
      default -> Double.parseDouble(s);
    };
  }

  private String family(String sample) {
    if (types.containsKey(sample)) {
      return sample;
    }
    for (String suffix : new String[] {"_bucket", "_sum", "_count", "_total"}) {
      if (sample.endsWith(suffix)) {
        String base = sample.substring(0, sample.length() - suffix.length());
        if (types.containsKey(base)) {
          return base;
        }
      }
    }
    return null;
  }

  private static String key(String name, Map<String, String> labels) {
    StringBuilder sb = new StringBuilder(name);
    if (!labels.isEmpty()) {
      sb.append('{');
      labels.forEach((k, v) -> sb.append(k).append("=\"").append(v).append("\","));
      sb.setLength(sb.length() - 1);
      sb.append('}');
    }
    return sb.toString();
  }

  /** The TYPE declared for a family, or null. */
  String type(String family) {
    return types.get(family);
  }

  /**
   * A sample's value, or null when absent.
   *
   * @param labels name, value, name, value...
   */
  Double value(String name, String... labels) {
    TreeMap<String, String> map = new TreeMap<>();
    for (int i = 0; i < labels.length; i += 2) {
      map.put(labels[i], labels[i + 1]);
    }
    return samples.get(key(name, map));
  }

  /** Whether any sample of this name exists. */
  boolean has(String name) {
    return samples.keySet().stream().anyMatch(k -> k.equals(name) || k.startsWith(name + "{"));
  }
}
