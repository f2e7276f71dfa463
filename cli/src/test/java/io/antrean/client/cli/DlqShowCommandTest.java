package io.antrean.client.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import com.google.protobuf.Timestamp;
import com.google.protobuf.util.JsonFormat;
import io.antrean.client.FakeJobService;
import io.antrean.proto.v1.Attempt;
import io.antrean.proto.v1.AttemptOutcome;
import io.antrean.proto.v1.ErrorKind;
import io.antrean.proto.v1.GetDeadLetterRequest;
import io.antrean.proto.v1.GetDeadLetterResponse;
import io.antrean.proto.v1.Job;
import io.antrean.proto.v1.JobState;
import io.grpc.Status;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class DlqShowCommandTest {
  private static final Timestamp T0 = Timestamp.newBuilder().setSeconds(1_800_000_000L).build();
  private static final Timestamp T1 = Timestamp.newBuilder().setSeconds(1_800_000_002L).build();
  private static final Timestamp T2 = Timestamp.newBuilder().setSeconds(1_800_000_060L).build();

  private static final Job DEAD =
      Job.newBuilder()
          .setId(21)
          .setQueue("mail")
          .setType("email.send")
          .setPayload(ByteString.copyFromUtf8("{\"to\":\"ada@example.com\",\"retries\":2}"))
          .setContentType("application/json")
          .setState(JobState.JOB_STATE_FAILED)
          .setAttempts(2)
          .setIdempotencyKey("welcome-ada")
          .setLastError("mailbox unavailable")
          .setCreatedAt(T0)
          .setFinishedAt(T2)
          .addHistory(
              attempt(1, "worker-a", T0, T1, AttemptOutcome.ATTEMPT_OUTCOME_FAILED_RETRYABLE)
                  .setErrorKind(ErrorKind.ERROR_KIND_RETRYABLE)
                  .setErrorType("java.net.SocketTimeoutException")
                  .setErrorMessage("read timed out")
                  .setStackTrace(
                      "java.net.SocketTimeoutException: read timed out\n"
                          + "\tat example.Smtp.send(Smtp.java:42)\n"
                          + "\tat example.EmailHandler.handle(EmailHandler.java:17)"))
          .addHistory(
              Attempt.newBuilder()
                  .setOutcome(AttemptOutcome.ATTEMPT_OUTCOME_REDRIVEN)
                  .setEndedAt(T1))
          .addHistory(
              attempt(2, "worker-b", T1, T2, AttemptOutcome.ATTEMPT_OUTCOME_FAILED_PERMANENT)
                  .setErrorKind(ErrorKind.ERROR_KIND_PERMANENT)
                  .setErrorType("example.SmtpRejected")
                  .setErrorMessage("mailbox unavailable\nrecipient: ada@example.com"))
          .build();

  private final CliHarness cli = new CliHarness();

  @AfterEach
  void stop() throws InterruptedException {
    cli.close();
  }

  @Test
  void printsFieldsThePrettyPayloadAndEveryAttemptInFull() {
    cli.admin.getDeadLetter = r -> GetDeadLetterResponse.newBuilder().setJob(DEAD).build();

    CliHarness.Result result = cli.run("dlq", "show", "21");

    assertThat(result.exitCode()).isZero();
    assertThat(cli.admin.requestsOf(GetDeadLetterRequest.class).get(0).getId()).isEqualTo(21);
    assertThat(result.out())
        .startsWith("dead letter 21" + System.lineSeparator())
        .containsPattern("queue: +mail")
        .containsPattern("failed at: +2027-01-15T08:01:00Z")
        .containsPattern("idempotency key: +welcome-ada")
        .contains(
            lines(
                "payload (application/json, 36 bytes):",
                "  {",
                "    \"to\": \"ada@example.com\",",
                "    \"retries\": 2",
                "  }",
                "attempts:",
                "  #1  FAILED_RETRYABLE",
                "      worker:    worker-a",
                "      leased at: 2027-01-15T08:00:00Z",
                "      ended at:  2027-01-15T08:00:02Z (after 2.0s)",
                "      error:     RETRYABLE java.net.SocketTimeoutException",
                "      message:",
                "        read timed out",
                "      stack trace:",
                "        java.net.SocketTimeoutException: read timed out",
                "        \tat example.Smtp.send(Smtp.java:42)",
                "        \tat example.EmailHandler.handle(EmailHandler.java:17)",
                "  -- REDRIVEN at 2027-01-15T08:00:02Z: the entries below belong to the job's next"
                    + " life",
                "  #2  FAILED_PERMANENT",
                "      worker:    worker-b"))
        .contains(
            lines(
                "      error:     PERMANENT example.SmtpRejected",
                "      message:",
                "        mailbox unavailable",
                "        recipient: ada@example.com"));
  }

  @Test
  void aBinaryPayloadIsShownAsItsSize() {
    Job binary =
        DEAD.toBuilder()
            .setPayload(ByteString.copyFrom(new byte[] {0, 1, 2}))
            .setContentType("application/octet-stream")
            .build();
    cli.admin.getDeadLetter = r -> GetDeadLetterResponse.newBuilder().setJob(binary).build();

    CliHarness.Result result = cli.run("dlq", "show", "21");

    assertThat(result.out())
        .contains(
            lines(
                "payload (application/octet-stream, 3 bytes):",
                "  (binary; --json shows it base64-encoded)"));
  }

  @Test
  void jsonOutputParsesBackIntoTheJob() throws Exception {
    cli.admin.getDeadLetter = r -> GetDeadLetterResponse.newBuilder().setJob(DEAD).build();

    CliHarness.Result result = cli.run("dlq", "show", "21", "--json");

    GetDeadLetterResponse.Builder parsed = GetDeadLetterResponse.newBuilder();
    JsonFormat.parser().merge(result.out(), parsed);
    assertThat(parsed.getJob()).isEqualTo(DEAD);
  }

  @Test
  void anUnknownIdExitsWith3() {
    CliHarness.Result result = cli.run("dlq", "show", "404");

    assertThat(result.exitCode()).isEqualTo(3);
    assertThat(result.err().strip()).isEqualTo("antrean: not found: job 404 not found");
  }

  @Test
  void aJobThatIsNotDeadLetteredExits1WithItsReason() {
    cli.admin.getDeadLetter =
        r -> {
          throw FakeJobService.failure(
              Status.Code.FAILED_PRECONDITION, "job 5 is RUNNING", "NOT_DEAD_LETTERED");
        };

    CliHarness.Result result = cli.run("dlq", "show", "5");

    assertThat(result.exitCode()).isEqualTo(1);
    assertThat(result.err().strip())
        .isEqualTo("antrean: FAILED_PRECONDITION: job 5 is RUNNING [NOT_DEAD_LETTERED]");
  }

  private static Attempt.Builder attempt(
      int number, String worker, Timestamp leased, Timestamp ended, AttemptOutcome outcome) {
    return Attempt.newBuilder()
        .setAttempt(number)
        .setWorkerId(worker)
        .setLeasedAt(leased)
        .setEndedAt(ended)
        .setOutcome(outcome);
  }

  private static String lines(String... lines) {
    return String.join(System.lineSeparator(), lines);
  }
}
