package io.antrean.client.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.antrean.client.GrpcAntreanClient;
import io.antrean.proto.v1.GetStatsResponse;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(20)
class AntreanCliTest {
  private final CliHarness cli = new CliHarness();

  @AfterEach
  void stop() throws InterruptedException {
    cli.close();
  }

  @Test
  void coordinatorAndTimeoutDefaultToLoopbackAndTenSeconds() {
    assumeTrue(System.getenv("ANTREAN_COORDINATOR") == null, "ANTREAN_COORDINATOR is set");

    cli.run("stats");

    assertThat(cli.targets).containsExactly("127.0.0.1:7400");
    assertThat(cli.timeouts).containsExactly(Duration.ofSeconds(10));
  }

  @Test
  void globalOptionsChooseTheCoordinatorAndTheDeadline() {
    cli.run("--coordinator", "queue.internal:7500", "--timeout", "750ms", "stats");

    assertThat(cli.targets).containsExactly("queue.internal:7500");
    assertThat(cli.timeouts).containsExactly(Duration.ofMillis(750));
    assertThat(cli.service.deadlines.get(0).timeRemaining(TimeUnit.MILLISECONDS))
        .isBetween(1L, 750L);
  }

  @Test
  void anUnreachableCoordinatorExitsWith4() {
    CliHarness.Result result =
        CliHarness.run(
            (target, timeout) -> GrpcAntreanClient.forTarget(target).timeout(timeout).build(),
            "--coordinator",
            "127.0.0.1:1",
            "--timeout",
            "5s",
            "get",
            "1");

    assertThat(result.exitCode()).isEqualTo(4);
    assertThat(result.err())
        .startsWith("antrean: coordinator 127.0.0.1:1 is unavailable (UNAVAILABLE");
  }

  @Test
  void aCoordinatorTooSlowForTheTimeoutExitsWith4() {
    CountDownLatch release = new CountDownLatch(1);
    cli.service.getStats =
        r -> {
          release.await(5, TimeUnit.SECONDS);
          return GetStatsResponse.getDefaultInstance();
        };

    CliHarness.Result result;
    try {
      result = cli.run("--timeout", "100ms", "stats");
    } finally {
      release.countDown();
    }

    assertThat(result.exitCode()).isEqualTo(4);
    assertThat(result.err()).contains("did not answer in time (DEADLINE_EXCEEDED");
  }

  @Test
  void usageMistakesExitWith2AndPointToHelp() {
    CliHarness.Result noCommand = cli.run();
    CliHarness.Result typo = cli.run("lst");
    CliHarness.Result badTimeout = cli.run("--timeout", "soon", "stats");

    assertThat(noCommand.exitCode()).isEqualTo(2);
    assertThat(noCommand.err()).contains("Missing command");
    assertThat(typo.exitCode()).isEqualTo(2);
    assertThat(typo.err()).contains("Did you mean: antrean list");
    assertThat(badTimeout.exitCode()).isEqualTo(2);
    assertThat(cli.targets).isEmpty();
  }

  @Test
  void everyCommandsHelpListsTheExitCodes() {
    String[] commands = {
      "enqueue",
      "get",
      "list",
      "cancel",
      "stats",
      "samples",
      "dlq",
      "dlq list",
      "dlq show",
      "dlq redrive",
      "dlq purge",
      "queue",
      "queue list",
      "queue pause",
      "queue resume"
    };
    for (String command : commands) {
      CliHarness.Result result = cli.run((command + " --help").split(" "));

      assertThat(result.exitCode()).isZero();
      assertThat(result.out())
          .contains("Exit codes:")
          .containsPattern("0 +ok")
          .containsPattern("1 +server error")
          .containsPattern("2 +usage error")
          .containsPattern("3 +not found")
          .containsPattern("4 +coordinator unavailable");
    }
  }
}
