package io.antrean.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import io.antrean.coordinator.core.InFlightLimits;
import io.antrean.coordinator.http.HttpServerLimits;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The overload limits' options; nothing is started. */
class LimitOptionsTest {

  private static CoordinatorMain parse(String... args) {
    CoordinatorMain main = new CoordinatorMain();
    new CommandLine(main).parseArgs(args);
    return main;
  }

  @Test
  void limitsLeftOutKeepTheDefaults() {
    CoordinatorMain main = parse();

    assertThat(main.limits.inFlight()).isEqualTo(InFlightLimits.defaults());
    assertThat(main.limits.sqlite().maxQueuedWrites()).isEqualTo(10_000);
    assertThat(main.limits.grpcMaxMessageBytes()).isEqualTo(4 << 20);
    assertThat(main.limits.maxCallsPerConnection()).isEqualTo(256);
    assertThat(main.limits.http()).isEqualTo(HttpServerLimits.DEFAULTS);
  }

  @Test
  void everyLimitIsAnOption() {
    CoordinatorMain main =
        parse(
            "--max-in-flight-bytes", "64MiB",
            "--max-in-flight-calls", "100",
            "--max-long-polls", "50",
            "--max-watch-streams", "40",
            "--overload-retry-after", "250ms",
            "--max-queued-writes", "123",
            "--grpc-max-message-size", "8MiB",
            "--max-calls-per-connection", "64",
            "--http-max-connections", "32",
            "--http-request-timeout", "5s",
            "--http-response-timeout", "7s",
            "--http-idle-timeout", "9s");

    assertThat(main.limits.inFlight())
        .isEqualTo(new InFlightLimits(64L << 20, 100, 50, 40, Duration.ofMillis(250)));
    assertThat(main.limits.sqlite().maxQueuedWrites()).isEqualTo(123);
    assertThat(main.limits.grpcMaxMessageBytes()).isEqualTo(8 << 20);
    assertThat(main.limits.maxCallsPerConnection()).isEqualTo(64);
    assertThat(main.limits.http())
        .isEqualTo(
            new HttpServerLimits(
                Duration.ofSeconds(5), Duration.ofSeconds(7), Duration.ofSeconds(9), 32));
  }

  @Test
  void byteSizesTakeBinarySuffixes() {
    assertThat(parse("--max-in-flight-bytes", "1048576").limits.inFlight().maxBytes())
        .isEqualTo(1L << 20);
    assertThat(parse("--max-in-flight-bytes", "512KiB").limits.inFlight().maxBytes())
        .isEqualTo(512L << 10);
    assertThat(parse("--max-in-flight-bytes", "2GiB").limits.inFlight().maxBytes())
        .isEqualTo(2L << 30);
  }

  @Test
  void aBadByteSizeExitsWithUsageStatusAndSaysWhatIsWrong() {
    StringWriter err = new StringWriter();
    CommandLine cli = new CommandLine(new CoordinatorMain()).setErr(new PrintWriter(err));

    assertThat(cli.execute("--max-in-flight-bytes", "64 MB")).isEqualTo(2);
    assertThat(err.toString())
        .contains("--max-in-flight-bytes")
        .contains("is not a byte count (digits, optionally followed by KiB, MiB or GiB)");
  }
}
