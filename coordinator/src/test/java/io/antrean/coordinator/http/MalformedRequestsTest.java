package io.antrean.coordinator.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Requests no HTTP client library would send, written byte for byte on a socket: every one is
 * answered with the JSON error shape, never HTML or a Java class name (issue 11, defect 7: {@code
 * /v1/jobs/%ZZ} was answered {@code <h1>400 Bad Request</h1>URISyntaxException thrown}).
 */
@Timeout(60)
class MalformedRequestsTest {
  @TempDir Path dir;
  private HttpApiFixture api;

  /** A raw answer: the status code, the header block and the body. */
  private record Answer(int status, String headers, String body) {
    Struct error(int expectedStatus, String code) throws Exception {
      assertThat(status).as(headers + body).isEqualTo(expectedStatus);
      assertThat(headers.toLowerCase(Locale.ROOT))
          .contains("content-type: application/json")
          .contains("x-content-type-options: nosniff");
      assertThat(body).doesNotContainIgnoringCase("<html").doesNotContain("<h1", "Exception");
      assertThat(body).doesNotContain("java.", "org.eclipse", "jetty", "Jetty");
      Struct parsed = HttpApiFixture.parse(body, Struct.newBuilder()).build();
      assertThat(parsed.getFieldsMap()).containsOnlyKeys("error");
      Struct error = parsed.getFieldsOrThrow("error").getStructValue();
      assertThat(error.getFieldsOrThrow("code").getStringValue()).isEqualTo(code);
      assertThat(error.getFieldsOrThrow("message").getStringValue()).isNotBlank();
      return error;
    }
  }

  @BeforeEach
  void start() throws Exception {
    api = new HttpApiFixture(dir);
  }

  @AfterEach
  void stop() {
    api.close();
  }

  @Test
  void aBadPercentEscapeInThePathIsA400InvalidUriNamingThePath() throws Exception {
    Answer answer = raw("GET /v1/jobs/%ZZ HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");

    Struct error = answer.error(400, "INVALID_URI");
    assertThat(fields(error)).containsExactly("path");
    assertThat(raw("GET /v1/jobs/% HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n").error(400, "INVALID_URI"))
        .satisfies(e -> assertThat(fields(e)).containsExactly("path"));
  }

  @Test
  void aPathThatIsNotValidUtf8OrIsAmbiguousIsNamedInTheAnswer() throws Exception {
    for (String path : List.of("/v1/jobs/%E9", "/v1/queues/a%2Fb:pause", "/v1//jobs")) {
      Struct error =
          raw("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n").error(400, "INVALID_URI");
      assertThat(fields(error)).as(path).containsExactly("path");
      assertThat(error.getFieldsOrThrow("message").getStringValue()).as(path).contains(path);
    }
  }

  @Test
  void aMalformedRequestLineIsA400InJson() throws Exception {
    raw("GARBAGE\r\n\r\n").error(400, "BAD_REQUEST");
    raw("G(T /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n").error(400, "BAD_REQUEST");
    raw("GET /healthz HTTP/9.9\r\nHost: 127.0.0.1\r\n\r\n")
        .error(400, "HTTP_VERSION_NOT_SUPPORTED");
    raw("POST /v1/jobs HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: ten\r\n\r\n")
        .error(400, "BAD_REQUEST");
  }

  @Test
  void anOversizedHeaderIsA431InJson() throws Exception {
    String header = "X-Padding: " + "a".repeat(64 * 1024) + "\r\n";
    raw("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n" + header + "\r\n")
        .error(431, "HEADERS_TOO_LARGE");
  }

  @Test
  void anUnknownMethodIsA405InJsonWithAllow() throws Exception {
    Answer answer = raw("BREW /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");

    answer.error(405, "METHOD_NOT_ALLOWED");
    assertThat(answer.headers()).containsIgnoringCase("Allow: GET, HEAD");
  }

  @Test
  void theServerAnswersWellFormedRequestsAfterMalformedOnes() throws Exception {
    raw("GET /v1/jobs/%ZZ HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n").error(400, "INVALID_URI");
    Answer health = raw("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    assertThat(health.status()).isEqualTo(200);
    assertThat(health.headers()).doesNotContainIgnoringCase("Server:");
  }

  private static List<String> fields(Struct error) {
    return error.getFieldsOrThrow("details").getListValue().getValuesList().stream()
        .map(Value::getStructValue)
        .map(d -> d.getFieldsOrThrow("field").getStringValue())
        .toList();
  }

  /** Writes the bytes as they are, with {@code Connection: close} semantics, and reads it all. */
  private Answer raw(String request) throws IOException {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress("127.0.0.1", api.coordinator.httpPort()), 5_000);
      s.setSoTimeout(10_000);
      s.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
      s.shutdownOutput();
      String text = new String(s.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      int end = text.indexOf("\r\n\r\n");
      assertThat(end).as(text).isPositive();
      int status = Integer.parseInt(text.substring(9, 12));
      return new Answer(status, text.substring(0, end + 2), text.substring(end + 4));
    }
  }
}
