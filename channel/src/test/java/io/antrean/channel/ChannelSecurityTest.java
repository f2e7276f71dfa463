package io.antrean.channel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ChannelSecurityTest {
  @TempDir Path dir;

  @Test
  void theTokenFileWinsOverTheEnvironmentAndNeitherIsShown() throws Exception {
    Path file = dir.resolve("t");
    Files.writeString(file, "antrean_from-file\n");

    ChannelSecurity fromFile =
        ChannelSecurity.of(null, null, null, file, Map.of(ChannelSecurity.TOKEN_ENV, "env"));
    ChannelSecurity fromEnv =
        ChannelSecurity.of(null, null, null, null, Map.of(ChannelSecurity.TOKEN_ENV, "antrean_e"));

    assertThat(fromFile.toString()).contains("token=set").doesNotContain("from-file");
    assertThat(fromEnv.toString()).contains("token=set").doesNotContain("antrean_e");
    assertThat(ChannelSecurity.of(null, null, null, null, Map.of()).toString())
        .contains("token=none")
        .contains("tls=false");
  }

  @Test
  void aClientCertificateNeedsItsKeyAndACa() {
    Path any = dir.resolve("x.pem");
    assertThatThrownBy(() -> ChannelSecurity.of(any, any, null, null, Map.of()))
        .hasMessageContaining("--tls-cert and --tls-key go together");
    assertThatThrownBy(() -> ChannelSecurity.of(null, any, any, null, Map.of()))
        .hasMessageContaining("--tls-cert needs --tls-ca");
    assertThatThrownBy(() -> ChannelSecurity.of(null, null, null, dir.resolve("missing"), Map.of()))
        .hasMessageContaining("cannot read --token-file");
  }
}
