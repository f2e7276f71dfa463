package io.antrean.coordinator.fuzz;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.util.JsonFormat;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.Semaphore;

/**
 * Sends hostile requests to every HTTP route (random methods, path parameters, query parameters and
 * bodies: random JSON of the route's message, damaged JSON, bytes that are not UTF-8, oversized
 * bodies) and raw request lines a client library would refuse to send, keeping every 5xx answer.
 */
final class HttpFuzzer {
  /** A route template, its request message for bodies, and its query parameters. */
  record Route(String template, Descriptor body, List<String> params) {}

  private static final List<String> METHODS =
      List.of("GET", "GET", "POST", "POST", "HEAD", "PUT", "DELETE", "PATCH", "OPTIONS");

  private final String host;
  private final int port;
  private final Random random;
  private final RandomMessages messages;
  private final HttpClient client =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(5))
          .build();
  private final Semaphore inFlight = new Semaphore(12);
  private final List<String> faults = new ArrayList<>();
  private final List<String> transportErrors = new ArrayList<>();
  private int sent;

  HttpFuzzer(String host, int port, Random random) {
    this.host = host;
    this.port = port;
    this.random = random;
    this.messages = new RandomMessages(random);
  }

  void run(List<Route> routes, int count) throws InterruptedException {
    for (int i = 0; i < count; i++) {
      Route route = routes.get(random.nextInt(routes.size()));
      String method = METHODS.get(random.nextInt(METHODS.size()));
      String path = fill(route.template()) + query(route.params());
      send(method, path, body(route.body()));
    }
    drain();
  }

  private String fill(String template) {
    return template
        .replace("{id}", pathValue(true))
        .replace("{queue}", pathValue(false))
        .replace("{name}", random.nextBoolean() ? "app.js" : pathValue(false));
  }

  private String pathValue(boolean numeric) {
    String raw =
        numeric && random.nextBoolean() ? Long.toString(messages.number()) : messages.string();
    if (raw.length() > 2000) {
      raw = raw.substring(0, 2000);
    }
    return URLEncoder.encode(raw, StandardCharsets.UTF_8).replace("+", "%20");
  }

  private String query(List<String> params) {
    if (random.nextInt(3) == 0) {
      return "";
    }
    StringBuilder q = new StringBuilder("?");
    int n = 1 + random.nextInt(4);
    for (int i = 0; i < n; i++) {
      String name =
          params.isEmpty() || random.nextInt(5) == 0
              ? "p" + random.nextInt(3)
              : params.get(random.nextInt(params.size()));
      String value =
          switch (random.nextInt(4)) {
            case 0 -> Long.toString(messages.number());
            case 1 -> "2026-13-45T99:00:00Z";
            default -> pathValue(false);
          };
      q.append(i == 0 ? "" : "&").append(name).append('=').append(value);
    }
    return q.toString();
  }

  private byte[] body(Descriptor type) {
    switch (random.nextInt(10)) {
      case 0:
        return messages.bytes();
      case 1:
        return new byte[] {'{', '"', (byte) 0xff, '"', ':', '1', '}'};
      case 2:
        return new byte[0];
      default:
        break;
    }
    String json;
    try {
      json = JsonFormat.printer().print(messages.message(type));
    } catch (IOException | RuntimeException e) {
      json = "{\"type\":\"x\",\"delay\":\"315576000000s\",\"priority\":99999999999}";
    }
    if (json.length() > 3_000_000) {
      json = "{}";
    }
    if (random.nextInt(3) == 0) {
      json = damage(json);
    }
    return json.getBytes(StandardCharsets.UTF_8);
  }

  private String damage(String json) {
    StringBuilder sb = new StringBuilder(json);
    int at = sb.length() == 0 ? 0 : random.nextInt(sb.length());
    switch (random.nextInt(4)) {
      case 0 -> sb.insert(at, "99999999999999999999999");
      case 1 -> sb.setLength(at);
      case 2 -> sb.insert(at, "\"run_at\":\"0001-01-01T00:00:00Z\",");
      default -> sb.insert(at, (char) random.nextInt(128));
    }
    return sb.toString();
  }

  void send(String method, String path, byte[] body) throws InterruptedException {
    URI uri;
    try {
      uri = URI.create("http://" + host + ":" + port + path);
    } catch (IllegalArgumentException e) {
      return;
    }
    inFlight.acquire();
    synchronized (this) {
      sent++;
    }
    HttpRequest.BodyPublisher publisher =
        body.length == 0 || method.equals("GET") || method.equals("HEAD")
            ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofByteArray(body);
    HttpRequest request =
        HttpRequest.newBuilder(uri)
            .timeout(Duration.ofSeconds(20))
            .header("Content-Type", "application/json")
            .method(method, publisher)
            .build();
    client
        .sendAsync(request, HttpResponse.BodyHandlers.discarding())
        .whenComplete(
            (response, error) -> {
              try {
                String shown = method + " " + (path.length() > 100 ? path.substring(0, 100) : path);
                if (error != null) {
                  transportError(shown + " -> " + error);
                } else if (response.statusCode() >= 500) {
                  record(shown + " -> " + response.statusCode());
                }
              } finally {
                inFlight.release();
              }
            });
  }

  /**
   * Request lines and headers no client library sends; a 5xx status line, or an answer that is not
   * JSON, is a fault.
   */
  void sendRaw(int count) throws IOException {
    List<String> lines =
        List.of(
            "GET /v1/jobs/%ZZ HTTP/1.1",
            "GET /v1/jobs?queue=%ZZ HTTP/1.1",
            "GET /%%%%%%%% HTTP/1.1",
            "POST /v1/jobs HTTP/1.1\r\nContent-Length: -5",
            "POST /v1/jobs HTTP/1.1\r\nContent-Length: 99999999999999999999",
            "POST /v1/jobs HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz",
            "GET /v1/jobs/1 HTTP/9.9",
            "BREW /healthz HTTP/1.1",
            "GET /healthz HTTP/1.1\r\nX: " + "y".repeat(20_000),
            "GET " + "/a".repeat(5000) + " HTTP/1.1",
            "\u0000\u0001\u0002");
    for (int i = 0; i < count; i++) {
      String line = lines.get(random.nextInt(lines.size()));
      synchronized (this) {
        sent++;
      }
      String answer = exchange(line + "\r\nHost: x\r\nConnection: close\r\n\r\n");
      boolean json = answer.toLowerCase(Locale.ROOT).contains("content-type: application/json");
      if (answer.startsWith("HTTP/1.1 5") || (!answer.isEmpty() && !json)) {
        record(
            "raw "
                + line.substring(0, Math.min(80, line.length()))
                + " -> "
                + answer.lines().findFirst().orElse("")
                + (json ? "" : " (not JSON)"));
      }
    }
  }

  private String exchange(String request) throws IOException {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress(host, port), 5_000);
      s.setSoTimeout(15_000);
      OutputStream out = s.getOutputStream();
      out.write(request.getBytes(StandardCharsets.ISO_8859_1));
      out.flush();
      s.shutdownOutput();
      InputStream in = s.getInputStream();
      byte[] head = in.readNBytes(4096);
      return new String(head, StandardCharsets.ISO_8859_1);
    } catch (java.net.SocketException | java.net.SocketTimeoutException e) {
      return "";
    }
  }

  void drain() throws InterruptedException {
    inFlight.acquire(12);
    inFlight.release(12);
  }

  /** A request the client could not complete (connection closed, reset); not a server answer. */
  private synchronized void transportError(String error) {
    transportErrors.add(error.length() > 300 ? error.substring(0, 300) : error);
  }

  synchronized List<String> transportErrors() {
    return List.copyOf(transportErrors);
  }

  private synchronized void record(String fault) {
    faults.add(fault.length() > 300 ? fault.substring(0, 300) : fault);
  }

  synchronized List<String> faults() {
    return List.copyOf(faults);
  }

  synchronized int sent() {
    return sent;
  }
}
