package io.antrean.coordinator.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ExposureCheckTest {

  @Test
  void loopbackMayRunOpenAsTheDevMode() {
    assertThat(ExposureCheck.check(false, false, false, "127.0.0.1", "localhost", "::1"))
        .isEqualTo(ExposureCheck.Verdict.LOOPBACK_DEV_MODE);
  }

  @Test
  void anyOtherAddressWithoutTlsOrAuthenticationIsRefused() {
    assertThatThrownBy(() -> ExposureCheck.check(false, false, false, "0.0.0.0", "127.0.0.1"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("refusing to listen on 0.0.0.0")
        .hasMessageContaining("--insecure");
    assertThatThrownBy(() -> ExposureCheck.check(true, false, false, "127.0.0.1", "0.0.0.0"))
        .hasMessageContaining("authentication (--token-file)");
    assertThatThrownBy(() -> ExposureCheck.check(false, true, false, "0.0.0.0", null))
        .hasMessageContaining("TLS (--tls-cert, --tls-key)");
  }

  @Test
  void insecureExposesAndTlsWithAuthenticationIsSecure() {
    assertThat(ExposureCheck.check(false, false, true, "0.0.0.0"))
        .isEqualTo(ExposureCheck.Verdict.EXPOSED_INSECURE);
    assertThat(ExposureCheck.check(true, true, false, "0.0.0.0"))
        .isEqualTo(ExposureCheck.Verdict.SECURE);
  }
}
