package io.antrean.coordinator.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

import io.antrean.coordinator.core.Settings;
import io.antrean.coordinator.job.RetryPolicy;
import io.antrean.coordinator.store.QueueLimits;
import io.antrean.coordinator.store.RateLimit;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The config file's retry defaults layer per field: type over queue over built-in. */
class ConfigFileTest {
  /** The README's own example. */
  private static final String README_EXAMPLE =
      """
      {
        "jobTypes": [
          {"name": "email.send", "retryPolicy": {"maxAttempts": 8, "initialBackoff": "2s"}},
          {"name": "report.build"},
          {"name": "flaky"}
        ],
        "queues": [{"name": "default", "retryPolicy": {"maxBackoff": "60s"}}]
      }
      """;

  @TempDir Path dir;

  private Settings load(String json) throws IOException {
    Path file = dir.resolve("antrean.json");
    Files.writeString(file, json, StandardCharsets.UTF_8);
    return ConfigFile.apply(file, Settings.defaults());
  }

  @Test
  void theReadmeExampleGivesEmailSendInTheDefaultQueueTheQueuesMaxBackoff() throws Exception {
    Settings settings = load(README_EXAMPLE);

    assertThat(settings.retryDefaults("email.send", "default"))
        .isEqualTo(new RetryPolicy(8, Duration.ofSeconds(2), 2.0, Duration.ofSeconds(60), 3));
    assertThat(settings.retryDefaults("email.send", "other"))
        .isEqualTo(new RetryPolicy(8, Duration.ofSeconds(2), 2.0, Duration.ofMinutes(5), 3));
    assertThat(settings.retryDefaults("report.build", "default"))
        .isEqualTo(new RetryPolicy(5, Duration.ofSeconds(1), 2.0, Duration.ofSeconds(60), 3));
    assertThat(settings.declaredTypes())
        .containsExactlyInAnyOrder("email.send", "report.build", "flaky");
  }

  /** Type t sets exactly one field, queue q sets every field: each field layers on its own. */
  @Test
  void eachFieldTheTypeSetsWinsOverTheQueueAndEveryOtherFieldComesFromTheQueue() throws Exception {
    String queue =
        "{\"name\": \"q\", \"retryPolicy\": {\"maxAttempts\": 7, \"initialBackoff\": \"7s\","
            + " \"backoffMultiplier\": 7, \"maxBackoff\": \"70s\", \"maxLeaseExpiries\": 7}}";
    RetryPolicy ofQueue = new RetryPolicy(7, Duration.ofSeconds(7), 7.0, Duration.ofSeconds(70), 7);
    String[] typeFields = {
      "\"maxAttempts\": 9",
      "\"initialBackoff\": \"9s\"",
      "\"backoffMultiplier\": 9",
      "\"maxBackoff\": \"90s\"",
      "\"maxLeaseExpiries\": 9"
    };
    RetryPolicy[] expected = {
      new RetryPolicy(9, Duration.ofSeconds(7), 7.0, Duration.ofSeconds(70), 7),
      new RetryPolicy(7, Duration.ofSeconds(9), 7.0, Duration.ofSeconds(70), 7),
      new RetryPolicy(7, Duration.ofSeconds(7), 9.0, Duration.ofSeconds(70), 7),
      new RetryPolicy(7, Duration.ofSeconds(7), 7.0, Duration.ofSeconds(90), 7),
      new RetryPolicy(7, Duration.ofSeconds(7), 7.0, Duration.ofSeconds(70), 9),
    };
    for (int i = 0; i < typeFields.length; i++) {
      Settings settings =
          load(
              "{\"jobTypes\": [{\"name\": \"t\", \"retryPolicy\": {"
                  + typeFields[i]
                  + "}}], \"queues\": ["
                  + queue
                  + "]}");

      assertThat(settings.retryDefaults("t", "q")).as(typeFields[i]).isEqualTo(expected[i]);
      assertThat(settings.retryDefaults("other", "q")).as(typeFields[i]).isEqualTo(ofQueue);
    }
  }

  @Test
  void fieldsNobodySetsComeFromTheBuiltInPolicy() throws Exception {
    Settings settings =
        load(
            "{\"jobTypes\": [{\"name\": \"t\", \"retryPolicy\": {\"maxAttempts\": 2}}],"
                + " \"queues\": [{\"name\": \"q\", \"retryPolicy\": {\"backoffMultiplier\": 3}}]}");

    assertThat(settings.retryDefaults("t", "q"))
        .isEqualTo(new RetryPolicy(2, Duration.ofSeconds(1), 3.0, Duration.ofMinutes(5), 3));
    assertThat(settings.retryDefaults("u", "r")).isEqualTo(RetryPolicy.DEFAULT);
  }

  @Test
  void aFieldOutOfRangeIsReportedWithItsOwner() {
    assertThatThrownBy(
            () ->
                load(
                    "{\"queues\": [{\"name\": \"q\", \"retryPolicy\": {\"backoffMultiplier\":"
                        + " 0.5}}]}"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("retry policy of q")
        .hasMessageContaining("multiplier");
  }

  @Test
  void queueConcurrencyLimitsAreReadOnlyForQueuesThatDeclareThem() throws Exception {
    Path file = dir.resolve("antrean.json");
    Files.writeString(
        file,
        """
        {"queues": [
          {"name": "tenants", "concurrencyLimits": {"maxRunningPerKey": 1}},
          {"name": "capped", "concurrencyLimits": {"maxRunning": 20, "maxRunningPerKey": 2,
            "rate": {"starts": 100, "interval": "60s"}}},
          {"name": "cleared", "concurrencyLimits": {}},
          {"name": "untouched", "retryPolicy": {"maxAttempts": 2}}
        ]}
        """,
        StandardCharsets.UTF_8);

    assertThat(ConfigFile.queueLimits(file))
        .containsExactly(
            entry(
                "capped", new QueueLimits(20, 2, new RateLimit(100, Duration.ofSeconds(60)), null)),
            entry("cleared", QueueLimits.NONE),
            entry("tenants", new QueueLimits(null, 1)));
  }

  @Test
  void aNegativeConcurrencyLimitIsReportedWithItsQueue() throws Exception {
    Path file = dir.resolve("antrean.json");
    Files.writeString(
        file,
        "{\"queues\": [{\"name\": \"q\", \"concurrencyLimits\": {\"maxRunning\": -1}}]}",
        StandardCharsets.UTF_8);

    assertThatThrownBy(() -> ConfigFile.queueLimits(file))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("queue q")
        .hasMessageContaining(file.toString());
  }
}
