package io.antrean.it;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** Reads one series of a coordinator's Prometheus page. */
final class MetricsScrape {
  // One client, so polls reuse its connections: a client per scrape left one open each, and a
  // test polling every few milliseconds met the coordinator's limit of open HTTP connections.
  private static final HttpClient CLIENT = HttpClient.newHttpClient();

  private MetricsScrape() {}

  /**
   * The value of {@code series} (the metric with its labels, as the page writes it) on the
   * coordinator whose HTTP server is at {@code httpBase}; 0 while the page has no such line.
   */
  static double value(String httpBase, String series) throws Exception {
    HttpResponse<String> metrics =
        CLIENT.send(
            HttpRequest.newBuilder(URI.create(httpBase + "/metrics"))
                .timeout(Duration.ofSeconds(10))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    return metrics
        .body()
        .lines()
        .filter(l -> l.startsWith(series + " "))
        .mapToDouble(l -> Double.parseDouble(l.substring(series.length() + 1).trim()))
        .findFirst()
        .orElse(0);
  }
}
