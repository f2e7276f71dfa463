package io.antrean.client.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.util.JsonFormat;
import io.antrean.proto.v1.Job;
import io.antrean.proto.v1.JobState;
import io.antrean.proto.v1.ListJobsRequest;
import io.antrean.proto.v1.ListJobsResponse;
import io.grpc.Status;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class ListCommandTest {
  private static final ListJobsResponse PAGE =
      ListJobsResponse.newBuilder()
          .addJobs(job(12, "report.build", JobState.JOB_STATE_RUNNING, 1, ""))
          .addJobs(
              job(11, "email.send", JobState.JOB_STATE_FAILED, 1, "no recipient\nat Handler.run"))
          .setNextPageToken("page-2")
          .build();

  private final CliHarness cli = new CliHarness();

  @AfterEach
  void stop() throws InterruptedException {
    cli.close();
  }

  @Test
  void printsATableAndTheNextPageToken() {
    cli.service.listJobs = r -> PAGE;

    CliHarness.Result result = cli.run("list");

    assertThat(result.exitCode()).isZero();
    assertThat(result.out().lines())
        .containsExactly(
            "ID  QUEUE    TYPE          STATE    ATTEMPTS  LAST ERROR",
            "12  default  report.build  RUNNING  1         -",
            "11  default  email.send    FAILED   1         no recipient at Handler.run",
            "next page: --page-token page-2");
  }

  @Test
  void filtersAndPagingLandInTheRequest() {
    cli.run(
        "list",
        "--queue",
        "mail",
        "--type",
        "email.send",
        "--state",
        "failed",
        "--limit",
        "20",
        "--page-token",
        "abc");

    assertThat(cli.service.requestsOf(ListJobsRequest.class))
        .containsExactly(
            ListJobsRequest.newBuilder()
                .setQueue("mail")
                .setType("email.send")
                .setState(JobState.JOB_STATE_FAILED)
                .setPageSize(20)
                .setPageToken("abc")
                .build());
  }

  @Test
  void noFiltersSendAnEmptyRequest() {
    cli.run("list");

    assertThat(cli.service.requestsOf(ListJobsRequest.class))
        .containsExactly(ListJobsRequest.getDefaultInstance());
  }

  @Test
  void anEmptyPageSaysSo() {
    CliHarness.Result result = cli.run("list", "--state", "PENDING");

    assertThat(result.out().strip()).isEqualTo("no jobs");
  }

  @Test
  void jsonOutputParsesBackIntoTheResponse() throws Exception {
    cli.service.listJobs = r -> PAGE;

    CliHarness.Result result = cli.run("list", "--json");

    ListJobsResponse.Builder parsed = ListJobsResponse.newBuilder();
    JsonFormat.parser().merge(result.out(), parsed);
    assertThat(parsed.build()).isEqualTo(PAGE);
  }

  @Test
  void jsonOutputUsesTheProtoFieldNamesLikeTheHttpApi() {
    cli.service.listJobs = r -> PAGE;

    String out = cli.run("list", "--json").out();

    assertThat(out).contains("\"next_page_token\": \"page-2\"", "\"content_type\"");
    assertThat(out).doesNotContain("nextPageToken", "contentType");
  }

  @Test
  void anUnknownStateIsAUsageErrorAndABadTokenAServerError() {
    assertThat(cli.run("list", "--state", "done").exitCode()).isEqualTo(2);

    cli.service.listJobs =
        r -> {
          throw Status.INVALID_ARGUMENT.withDescription("unknown page token").asRuntimeException();
        };
    CliHarness.Result result = cli.run("list", "--page-token", "forged");
    assertThat(result.exitCode()).isEqualTo(1);
    assertThat(result.err()).contains("unknown page token");
  }

  private static Job job(long id, String type, JobState state, int attempts, String lastError) {
    return Job.newBuilder()
        .setId(id)
        .setQueue("default")
        .setType(type)
        .setState(state)
        .setAttempts(attempts)
        .setLastError(lastError)
        .build();
  }
}
