package io.antrean.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.antrean.duration.DurationSyntax;
import io.antrean.worker.examples.CrashHandler;
import io.antrean.worker.examples.EmailSendHandler;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The runnable worker's command line and handler discovery; no process is started. */
class WorkerMainTest {

  @Test
  void durationOptionsReadTheSharedSyntax() {
    CommandLine cli = new CommandLine(new WorkerMain());
    cli.parseArgs("--lease-ttl", "1m30s", "--shutdown-grace", "PT0.5S");

    assertThat(cli.getCommandSpec().findOption("--lease-ttl").<Duration>getValue())
        .isEqualTo(Duration.ofSeconds(90));
    assertThat(cli.getCommandSpec().findOption("--shutdown-grace").<Duration>getValue())
        .isEqualTo(Duration.ofMillis(500));
  }

  @Test
  void aBadDurationGetsTheSharedMessage() {
    StringWriter err = new StringWriter();
    CommandLine cli = new CommandLine(new WorkerMain()).setErr(new PrintWriter(err));

    assertThat(cli.execute("--lease-ttl", "-5s")).isEqualTo(2);
    assertThat(err.toString())
        .contains("Invalid value for option '--lease-ttl': " + DurationSyntax.problem("-5s"));
  }

  @Test
  void loadsTheBundledExampleHandlersButNotThoseForTestsAndBenchmarks() {
    Map<String, JobHandler> handlers = HandlerCatalog.load(getClass().getClassLoader(), List.of());

    assertThat(handlers).containsOnlyKeys("email.send", "report.build", "flaky");
    assertThat(handlers.get("email.send")).isInstanceOf(EmailSendHandler.class);
  }

  @Test
  void handlersForTestsAndBenchmarksLoadWhenNamed() {
    Map<String, JobHandler> handlers =
        HandlerCatalog.load(
            getClass().getClassLoader(), List.of("crash", "sleep", "bench.noop", "email.send"));

    assertThat(handlers).containsOnlyKeys("crash", "sleep", "bench.noop", "email.send");
    assertThat(handlers.get("crash")).isInstanceOf(CrashHandler.class);
  }

  @Test
  void typesLimitTheHandlers() {
    Map<String, JobHandler> handlers =
        HandlerCatalog.load(getClass().getClassLoader(), List.of("sleep", "flaky"));

    assertThat(handlers).containsOnlyKeys("sleep", "flaky");
  }

  @Test
  void unknownTypeIsRejectedNamingTheKnownOnes() {
    assertThatThrownBy(() -> HandlerCatalog.load(getClass().getClassLoader(), List.of("nope")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("nope")
        .hasMessageContaining("email.send");
  }

  @Test
  void badOptionsExitWithUsageStatusBeforeAnythingStarts() {
    StringWriter err = new StringWriter();
    CommandLine cli = new CommandLine(new WorkerMain()).setErr(new PrintWriter(err));

    assertThat(cli.execute("--types", "nope")).isEqualTo(2);
    assertThat(err.toString()).contains("no handler for job type nope");
    assertThat(cli.execute("--lease-ttl", "soon")).isEqualTo(2);
    assertThat(cli.execute("--concurrency", "0")).isEqualTo(2);
    assertThat(cli.execute("--prefetch", "-1")).isEqualTo(2);
    assertThat(err.toString()).contains("prefetch must be 0 to 1024: -1");
    assertThat(cli.execute("--coordinator", "h1:7400,,h2:7400")).isEqualTo(2);
    assertThat(err.toString()).contains("bad coordinator address '' (entry 2");
  }

  @Test
  void helpListsEveryOption() {
    StringWriter out = new StringWriter();
    CommandLine cli = new CommandLine(new WorkerMain()).setOut(new PrintWriter(out));

    assertThat(cli.execute("--help")).isZero();
    assertThat(out.toString())
        .contains("--coordinator", "--queue", "--concurrency", "--prefetch", "--lease-ttl")
        .contains("--shutdown-grace", "--worker-id", "--types");
    assertThat(out.toString().replaceAll("\\s+", " "))
        .contains("HOST:PORT, a comma-separated list, or dns:///name:port")
        .contains("crash, which halts the JVM; sleep; bench.noop) are never loaded by default");
  }
}
