package io.antrean.client.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Timestamp;
import com.google.protobuf.util.JsonFormat;
import io.antrean.client.internal.ProtoTime;
import io.antrean.proto.v1.DeadLetterFilter;
import io.antrean.proto.v1.Job;
import io.antrean.proto.v1.JobState;
import io.antrean.proto.v1.ListDeadLettersRequest;
import io.antrean.proto.v1.ListDeadLettersResponse;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class DlqListCommandTest {
  private static final ListDeadLettersResponse PAGE =
      ListDeadLettersResponse.newBuilder()
          .addJobs(deadLetter(21, "mail", "email.send", 5, "SMTP 451\ntry again later"))
          .addJobs(deadLetter(17, "default", "report.build", 1, "bad payload: pages < 0"))
          .setNextPageToken("page-2")
          .build();

  private final CliHarness cli = new CliHarness();

  @AfterEach
  void stop() throws InterruptedException {
    cli.close();
  }

  @Test
  void printsATableAndTheNextPageToken() {
    cli.admin.listDeadLetters = r -> PAGE;

    CliHarness.Result result = cli.run("dlq", "list");

    assertThat(result.exitCode()).isZero();
    assertThat(result.out().lines())
        .containsExactly(
            "ID  QUEUE    TYPE          ATTEMPTS  FAILED AT             LAST ERROR",
            "21  mail     email.send    5         2027-01-15T07:00:00Z  SMTP 451 try again later",
            "17  default  report.build  1         2027-01-15T07:00:00Z  bad payload: pages < 0",
            "next page: --page-token page-2");
  }

  @Test
  void noOptionsSendAnEmptyRequestThatListsEveryDeadLetter() {
    CliHarness.Result result = cli.run("dlq", "list");

    assertThat(result.out().strip()).isEqualTo("no dead letters");
    assertThat(cli.admin.requestsOf(ListDeadLettersRequest.class))
        .containsExactly(ListDeadLettersRequest.getDefaultInstance());
  }

  @Test
  void filterOptionsMapOntoTheFilterWithRelativeTimesCountedBackFromNow() {
    cli.run(
        "dlq",
        "list",
        "--queue",
        "mail",
        "--type",
        "email.send",
        "--error",
        "SMTP 451",
        "--since",
        "1h",
        "--until",
        "2027-01-15T09:30:00+02:00",
        "--limit",
        "20",
        "--page-token",
        "abc");

    assertThat(cli.admin.requestsOf(ListDeadLettersRequest.class))
        .containsExactly(
            ListDeadLettersRequest.newBuilder()
                .setFilter(
                    DeadLetterFilter.newBuilder()
                        .setQueue("mail")
                        .setType("email.send")
                        .setErrorContains("SMTP 451")
                        .setFailedAfter(at(CliHarness.NOW.minus(Duration.ofHours(1))))
                        .setFailedBefore(at(Instant.parse("2027-01-15T07:30:00Z"))))
                .setPageSize(20)
                .setPageToken("abc")
                .build());
  }

  @Test
  void aSinceOfADateMeansItsStartInUtc() {
    cli.run("dlq", "list", "--since", "2027-01-14");

    assertThat(cli.admin.requestsOf(ListDeadLettersRequest.class).get(0).getFilter())
        .isEqualTo(
            DeadLetterFilter.newBuilder()
                .setFailedAfter(at(Instant.parse("2027-01-14T00:00:00Z")))
                .build());
  }

  @Test
  void anUnreadableSinceIsAUsageErrorThatShowsWhatIsAccepted() {
    CliHarness.Result result = cli.run("dlq", "list", "--since", "yesterday");

    assertThat(result.exitCode()).isEqualTo(2);
    assertThat(result.err())
        .contains("'yesterday' is neither a duration before now (30m, 1h, 2d)")
        .contains("Try 'antrean dlq list --help'");
    assertThat(cli.admin.requests).isEmpty();
  }

  @Test
  void aSinceThatIsNotBeforeUntilIsAUsageError() {
    CliHarness.Result result = cli.run("dlq", "list", "--since", "1h", "--until", "2h");

    assertThat(result.exitCode()).isEqualTo(2);
    assertThat(result.err())
        .contains("--since (2027-01-15T07:00:00Z) must be before --until (2027-01-15T06:00:00Z)");
    assertThat(cli.admin.requests).isEmpty();
  }

  @Test
  void jsonOutputParsesBackIntoTheResponse() throws Exception {
    cli.admin.listDeadLetters = r -> PAGE;

    CliHarness.Result result = cli.run("dlq", "list", "--json");

    ListDeadLettersResponse.Builder parsed = ListDeadLettersResponse.newBuilder();
    JsonFormat.parser().merge(result.out(), parsed);
    assertThat(parsed.build()).isEqualTo(PAGE);
  }

  @Test
  void dlqWithoutACommandIsAUsageError() {
    CliHarness.Result result = cli.run("dlq");

    assertThat(result.exitCode()).isEqualTo(2);
    assertThat(result.err()).contains("Missing dlq command: list, show, redrive or purge");
  }

  private static Timestamp at(Instant instant) {
    return ProtoTime.toProto(instant);
  }

  private static Job deadLetter(long id, String queue, String type, int attempts, String error) {
    return Job.newBuilder()
        .setId(id)
        .setQueue(queue)
        .setType(type)
        .setState(JobState.JOB_STATE_FAILED)
        .setAttempts(attempts)
        .setLastError(error)
        .setFinishedAt(at(CliHarness.NOW.minus(Duration.ofHours(1))))
        .build();
  }
}
