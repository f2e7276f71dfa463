package io.antrean.channel;

import io.grpc.NameResolverRegistry;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * What a user wrote as the coordinator target, turned into the string gRPC resolves.
 *
 * <ul>
 *   <li>{@code host:port}: gRPC's own DNS resolver, {@code dns:///host:port}.
 *   <li>{@code h1:p1,h2:p2,...} (or {@code antrean-static:///h1:p1,h2:p2}): the {@link
 *       AddressListResolverProvider#SCHEME} resolver, which needs a channel-local registry ({@link
 *       #addressList()} is true).
 *   <li>Any other {@code scheme:/...} target gRPC has a resolver for, such as {@code
 *       dns:///coordinators.internal:7400}: passed through unchanged.
 * </ul>
 *
 * @param grpcTarget the target string for the channel builder
 * @param addressList whether the target needs the address-list resolver
 */
record ChannelTarget(String grpcTarget, boolean addressList) {
  /** {@code scheme:/}, the start of a URI target; {@code host:7400} never matches. */
  private static final Pattern URI_TARGET = Pattern.compile("[A-Za-z][A-Za-z0-9+.-]*:/.*");

  /** A dns target must end in a port, or gRPC would quietly use the transport's default. */
  private static final Pattern DNS_WITH_PORT = Pattern.compile("dns:.*/[^/]+:[0-9]{1,5}");

  private static final String LIST_PREFIX = AddressListResolverProvider.SCHEME + ":///";
  private static final String FORMS = "HOST:PORT, a comma-separated list, or dns:///name:port";

  /**
   * Reads {@code targets}.
   *
   * @throws IllegalArgumentException naming the bad entry, the unknown scheme, or a blank target
   */
  static ChannelTarget parse(String targets) {
    if (targets == null || targets.isBlank()) {
      throw new IllegalArgumentException("no coordinator address given: use " + FORMS);
    }
    String target = targets.strip();
    if (target.startsWith(LIST_PREFIX)) {
      return listOf(HostPort.parseList(target.substring(LIST_PREFIX.length())));
    }
    if (!URI_TARGET.matcher(target).matches()) {
      return listOf(HostPort.parseList(target));
    }
    String scheme = target.substring(0, target.indexOf(':')).toLowerCase(Locale.ROOT);
    // gRPC looks schemes up as written; URI schemes are case-insensitive.
    target = scheme + target.substring(scheme.length());
    if (target.contains(",")) {
      throw new IllegalArgumentException(
          "bad coordinator target '"
              + target
              + "': a "
              + scheme
              + ": target names one name; list several addresses without a scheme, as"
              + " h1:7400,h2:7400");
    }
    if (NameResolverRegistry.getDefaultRegistry().getProviderForScheme(scheme) == null) {
      throw new IllegalArgumentException(
          "bad coordinator target '" + target + "': unknown scheme " + scheme + "; use " + FORMS);
    }
    if (scheme.equals("dns") && !DNS_WITH_PORT.matcher(target).matches()) {
      throw new IllegalArgumentException(
          "bad coordinator target '" + target + "': give the port, as dns:///name:7400");
    }
    return new ChannelTarget(target, false);
  }

  private static ChannelTarget listOf(List<HostPort> addresses) {
    if (addresses.size() > 1) {
      return new ChannelTarget(AddressListResolverProvider.target(addresses), true);
    }
    try {
      // The URI constructor quotes what a path may not hold, such as IPv6 brackets.
      String dns = new URI("dns", "", "/" + addresses.get(0), null, null).toString();
      return new ChannelTarget(dns, false);
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException("bad coordinator address " + addresses.get(0), e);
    }
  }
}
