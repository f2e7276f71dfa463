package io.antrean.channel;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.ChannelLogger;
import io.grpc.EquivalentAddressGroup;
import io.grpc.NameResolver;
import io.grpc.NameResolver.ResolutionResult;
import io.grpc.Status;
import io.grpc.SynchronizationContext;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The address-list resolver on its own, with lookups run inline. */
@Timeout(30)
class AddressListResolverTest {
  private final SynchronizationContext syncContext =
      new SynchronizationContext(
          (thread, error) -> {
            throw new AssertionError("uncaught in the synchronization context", error);
          });
  private final List<String> warnings = new CopyOnWriteArrayList<>();
  private final Recorder listener = new Recorder();

  @Test
  void everyAddressBecomesItsOwnGroup() {
    NameResolver resolver = resolver("antrean-static:///127.0.0.1:7400,127.0.0.2:7401");

    syncContext.execute(() -> resolver.start(listener));

    assertThat(listener.results).hasSize(1);
    assertThat(addressesOf(listener.results.get(0)))
        .containsExactly(
            new InetSocketAddress("127.0.0.1", 7400), new InetSocketAddress("127.0.0.2", 7401));
    assertThat(resolver.getServiceAuthority()).isEqualTo("127.0.0.1:7400");
  }

  @Test
  void refreshLooksTheNamesUpAgainUntilShutdown() {
    NameResolver resolver = resolver("antrean-static:///localhost:7400,127.0.0.2:7401");
    syncContext.execute(() -> resolver.start(listener));

    syncContext.execute(resolver::refresh);
    syncContext.execute(resolver::shutdown);
    syncContext.execute(resolver::refresh);

    assertThat(listener.results).hasSize(2);
    assertThat(addressesOf(listener.results.get(1)))
        .contains(new InetSocketAddress("127.0.0.2", 7401));
  }

  @Test
  void anUnknownHostIsLeftOutAndLoggedWhileAnotherResolves() {
    NameResolver resolver = resolver("antrean-static:///no-such-host.invalid:7400,127.0.0.1:7401");

    syncContext.execute(() -> resolver.start(listener));

    assertThat(addressesOf(listener.results.get(0)))
        .containsExactly(new InetSocketAddress("127.0.0.1", 7401));
    assertThat(warnings).singleElement().asString().contains("no-such-host.invalid:7400");
  }

  @Test
  void noResolvableHostIsAnUnavailableError() {
    NameResolver resolver = resolver("antrean-static:///no-such-host.invalid:7400");

    syncContext.execute(() -> resolver.start(listener));

    assertThat(listener.results).isEmpty();
    assertThat(listener.errors)
        .singleElement()
        .satisfies(
            s -> {
              assertThat(s.getCode()).isEqualTo(Status.Code.UNAVAILABLE);
              assertThat(s.getDescription()).contains("no-such-host.invalid:7400");
            });
  }

  @Test
  void theProviderIgnoresOtherSchemes() {
    assertThat(
            new AddressListResolverProvider()
                .newNameResolver(URI.create("dns:///localhost:7400"), args()))
        .isNull();
  }

  private NameResolver resolver(String target) {
    return new AddressListResolverProvider().newNameResolver(URI.create(target), args());
  }

  private NameResolver.Args args() {
    return NameResolver.Args.newBuilder()
        .setDefaultPort(7400)
        .setProxyDetector(address -> null)
        .setSynchronizationContext(syncContext)
        .setServiceConfigParser(
            new NameResolver.ServiceConfigParser() {
              @Override
              public NameResolver.ConfigOrError parseServiceConfig(java.util.Map<String, ?> raw) {
                return NameResolver.ConfigOrError.fromConfig(raw);
              }
            })
        .setChannelLogger(
            new ChannelLogger() {
              @Override
              public void log(ChannelLogLevel level, String message) {
                if (level == ChannelLogLevel.WARNING) {
                  warnings.add(message);
                }
              }

              @Override
              public void log(ChannelLogLevel level, String format, Object... args) {
                log(level, java.text.MessageFormat.format(format, args));
              }
            })
        .build();
  }

  private static List<SocketAddress> addressesOf(ResolutionResult result) {
    List<SocketAddress> addresses = new ArrayList<>();
    for (EquivalentAddressGroup group : result.getAddressesOrError().getValue()) {
      assertThat(group.getAddresses()).hasSize(1);
      addresses.addAll(group.getAddresses());
    }
    return addresses;
  }

  private static final class Recorder extends NameResolver.Listener2 {
    final List<ResolutionResult> results = new CopyOnWriteArrayList<>();
    final List<Status> errors = new CopyOnWriteArrayList<>();

    @Override
    public void onResult(ResolutionResult result) {
      results.add(result);
    }

    @Override
    public void onError(Status error) {
      errors.add(error);
    }
  }
}
