package io.antrean.channel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** How targets are read, and that a bad one is refused naming the bad entry. */
class ChannelTargetTest {

  @Test
  void aSingleHostPortGoesToGrpcsDnsResolver() {
    assertThat(ChannelTarget.parse("coordinator:7400"))
        .isEqualTo(new ChannelTarget("dns:///coordinator:7400", false));
    assertThat(ChannelTarget.parse(" 127.0.0.1:7400 ").grpcTarget())
        .isEqualTo("dns:///127.0.0.1:7400");
  }

  @Test
  void aSingleIpv6LiteralIsQuotedSoItParsesAsAUri() {
    String target = ChannelTarget.parse("[::1]:7400").grpcTarget();

    assertThat(URI.create(target).getPath()).isEqualTo("/[::1]:7400");
  }

  @Test
  void aCommaSeparatedListGoesToTheAddressListResolver() {
    ChannelTarget target = ChannelTarget.parse("a.internal:7400, 10.0.0.2:7401 ,[fd00::3]:7402");

    assertThat(target.addressList()).isTrue();
    URI uri = URI.create(target.grpcTarget());
    assertThat(uri.getScheme()).isEqualTo(AddressListResolverProvider.SCHEME);
    assertThat(HostPort.parseList(uri.getPath().substring(1)))
        .containsExactly(
            new HostPort("a.internal", 7400),
            new HostPort("10.0.0.2", 7401),
            new HostPort("fd00::3", 7402));
  }

  @Test
  void theAddressListSchemeMayBeWrittenOut() {
    assertThat(ChannelTarget.parse("antrean-static:///a:1,b:2"))
        .isEqualTo(ChannelTarget.parse("a:1,b:2"));
  }

  @Test
  void targetsWithAKnownSchemePassThrough() {
    assertThat(ChannelTarget.parse("dns:///coordinators.internal:7400"))
        .isEqualTo(new ChannelTarget("dns:///coordinators.internal:7400", false));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '"',
      value = {
        "h1:7400,,h2:7400|'' (entry 2 of 'h1:7400,,h2:7400'): it is empty",
        "h1:7400,|'' (entry 2 of 'h1:7400,'): it is empty",
        "coordinator|'coordinator': it must be HOST:PORT",
        "h1:7400,h2|'h2' (entry 2 of 'h1:7400,h2'): it must be HOST:PORT",
        ":7400|':7400': the host must be",
        "h 1:7400|'h 1:7400': the host must be",
        "::1:7400|'::1:7400': the host must be",
        "[zz]:7400|'[zz]:7400': the bracketed host is not an IPv6 address",
        "[::1:7400|'[::1:7400': it must be HOST:PORT",
        "h1:0|'h1:0': the port must be a number from 1 to 65535",
        "h1:65536|'h1:65536': the port must be",
        "h1:http|'h1:http': the port must be",
        "h1:-1|'h1:-1': the port must be",
        "h1:7400,h1:7400|'h1:7400' (entry 2 of 'h1:7400,h1:7400'): it is listed twice",
        "antrean-static:///h1:7400,x|'x' (entry 2 of 'h1:7400,x'): it must be HOST:PORT",
      })
  void aBadAddressIsRefusedNamingIt(String targets, String message) {
    assertThatThrownBy(() -> ChannelTarget.parse(targets))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("bad coordinator address ")
        .hasMessageContaining(message);
  }

  @Test
  void blankTargetsAreRefusedListingTheForms() {
    for (String blank : List.of("", "   ")) {
      assertThatThrownBy(() -> ChannelTarget.parse(blank))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("HOST:PORT, a comma-separated list, or dns:///name:port");
    }
  }

  @Test
  void aSchemeTargetWithACommaIsRefused() {
    assertThatThrownBy(() -> ChannelTarget.parse("dns:///a:7400,b:7400"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'dns:///a:7400,b:7400'")
        .hasMessageContaining("h1:7400,h2:7400");
  }

  @Test
  void aSchemeIsReadWhateverItsCase() {
    assertThat(ChannelTarget.parse("DNS:///coordinators.internal:7400").grpcTarget())
        .isEqualTo("dns:///coordinators.internal:7400");
  }

  @Test
  void aDnsTargetWithoutAPortIsRefused() {
    assertThatThrownBy(() -> ChannelTarget.parse("dns:///coordinators.internal"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'dns:///coordinators.internal'")
        .hasMessageContaining("give the port");
    assertThat(ChannelTarget.parse("dns://10.0.0.53/coordinators.internal:7400").grpcTarget())
        .isEqualTo("dns://10.0.0.53/coordinators.internal:7400");
  }

  @Test
  void anUnknownSchemeIsRefused() {
    assertThatThrownBy(() -> ChannelTarget.parse("consul:///coordinators"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("unknown scheme consul");
  }

  @Test
  void openValidatesBeforeAnyChannelExists() {
    assertThatThrownBy(() -> CoordinatorChannels.open("h1:7400,h2"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'h2'");
    assertThatThrownBy(() -> CoordinatorChannels.forTargets(null))
        .isInstanceOf(NullPointerException.class);
  }
}
