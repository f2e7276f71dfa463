package io.antrean.channel;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * One coordinator address, {@code host:port} or {@code [ipv6]:port}, and the parser of a
 * comma-separated list of them. The host is checked for shape only; it is resolved later, off the
 * caller's thread.
 */
record HostPort(String host, int port) {
  /** Letters, digits, dots, hyphens and underscores: host names and IPv4 literals. */
  private static final Pattern HOST = Pattern.compile("[A-Za-z0-9._-]+");

  private static final Pattern IPV6 = Pattern.compile("[0-9A-Fa-f:.]+(%[A-Za-z0-9._-]+)?");
  private static final Pattern DIGITS = Pattern.compile("[0-9]{1,5}");

  /**
   * Parses {@code list}, entries separated by commas, blanks around them ignored.
   *
   * @throws IllegalArgumentException naming the first bad or repeated entry
   */
  static List<HostPort> parseList(String list) {
    String[] entries = list.split(",", -1);
    List<HostPort> parsed = new ArrayList<>(entries.length);
    Set<HostPort> seen = new HashSet<>();
    for (int i = 0; i < entries.length; i++) {
      HostPort address = parse(entries[i].strip(), i + 1, list);
      if (!seen.add(address)) {
        throw bad(list, i + 1, entries[i].strip(), "it is listed twice");
      }
      parsed.add(address);
    }
    return List.copyOf(parsed);
  }

  private static HostPort parse(String entry, int position, String list) {
    if (entry.isEmpty()) {
      throw bad(list, position, entry, "it is empty");
    }
    int colon = entry.lastIndexOf(':');
    String host = colon < 0 ? entry : entry.substring(0, colon);
    if (colon < 0 || (host.startsWith("[") != host.endsWith("]"))) {
      throw bad(list, position, entry, "it must be HOST:PORT");
    }
    if (host.startsWith("[")) {
      host = host.substring(1, host.length() - 1);
      if (!IPV6.matcher(host).matches() || !host.contains(":")) {
        throw bad(list, position, entry, "the bracketed host is not an IPv6 address");
      }
    } else if (host.isEmpty() || !HOST.matcher(host).matches()) {
      throw bad(
          list, position, entry, "the host must be a name or an IP address (IPv6 in brackets)");
    }
    String digits = entry.substring(colon + 1);
    int port = DIGITS.matcher(digits).matches() ? Integer.parseInt(digits) : -1;
    if (port < 1 || port > 65535) {
      throw bad(list, position, entry, "the port must be a number from 1 to 65535");
    }
    return new HostPort(host, port);
  }

  private static IllegalArgumentException bad(String list, int position, String entry, String why) {
    String where = list.contains(",") ? " (entry " + position + " of '" + list + "')" : "";
    return new IllegalArgumentException(
        "bad coordinator address '" + entry + "'" + where + ": " + why);
  }

  /** {@code host:port}, with the host in brackets when it is an IPv6 literal. */
  @Override
  public String toString() {
    return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
  }
}
