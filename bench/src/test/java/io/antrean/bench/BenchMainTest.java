package io.antrean.client.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@code antrean bench} is wired into the real command line; its scenarios are tested in bench. */
@Timeout(10)
class BenchCommandRegistrationTest {
  private final CliHarness cli = new CliHarness();

  @AfterEach
  void stop() throws InterruptedException {
    cli.close();
  }

  @Test
  void benchHelpListsTheScenariosAndTheExitCodes() {
    CliHarness.Result result = cli.run("bench", "--help");

    assertThat(result.exitCode()).isZero();
    assertThat(result.out())
        .contains("Usage: antrean bench")
        .contains("Scenarios: enqueue-1")
        .contains("SCENARIO")
        .contains("--worker-concurrency=K")
        .contains("Exit codes:");
  }

  @Test
  void anUnknownScenarioIsAUsageErrorReportedLikeAnyOther() {
    CliHarness.Result result = cli.run("bench", "enqueue-2");

    assertThat(result.exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(result.err())
        .startsWith("antrean: unknown scenario 'enqueue-2'")
        .contains("Try 'antrean bench --help' for more information.");
    assertThat(cli.targets).isEmpty();
  }
}
