package io.antrean.channel;

import io.grpc.ChannelLogger;
import io.grpc.ChannelLogger.ChannelLogLevel;
import io.grpc.EquivalentAddressGroup;
import io.grpc.NameResolver;
import io.grpc.Status;
import io.grpc.StatusOr;
import io.grpc.SynchronizationContext;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executor;

/**
 * Resolves a fixed list of coordinator addresses. Each host is looked up on the channel's offload
 * executor (never on the caller's or the channel's thread), and every IP address it has becomes its
 * own {@link EquivalentAddressGroup}, so round-robin treats each as a separate coordinator. The
 * channel calls {@link #refresh()} when a connection fails, which looks every name up again; a name
 * that does not resolve is left out (and logged) as long as another one does.
 *
 * <p>Not thread-safe by itself: the channel calls it, and it calls the listener, only inside the
 * channel's {@link SynchronizationContext}.
 */
final class AddressListResolver extends NameResolver {
  private final List<HostPort> addresses;
  private final SynchronizationContext syncContext;
  private final Executor offloadExecutor;
  private final ChannelLogger logger;

  // Read and written only inside syncContext.
  private Listener2 listener;
  private boolean resolving;
  private boolean shutdown;

  AddressListResolver(List<HostPort> addresses, Args args) {
    if (addresses.isEmpty()) {
      throw new IllegalArgumentException("no coordinator address to resolve");
    }
    this.addresses = List.copyOf(addresses);
    this.syncContext = args.getSynchronizationContext();
    Executor offload = args.getOffloadExecutor();
    // The channel always supplies one; a hand-built Args may not, and then lookups run inline.
    this.offloadExecutor = offload != null ? offload : Runnable::run;
    this.logger = args.getChannelLogger();
  }

  /** The first address: what the {@code :authority} header and TLS host checks use. */
  @Override
  public String getServiceAuthority() {
    return addresses.get(0).toString();
  }

  @Override
  public void start(Listener2 listener) {
    if (this.listener != null) {
      throw new IllegalStateException("already started");
    }
    this.listener = listener;
    resolve();
  }

  @Override
  public void refresh() {
    if (listener != null) {
      resolve();
    }
  }

  @Override
  public void shutdown() {
    shutdown = true;
  }

  private void resolve() {
    if (resolving || shutdown) {
      return;
    }
    resolving = true;
    offloadExecutor.execute(
        () -> {
          Lookup lookup = lookUp(addresses);
          syncContext.execute(() -> deliver(lookup));
        });
  }

  private void deliver(Lookup lookup) {
    resolving = false;
    if (shutdown) {
      return;
    }
    if (lookup.groups().isEmpty()) {
      listener.onError(
          Status.UNAVAILABLE.withDescription(
              "no coordinator address resolved: " + String.join("; ", lookup.failures())));
      return;
    }
    for (String failure : lookup.failures()) {
      logger.log(ChannelLogLevel.WARNING, "coordinator address left out: {0}", failure);
    }
    listener.onResult2(
        ResolutionResult.newBuilder()
            .setAddressesOrError(StatusOr.fromValue(lookup.groups()))
            .build());
  }

  /** Blocking name lookups; runs on the offload executor. */
  private static Lookup lookUp(List<HostPort> addresses) {
    Set<InetSocketAddress> resolved = new LinkedHashSet<>();
    List<String> failures = new ArrayList<>();
    for (HostPort address : addresses) {
      try {
        for (InetAddress ip : InetAddress.getAllByName(address.host())) {
          resolved.add(new InetSocketAddress(ip, address.port()));
        }
      } catch (UnknownHostException e) {
        failures.add(address + " (unknown host)");
      }
    }
    List<EquivalentAddressGroup> groups = new ArrayList<>(resolved.size());
    for (InetSocketAddress socketAddress : resolved) {
      groups.add(new EquivalentAddressGroup(socketAddress));
    }
    return new Lookup(List.copyOf(groups), List.copyOf(failures));
  }

  private record Lookup(List<EquivalentAddressGroup> groups, List<String> failures) {}
}
