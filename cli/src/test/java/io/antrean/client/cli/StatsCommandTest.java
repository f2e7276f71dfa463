package io.antrean.client.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Timestamp;
import com.google.protobuf.util.Durations;
import com.google.protobuf.util.JsonFormat;
import io.antrean.proto.v1.GetStatsRequest;
import io.antrean.proto.v1.GetStatsResponse;
import io.antrean.proto.v1.QueueStats;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class StatsCommandTest {
  private static final GetStatsResponse STATS =
      GetStatsResponse.newBuilder()
          .addQueues(
              QueueStats.newBuilder()
                  .setQueue("default")
                  .setPending(3)
                  .setScheduled(1)
                  .setRunning(2)
                  .setSucceeded(40)
                  .setFailed(1)
                  .setOldestPendingAge(Durations.fromMillis(1500)))
          .addQueues(
              QueueStats.newBuilder()
                  .setQueue("mail")
                  .setWaiting(4)
                  .setSucceeded(7)
                  .setFailed(12)
                  .setDeadLetteredRecently(9))
          .setAsOf(Timestamp.newBuilder().setSeconds(1_800_000_000L))
          .setDeadLetterWindow(Durations.fromHours(1))
          .build();

  private final CliHarness cli = new CliHarness();

  @AfterEach
  void stop() throws InterruptedException {
    cli.close();
  }

  @Test
  void printsOneRowPerQueueWithDeadLetterDepthAndGrowthOverTheWindow() {
    cli.service.getStats = r -> STATS;

    CliHarness.Result result = cli.run("stats");

    assertThat(result.exitCode()).isZero();
    assertThat(result.out().lines())
        .containsExactly(
            "QUEUE    PENDING  SCHEDULED  RUNNING  SUCCEEDED  FAILED  FAILED LAST 1h  CANCELLED"
                + "  WAITING  OLDEST PENDING",
            "default  3        1          2        40         1       0               0          0"
                + "        1.5s",
            "mail     0        0          0        7          12      9               0          4"
                + "        0ms",
            "as of 2027-01-15T08:00:00Z");
    assertThat(cli.service.requestsOf(GetStatsRequest.class))
        .containsExactly(GetStatsRequest.getDefaultInstance());
  }

  @Test
  void unfinishedOnlyAsksForThemAndPrintsTheirColumnsAlone() {
    // As an older coordinator would answer: every count, and "done", which holds finished jobs
    // only.
    cli.service.getStats =
        r ->
            STATS.toBuilder()
                .addQueues(QueueStats.newBuilder().setQueue("done").setSucceeded(5))
                .build();

    CliHarness.Result result = cli.run("stats", "--unfinished-only", "--queue", "default");

    assertThat(result.exitCode()).isZero();
    assertThat(result.out().lines())
        .containsExactly(
            "QUEUE    PENDING  SCHEDULED  RUNNING  WAITING  OLDEST PENDING",
            "default  3        1          2        0        1.5s",
            "mail     0        0          0        4        0ms",
            "as of 2027-01-15T08:00:00Z");
    assertThat(cli.service.requestsOf(GetStatsRequest.class))
        .containsExactly(
            GetStatsRequest.newBuilder().setQueue("default").setUnfinishedOnly(true).build());
  }

  @Test
  void theGrowthHeaderNamesTheCoordinatorsWindow() {
    cli.service.getStats =
        r -> STATS.toBuilder().setDeadLetterWindow(Durations.fromMinutes(15)).build();

    CliHarness.Result result = cli.run("stats");

    assertThat(result.out().lines().findFirst().orElseThrow()).contains("FAILED LAST 15m");
  }

  @Test
  void aCoordinatorWithoutAWindowShowsUnknownGrowthRatherThanZero() {
    cli.service.getStats = r -> STATS.toBuilder().clearDeadLetterWindow().build();

    CliHarness.Result result = cli.run("stats");

    assertThat(result.out().lines())
        .element(0)
        .asString()
        .contains("FAILED  FAILED RECENTLY  CANCELLED");
    assertThat(result.out().lines()).element(2).asString().containsPattern("mail .* 12 +- +0 ");
  }

  @Test
  void queueOptionAsksForThatQueue() {
    cli.run("stats", "--queue", "mail");

    assertThat(cli.service.requestsOf(GetStatsRequest.class).get(0).getQueue()).isEqualTo("mail");
  }

  @Test
  void noQueuesSaysSo() {
    CliHarness.Result result = cli.run("stats");

    assertThat(result.out()).startsWith("no queues hold jobs");
  }

  @Test
  void jsonOutputParsesBackIntoTheResponse() throws Exception {
    cli.service.getStats = r -> STATS;

    CliHarness.Result result = cli.run("stats", "--json");

    GetStatsResponse.Builder parsed = GetStatsResponse.newBuilder();
    JsonFormat.parser().merge(result.out(), parsed);
    assertThat(parsed.build()).isEqualTo(STATS);
  }
}
