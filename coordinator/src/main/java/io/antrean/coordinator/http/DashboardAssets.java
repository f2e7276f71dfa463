package io.antrean.coordinator.http;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Serves the web dashboard: {@code GET /} is its page, {@code GET /dashboard/{name}} its script and
 * style sheet. The files are classpath resources under {@code dashboard/}, read once at start; only
 * the names in {@link #FILES} are served, so no path from a request ever reaches the class loader
 * (no traversal) and any other name is 404 {@code ENDPOINT_NOT_FOUND}.
 *
 * <p>Every answer carries a strong {@code ETag} and {@code Cache-Control: no-cache}: a browser may
 * keep a copy but revalidates it, and gets 304 while the coordinator runs the same build. The page
 * sets a content security policy that allows only this origin's scripts, styles and API calls. The
 * dashboard reads only the public JSON API. Thread-safe (immutable after construction).
 */
final class DashboardAssets {
  private static final List<String> FILES =
      List.of(
          "index.html",
          "app.css",
          "lib.js",
          "queues.js",
          "dead-letters.js",
          "jobs.js",
          "workers.js",
          "schedules.js",
          "app.js");
  private static final Map<String, String> TYPES =
      Map.of(
          "html", "text/html; charset=utf-8",
          "js", "text/javascript; charset=utf-8",
          "css", "text/css; charset=utf-8");
  private static final String POLICY =
      "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src"
          + " 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

  private record Asset(String contentType, byte[] body, String etag) {}

  private final Map<String, Asset> assets;

  DashboardAssets() {
    Map<String, Asset> loaded = new HashMap<>();
    for (String name : FILES) {
      byte[] body = read(name);
      String type = TYPES.get(name.substring(name.lastIndexOf('.') + 1));
      loaded.put(name, new Asset(type, body, etag(body)));
    }
    this.assets = Map.copyOf(loaded);
  }

  void addTo(Router router) {
    router
        .add("GET", "/", call -> serve(call, "index.html"))
        .add("GET", "/dashboard/{name}", call -> serve(call, call.pathParam()));
  }

  private void serve(HttpCall call, String name) throws IOException {
    call.query(Set.of()).check();
    Asset asset = assets.get(name);
    if (asset == null) {
      throw HttpProblem.endpointNotFound();
    }
    Map<String, String> headers =
        Map.of(
            "Cache-Control", "no-cache",
            "ETag", asset.etag(),
            "X-Content-Type-Options", "nosniff",
            "Content-Security-Policy", POLICY,
            "Referrer-Policy", "no-referrer");
    String ifNoneMatch = call.requestHeader("If-None-Match");
    if (ifNoneMatch != null && ifNoneMatch.contains(asset.etag())) {
      call.send(304, asset.contentType(), headers, new byte[0]);
    } else {
      call.send(200, asset.contentType(), headers, asset.body());
    }
  }

  private static byte[] read(String name) {
    try (InputStream in = DashboardAssets.class.getResourceAsStream("/dashboard/" + name)) {
      if (in == null) {
        throw new IllegalStateException("dashboard resource missing from the build: " + name);
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read dashboard resource " + name, e);
    }
  }

  private static String etag(byte[] body) {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(body);
      return "\"" + HexFormat.of().formatHex(digest, 0, 12) + "\"";
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every JDK", e);
    }
  }
}
