package io.antrean.client.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Timestamp;
import com.google.protobuf.util.JsonFormat;
import io.antrean.client.internal.ProtoTime;
import io.antrean.proto.v1.DeadLetterFilter;
import io.antrean.proto.v1.RedriveDeadLettersRequest;
import io.antrean.proto.v1.RedriveDeadLettersResponse;
import java.time.Duration;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class DlqRedriveCommandTest {
  private static final Timestamp LAST = Timestamp.newBuilder().setSeconds(1_800_000_001L).build();

  private final CliHarness cli = new CliHarness();

  @AfterEach
  void stop() throws InterruptedException {
    cli.close();
  }

  @Test
  void idsAreRedrivenAndTheSummaryNamesThem() {
    cli.admin.redriveDeadLetters =
        r ->
            RedriveDeadLettersResponse.newBuilder()
                .addAllRedrivenIds(r.getIdsList())
                .setLastRunAt(LAST)
                .build();

    CliHarness.Result result = cli.run("dlq", "redrive", "4", "5");

    assertThat(result.exitCode()).isZero();
    assertThat(result.out().strip())
        .isEqualTo(
            "redrove 2 dead letters (4, 5); the last becomes leasable at 2027-01-15T08:00:01Z");
    assertThat(result.err()).isEmpty();
    assertThat(cli.admin.requestsOf(RedriveDeadLettersRequest.class))
        .containsExactly(RedriveDeadLettersRequest.newBuilder().addIds(4).addIds(5).build());
  }

  @Test
  void skippedIdsAreListedOnStderrAndTheExitCodeStaysZero() {
    cli.admin.redriveDeadLetters =
        r ->
            RedriveDeadLettersResponse.newBuilder()
                .addRedrivenIds(4)
                .addSkippedIds(9)
                .addSkippedIds(10)
                .setLastRunAt(LAST)
                .build();

    CliHarness.Result result = cli.run("dlq", "redrive", "4", "9", "10");

    assertThat(result.exitCode()).isZero();
    assertThat(result.out()).startsWith("redrove 1 dead letter (4);");
    assertThat(result.err().strip())
        .isEqualTo("antrean: skipped 2 ids that are unknown or not dead-lettered: 9, 10");
  }

  @Test
  void aFilterWithRateAndLimitGoesToTheServerInOneCall() {
    CliHarness.Result result =
        cli.run(
            "dlq", "redrive", "--queue", "mail", "--error", "timeout", "--since", "30m", "--rate",
            "12.5", "--limit", "200");

    assertThat(result.exitCode()).isZero();
    assertThat(result.out().strip()).isEqualTo("redrove nothing: no dead letter was selected");
    assertThat(result.err().strip())
        .isEqualTo("redriving dead letters matching the filter at 12.5/s...");
    assertThat(cli.admin.requestsOf(RedriveDeadLettersRequest.class))
        .containsExactly(
            RedriveDeadLettersRequest.newBuilder()
                .setFilter(
                    DeadLetterFilter.newBuilder()
                        .setQueue("mail")
                        .setErrorContains("timeout")
                        .setFailedAfter(
                            ProtoTime.toProto(CliHarness.NOW.minus(Duration.ofMinutes(30)))))
                .setRatePerSecond(12.5)
                .setLimit(200)
                .build());
  }

  @Test
  void allRedrivesEverythingAndSaysWhenTheLimitStoppedIt() {
    cli.admin.redriveDeadLetters =
        r ->
            RedriveDeadLettersResponse.newBuilder()
                .addAllRedrivenIds(LongStream.rangeClosed(1, 25).boxed().toList())
                .setLastRunAt(LAST)
                .build();

    CliHarness.Result result = cli.run("dlq", "redrive", "--all", "--limit", "25");

    assertThat(result.out().strip())
        .isEqualTo("redrove 25 dead letters; the last becomes leasable at 2027-01-15T08:00:01Z");
    assertThat(result.err())
        .startsWith("redriving every dead letter at 100/s...\n")
        .contains("stopped at the limit of 25; more dead letters may match")
        .contains("after 2027-01-15T08:00:01Z");
    assertThat(cli.admin.requestsOf(RedriveDeadLettersRequest.class).get(0))
        .isEqualTo(RedriveDeadLettersRequest.newBuilder().setAll(true).setLimit(25).build());
  }

  @Test
  void jsonOutputParsesBackIntoTheResponse() throws Exception {
    RedriveDeadLettersResponse answer =
        RedriveDeadLettersResponse.newBuilder()
            .addRedrivenIds(4)
            .addSkippedIds(9)
            .setLastRunAt(LAST)
            .build();
    cli.admin.redriveDeadLetters = r -> answer;

    CliHarness.Result result = cli.run("dlq", "redrive", "4", "9", "--json");

    RedriveDeadLettersResponse.Builder parsed = RedriveDeadLettersResponse.newBuilder();
    JsonFormat.parser().merge(result.out(), parsed);
    assertThat(parsed.build()).isEqualTo(answer);
  }

  @Test
  void namingNothingOrMoreThanOneKindOfSelectionIsAUsageError() {
    CliHarness.Result nothing = cli.run("dlq", "redrive");
    CliHarness.Result idsAndFilter = cli.run("dlq", "redrive", "4", "--queue", "mail");
    CliHarness.Result allAndFilter = cli.run("dlq", "redrive", "--all", "--type", "t");
    CliHarness.Result emptyQueue = cli.run("dlq", "redrive", "--queue", "");

    assertThat(nothing.exitCode()).isEqualTo(2);
    assertThat(nothing.err()).contains("say which dead letters to redrive: IDs, filter options");
    assertThat(idsAndFilter.exitCode()).isEqualTo(2);
    assertThat(idsAndFilter.err()).contains("not more than one of them");
    assertThat(allAndFilter.exitCode()).isEqualTo(2);
    assertThat(emptyQueue.exitCode()).isEqualTo(2);
    assertThat(cli.admin.requests).isEmpty();
  }

  @Test
  void aNonPositiveRateOrLimitIsAUsageError() {
    assertThat(cli.run("dlq", "redrive", "--all", "--rate", "0").exitCode()).isEqualTo(2);
    assertThat(cli.run("dlq", "redrive", "--all", "--limit", "-1").exitCode()).isEqualTo(2);
    assertThat(cli.run("dlq", "redrive", "--all", "--rate", "fast").exitCode()).isEqualTo(2);
    assertThat(cli.admin.requests).isEmpty();
  }
}
