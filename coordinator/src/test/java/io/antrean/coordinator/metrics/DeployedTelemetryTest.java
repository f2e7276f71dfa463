package io.antrean.coordinator.metrics;

import static io.antrean.coordinator.http.HttpApiFixture.emailBody;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.antrean.coordinator.http.HttpApiFixture;
import io.antrean.proto.v1.Job;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * What operators deploy next to a coordinator: the JVM and process metrics in {@code /metrics}, the
 * alerting rules in {@code deploy/prometheus/alerts.yml} and the Grafana dashboard in {@code
 * deploy/grafana/antrean.json}, each naming only metrics a live coordinator exports; and {@code
 * promtool check rules} and {@code promtool check metrics} passing. The promtool tests are skipped
 * (an assumption) when promtool is not on the PATH; CI installs it (Debian's prometheus package).
 */
@Timeout(60)
class DeployedTelemetryTest {
  private static final Path DEPLOY = Path.of("..", "deploy").toAbsolutePath().normalize();
  private static final Path ALERTS = DEPLOY.resolve("prometheus/alerts.yml");
  private static final Path GRAFANA = DEPLOY.resolve("grafana/antrean.json");
  private static final Pattern METRIC_NAME =
      Pattern.compile("\\b((?:antrean|jvm|process)_[a-z_]+)\\b");

  @TempDir Path dir;
  private HttpApiFixture api;

  @BeforeEach
  void start() throws Exception {
    api = new HttpApiFixture(dir);
  }

  @AfterEach
  void stop() {
    api.close();
  }

  /** Runs jobs to success and to the dead-letter queue, so every family has samples. */
  private String liveScrape() throws Exception {
    for (int i = 0; i < 3; i++) {
      assertThat(api.post("/v1/jobs", emailBody("")).statusCode()).isEqualTo(201);
    }
    List<Job> leased = api.lease(3);
    leased.subList(0, 2).forEach(api::complete);
    api.failPermanently(leased.get(2));
    var response = api.get("/metrics");
    assertThat(response.statusCode()).isEqualTo(200);
    return response.body();
  }

  @Test
  void metricsIncludeTheStandardJvmAndProcessMetrics() throws Exception {
    Set<String> exported = exportedNames(liveScrape());

    assertThat(exported)
        .contains(
            "jvm_memory_used_bytes",
            "jvm_threads_current",
            "jvm_gc_collection_seconds_count",
            "process_cpu_seconds_total",
            "process_start_time_seconds");
  }

  @Test
  void alertsAndDashboardNameOnlyMetricsACoordinatorExports() throws Exception {
    Set<String> exported = exportedNames(liveScrape());

    Set<String> named = new TreeSet<>(namesIn(Files.readString(ALERTS)));
    named.addAll(namesIn(Files.readString(GRAFANA)));

    assertThat(named)
        .contains(
            "antrean_jobs_dead_lettered_total",
            "antrean_oldest_pending_age_seconds",
            "jvm_memory_used_bytes");
    assertThat(exported).containsAll(named);
    assertThat(Files.readString(ALERTS))
        .contains("alert: AntreanDeadLetterGrowth")
        .contains("alert: AntreanOldestPendingTooOld")
        .contains("alert: AntreanCoordinatorDown");
  }

  @Test
  void promtoolAcceptsTheAlertingRules() throws Exception {
    Path promtool = promtool();

    Result r = run(promtool.toString(), "check", "rules", ALERTS.toString());

    assertThat(r.exitCode()).as(r.output()).isZero();
    assertThat(r.output()).contains("SUCCESS: 5 rules found");
  }

  @Test
  void promtoolCheckMetricsFindsNoProblemInALiveScrape() throws Exception {
    Path promtool = promtool();
    Path scrape = dir.resolve("metrics.txt");
    Files.writeString(scrape, liveScrape());

    Result r = run(promtool.toString(), "check", "metrics", "<", scrape.toString());

    assertThat(r.exitCode()).as(r.output()).isZero();
  }

  private static Set<String> exportedNames(String text) {
    Set<String> names = new TreeSet<>();
    for (String line : text.split("\n")) {
      if (!line.isEmpty() && !line.startsWith("#")) {
        names.add(line.split("[{ ]", 2)[0]);
      }
    }
    return names;
  }

  private static Set<String> namesIn(String text) {
    Set<String> names = new TreeSet<>();
    Matcher m = METRIC_NAME.matcher(text);
    while (m.find()) {
      names.add(m.group(1));
    }
    return names;
  }

  private static Path promtool() {
    Optional<Path> found =
        Stream.of(Optional.ofNullable(System.getenv("PATH")).orElse("").split(File.pathSeparator))
            .filter(d -> !d.isEmpty())
            .map(d -> Path.of(d, "promtool"))
            .filter(Files::isExecutable)
            .findFirst();
    assumeTrue(found.isPresent(), "promtool is not on the PATH");
    return found.get();
  }

  private record Result(int exitCode, String output) {}

  /** Runs the command, a {@code <} argument redirecting stdin from the file after it. */
  private static Result run(String... command) throws IOException, InterruptedException {
    List<String> args = List.of(command);
    int redirect = args.indexOf("<");
    ProcessBuilder pb =
        new ProcessBuilder(redirect < 0 ? args : args.subList(0, redirect))
            .redirectErrorStream(true);
    if (redirect >= 0) {
      pb.redirectInput(Path.of(args.get(redirect + 1)).toFile());
    }
    Process p = pb.start();
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(30, TimeUnit.SECONDS)).as("promtool finished").isTrue();
    return new Result(p.exitValue(), output);
  }
}
