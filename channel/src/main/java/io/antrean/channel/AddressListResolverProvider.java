package io.antrean.channel;

import io.grpc.NameResolver;
import io.grpc.NameResolverProvider;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Collection;
import java.util.List;

/**
 * The {@value #SCHEME} name-resolver scheme: {@code antrean-static:///h1:p1,h2:p2} names a fixed
 * list of coordinators, resolved by an {@link AddressListResolver}. {@link CoordinatorChannels}
 * registers it in a registry of its own for each channel; it is never added to gRPC's global
 * registry. Stateless and thread-safe.
 */
final class AddressListResolverProvider extends NameResolverProvider {
  /** The URI scheme of an address-list target. */
  static final String SCHEME = "antrean-static";

  /**
   * The target string for {@code addresses}. Characters a URI path may not hold (the brackets of
   * IPv6 literals) are percent-encoded; {@link URI#getPath()} decodes them again.
   */
  static String target(List<HostPort> addresses) {
    StringBuilder path = new StringBuilder("/");
    for (HostPort address : addresses) {
      path.append(path.length() > 1 ? "," : "").append(address);
    }
    try {
      return new URI(SCHEME, "", path.toString(), null, null).toString();
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException("cannot form a target from " + addresses, e);
    }
  }

  @Override
  public NameResolver newNameResolver(URI targetUri, NameResolver.Args args) {
    if (!SCHEME.equals(targetUri.getScheme())) {
      return null;
    }
    String path = targetUri.getPath();
    if (path == null || !path.startsWith("/")) {
      throw new IllegalArgumentException(
          "an " + SCHEME + " target is " + SCHEME + ":///HOST:PORT,HOST:PORT: " + targetUri);
    }
    return new AddressListResolver(HostPort.parseList(path.substring(1)), args);
  }

  @Override
  public String getDefaultScheme() {
    return SCHEME;
  }

  @Override
  protected boolean isAvailable() {
    return true;
  }

  @Override
  protected int priority() {
    return 5;
  }

  @Override
  public Collection<Class<? extends SocketAddress>> getProducedSocketAddressTypes() {
    return List.of(InetSocketAddress.class);
  }
}
