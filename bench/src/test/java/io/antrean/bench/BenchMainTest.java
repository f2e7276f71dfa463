package io.antrean.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.antrean.client.UnavailableException;
import io.grpc.Status;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The bench's own command line: help, usage errors and how escaped failures are reported. */
@Timeout(10)
class BenchMainTest {
  private final BenchHarness bench = BenchHarness.inProcess();

  @AfterEach
  void stop() throws InterruptedException {
    bench.close();
  }

  @Test
  void helpListsTheScenariosTheWorkerOptionsAndTheExitCodes() {
    BenchHarness.Result result = bench.run("--help");

    assertThat(result.exitCode()).isZero();
    assertThat(result.out())
        .contains("Usage: antrean bench")
        .contains("Scenarios: enqueue-1")
        .contains("SCENARIO")
        .contains("--coordinator=TARGET")
        .contains("--worker-processes=N")
        .contains("--in-process-workers")
        .contains("--worker-concurrency=K")
        .contains("Exit codes:");
  }

  @Test
  void anUnknownScenarioIsAUsageErrorThatDialsNothing() {
    BenchHarness.Result result = bench.run("enqueue-2");

    assertThat(result.exitCode()).isEqualTo(BenchMain.USAGE);
    assertThat(result.err())
        .startsWith("antrean bench: unknown scenario 'enqueue-2'")
        .contains("Try 'antrean bench --help' for more information.");
    assertThat(bench.targets).isEmpty();
  }

  @Test
  void anUnavailableCoordinatorExitsFourNamingIt() {
    StringWriter err = new StringWriter();

    int code =
        BenchMain.report(
            new UnavailableException(Status.Code.UNAVAILABLE, "connection refused", null, null),
            "127.0.0.1:7400",
            new PrintWriter(err));

    assertThat(code).isEqualTo(BenchMain.UNAVAILABLE);
    assertThat(err.toString())
        .isEqualTo(
            "antrean bench: coordinator 127.0.0.1:7400 is unavailable (UNAVAILABLE: connection"
                + " refused)"
                + System.lineSeparator());
  }
}
