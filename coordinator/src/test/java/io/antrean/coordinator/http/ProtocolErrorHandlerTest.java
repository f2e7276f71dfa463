package io.antrean.coordinator.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.antrean.coordinator.http.ErrorBodies.ErrorBody;
import java.nio.charset.StandardCharsets;
import org.eclipse.jetty.http.HttpException;
import org.junit.jupiter.api.Test;

/** The answers for refusals that never reach a route, where no socket can provoke them. */
class ProtocolErrorHandlerTest {

  @Test
  void aFailureOutsideTheRouterIsAGeneric500WithNothingOfTheException() {
    ErrorBody body =
        ProtocolErrorHandler.bodyFor(
            500, null, new IllegalStateException("secret table at /var/lib/antrean broke"));

    assertThat(body.status()).isEqualTo(500);
    assertThat(body.code()).isEqualTo("INTERNAL");
    assertThat(new String(body.json(), StandardCharsets.UTF_8))
        .doesNotContain("secret", "/var/lib", "IllegalStateException", "java.");
  }

  @Test
  void aServerReasonIsPassedOnOnlyWhenItIsTheServersOwnText() {
    ErrorBody fromServer =
        ProtocolErrorHandler.bodyFor(
            400, null, new HttpException.RuntimeException(400, "Invalid Content-Length Value"));
    assertThat(fromServer.message()).endsWith(": Invalid Content-Length Value");

    ErrorBody other =
        ProtocolErrorHandler.bodyFor(400, null, new IllegalArgumentException("internal detail"));
    assertThat(other.code()).isEqualTo("BAD_REQUEST");
    assertThat(other.message()).doesNotContain("internal detail");
  }
}
