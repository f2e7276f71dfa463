package io.antrean.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import io.antrean.duration.DurationSyntax;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The coordinator's options are read and checked; nothing is started. */
class CoordinatorOptionsTest {

  @Test
  void durationOptionsReadTheSharedSyntax() {
    CoordinatorMain main = new CoordinatorMain();
    new CommandLine(main)
        .parseArgs(
            "--sweep-interval", "500ms",
            "--idempotency-window", "1h30m",
            "--retain-succeeded", "P7D",
            "--retain-failed", "30d",
            "--dlq-alert-window", "1m30s");

    assertThat(main.sweepInterval).isEqualTo(Duration.ofMillis(500));
    assertThat(main.idempotencyWindow).isEqualTo(Duration.ofMinutes(90));
    assertThat(main.retainSucceeded).isEqualTo(Duration.ofDays(7));
    assertThat(main.retainFailed).isEqualTo(Duration.ofDays(30));
    assertThat(main.dlqAlertWindow).isEqualTo(Duration.ofSeconds(90));
  }

  @Test
  void aBadDurationExitsWithUsageStatusAndTheSharedMessage() {
    StringWriter err = new StringWriter();
    CommandLine cli = new CommandLine(new CoordinatorMain()).setErr(new PrintWriter(err));

    assertThat(cli.execute("--sweep-interval", "5 s")).isEqualTo(2);
    assertThat(err.toString())
        .contains("Invalid value for option '--sweep-interval': " + DurationSyntax.problem("5 s"));
  }

  @Test
  void fewerThanOneNetworkThreadExitsWithUsageStatusBeforeStartingAnything() {
    StringWriter err = new StringWriter();
    CommandLine cli = new CommandLine(new CoordinatorMain()).setErr(new PrintWriter(err));

    assertThat(cli.execute("--network-threads", "0")).isEqualTo(2);
    assertThat(err.toString()).contains("--network-threads must be at least 1, got 0");
  }

  @Test
  void youngJobsOnPostgresExitsWithUsageStatusBeforeStartingAnything() {
    StringWriter err = new StringWriter();
    CommandLine cli = new CommandLine(new CoordinatorMain()).setErr(new PrintWriter(err));

    assertThat(cli.execute("--store", "postgres", "--young-jobs")).isEqualTo(2);
    assertThat(err.toString()).contains("--young-jobs is for --store sqlite");
  }

  @Test
  void youngJobsAreOnUnlessTurnedOff() {
    CoordinatorMain main = new CoordinatorMain();
    new CommandLine(main).parseArgs();
    assertThat(main.youngJobsOn()).isTrue();
    new CommandLine(main).parseArgs("--no-young-jobs");
    assertThat(main.youngJobsOn()).isFalse();
    new CommandLine(main).parseArgs("--young-jobs");
    assertThat(main.youngJobsOn()).isTrue();
  }

  @Test
  void postgresWithoutTheYoungJobsOptionIsNotRefused() {
    StringWriter err = new StringWriter();
    CommandLine cli = new CommandLine(new CoordinatorMain()).setErr(new PrintWriter(err));

    assertThat(cli.execute("--store", "postgres")).isEqualTo(2);
    assertThat(err.toString()).contains("--store postgres needs --postgres-url");
  }
}
