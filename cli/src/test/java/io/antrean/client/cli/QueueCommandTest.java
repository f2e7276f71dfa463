package io.antrean.client.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Any;
import com.google.protobuf.Timestamp;
import com.google.protobuf.util.Durations;
import com.google.protobuf.util.JsonFormat;
import com.google.rpc.BadRequest;
import com.google.rpc.Code;
import io.antrean.client.FakeAdminService;
import io.antrean.proto.v1.ListQueuesResponse;
import io.antrean.proto.v1.PauseQueueRequest;
import io.antrean.proto.v1.PauseQueueResponse;
import io.antrean.proto.v1.QueueInfo;
import io.antrean.proto.v1.QueueStats;
import io.antrean.proto.v1.ResumeQueueRequest;
import io.antrean.proto.v1.ResumeQueueResponse;
import io.antrean.proto.v1.SetQueueLimitsRequest;
import io.antrean.proto.v1.SetQueueLimitsResponse;
import io.grpc.Status;
import io.grpc.protobuf.StatusProto;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class QueueCommandTest {
  private static final ListQueuesResponse QUEUES =
      ListQueuesResponse.newBuilder()
          .addQueues(
              QueueInfo.newBuilder()
                  .setName("default")
                  .setStats(
                      QueueStats.newBuilder()
                          .setQueue("default")
                          .setPending(3)
                          .setScheduled(1)
                          .setRunning(2)
                          .setSucceeded(40)
                          .setFailed(1)
                          .setOldestPendingAge(Durations.fromMillis(1500))))
          .addQueues(
              QueueInfo.newBuilder()
                  .setName("mail")
                  .setPaused(true)
                  .setPausedAt(Timestamp.newBuilder().setSeconds(1_799_996_400L))
                  .setStats(
                      QueueStats.newBuilder()
                          .setQueue("mail")
                          .setPending(12)
                          .setSucceeded(7)
                          .setOldestPendingAge(Durations.fromSeconds(3_700))))
          .addQueues(
              QueueInfo.newBuilder()
                  .setName("reports")
                  .setPaused(true)
                  .setPausedAt(Timestamp.newBuilder().setSeconds(1_800_000_000L))
                  .setStats(QueueStats.newBuilder().setQueue("reports")))
          .build();

  private final CliHarness cli = new CliHarness();

  @AfterEach
  void stop() throws InterruptedException {
    cli.close();
  }

  @Test
  void listPrintsOneRowPerQueueWithPauseStateAndCounts() {
    cli.admin.listQueues = r -> QUEUES;

    CliHarness.Result result = cli.run("queue", "list");

    assertThat(result.exitCode()).isZero();
    assertThat(result.err()).isEmpty();
    assertThat(result.out().lines())
        .containsExactly(
            "QUEUE    PAUSED                PENDING  SCHEDULED  RUNNING  SUCCEEDED  FAILED"
                + "  OLDEST PENDING",
            "default  no                    3        1          2        40         1       1.5s",
            "mail     2027-01-15T07:00:00Z  12       0          0        7          0       1h01m",
            "reports  2027-01-15T08:00:00Z  0        0          0        0          0       -");
  }

  @Test
  void listWithoutQueuesSaysSo() {
    CliHarness.Result result = cli.run("queue", "list");

    assertThat(result.exitCode()).isZero();
    assertThat(result.out()).isEqualTo("no queues" + System.lineSeparator());
  }

  @Test
  void listJsonParsesBackIntoTheResponse() throws Exception {
    cli.admin.listQueues = r -> QUEUES;

    CliHarness.Result result = cli.run("queue", "list", "--json");

    assertThat(result.exitCode()).isZero();
    ListQueuesResponse.Builder parsed = ListQueuesResponse.newBuilder();
    JsonFormat.parser().merge(result.out(), parsed);
    assertThat(parsed.build()).isEqualTo(QUEUES);
  }

  @Test
  void pauseSaysWhenTheQueueWasPausedAndWhatThatMeans() {
    CliHarness.Result result = cli.run("queue", "pause", "mail");

    assertThat(result.exitCode()).isZero();
    assertThat(result.out())
        .isEqualTo(
            "queue mail paused at 2027-01-15T08:00:00Z; jobs are accepted but not leased"
                + System.lineSeparator());
    assertThat(cli.admin.requestsOf(PauseQueueRequest.class))
        .containsExactly(PauseQueueRequest.newBuilder().setQueue("mail").build());
  }

  @Test
  void resumeSaysTheQueueIsLeasedAgain() {
    CliHarness.Result result = cli.run("queue", "resume", "mail");

    assertThat(result.exitCode()).isZero();
    assertThat(result.out())
        .isEqualTo("queue mail resumed; its jobs are leased again" + System.lineSeparator());
    assertThat(cli.admin.requestsOf(ResumeQueueRequest.class))
        .containsExactly(ResumeQueueRequest.newBuilder().setQueue("mail").build());
  }

  @Test
  void pauseAndResumeJsonParseBackIntoTheResponses() throws Exception {
    CliHarness.Result paused = cli.run("queue", "pause", "mail", "--json");
    CliHarness.Result resumed = cli.run("queue", "resume", "mail", "--json");

    PauseQueueResponse.Builder pause = PauseQueueResponse.newBuilder();
    JsonFormat.parser().merge(paused.out(), pause);
    assertThat(pause.build().getQueue())
        .isEqualTo(
            QueueInfo.newBuilder()
                .setName("mail")
                .setPaused(true)
                .setPausedAt(FakeAdminService.PAUSED_AT)
                .build());
    ResumeQueueResponse.Builder resume = ResumeQueueResponse.newBuilder();
    JsonFormat.parser().merge(resumed.out(), resume);
    assertThat(resume.build().getQueue()).isEqualTo(QueueInfo.newBuilder().setName("mail").build());
    assertThat(resumed.out()).contains("\"paused\": false");
  }

  @Test
  void limitSetsBothLimitsAndSaysWhatTheyAre() {
    CliHarness.Result result =
        cli.run("queue", "limit", "mail", "--max-running", "10", "--max-running-per-key", "1");

    assertThat(result.exitCode()).isZero();
    assertThat(result.out())
        .isEqualTo(
            "queue mail limits: at most 10 running, at most 1 running per concurrency key"
                + System.lineSeparator());
    assertThat(cli.admin.requestsOf(SetQueueLimitsRequest.class))
        .containsExactly(
            SetQueueLimitsRequest.newBuilder()
                .setQueue("mail")
                .setMaxRunning(10)
                .setMaxRunningPerKey(1)
                .build());
  }

  @Test
  void limitClearRemovesEveryLimit() throws Exception {
    CliHarness.Result result = cli.run("queue", "limit", "mail", "--clear");
    CliHarness.Result json =
        cli.run("queue", "limit", "mail", "--max-running-per-key", "2", "--json");

    assertThat(result.out())
        .isEqualTo("queue mail has no concurrency limits" + System.lineSeparator());
    assertThat(cli.admin.requestsOf(SetQueueLimitsRequest.class).get(0))
        .isEqualTo(SetQueueLimitsRequest.newBuilder().setQueue("mail").build());
    SetQueueLimitsResponse.Builder parsed = SetQueueLimitsResponse.newBuilder();
    JsonFormat.parser().merge(json.out(), parsed);
    assertThat(parsed.getQueue().getLimits().getMaxRunningPerKey()).isEqualTo(2);
  }

  @Test
  void limitWithoutALimitOrWithClearAndALimitIsAUsageError() {
    CliHarness.Result none = cli.run("queue", "limit", "mail");
    CliHarness.Result both = cli.run("queue", "limit", "mail", "--clear", "--max-running", "3");

    assertThat(none.exitCode()).isEqualTo(2);
    assertThat(both.exitCode()).isEqualTo(2);
    assertThat(cli.admin.requestsOf(SetQueueLimitsRequest.class)).isEmpty();
  }

  @Test
  void aBadQueueNameExitsOneWithTheFieldViolation() {
    cli.admin.pauseQueue =
        r -> {
          throw badQueue();
        };
    cli.admin.resumeQueue =
        r -> {
          throw badQueue();
        };

    for (String command : new String[] {"pause", "resume"}) {
      CliHarness.Result result = cli.run("queue", command, "Bad Name");

      assertThat(result.exitCode()).isEqualTo(1);
      assertThat(result.out()).isEmpty();
      assertThat(result.err().lines())
          .containsExactly(
              "antrean: INVALID_ARGUMENT: bad queue name", "queue: must match [a-z0-9._-]{1,64}");
    }
  }

  @Test
  void anUnavailableCoordinatorExitsFour() {
    cli.admin.listQueues =
        r -> {
          throw Status.UNAVAILABLE.withDescription("store down").asRuntimeException();
        };

    CliHarness.Result result = cli.run("queue", "list");

    assertThat(result.exitCode()).isEqualTo(4);
    assertThat(result.err()).contains("is unavailable").contains("store down");
  }

  @Test
  void usageErrorsExitTwo() {
    CliHarness.Result noCommand = cli.run("queue");
    CliHarness.Result noName = cli.run("queue", "pause");

    assertThat(noCommand.exitCode()).isEqualTo(2);
    assertThat(noCommand.err()).contains("Missing queue command: list, pause, resume or limit");
    assertThat(noName.exitCode()).isEqualTo(2);
    assertThat(noName.err()).contains("QUEUE");
    assertThat(cli.targets).isEmpty();
  }

  private static RuntimeException badQueue() {
    return StatusProto.toStatusRuntimeException(
        com.google.rpc.Status.newBuilder()
            .setCode(Code.INVALID_ARGUMENT_VALUE)
            .setMessage("bad queue name")
            .addDetails(
                Any.pack(
                    BadRequest.newBuilder()
                        .addFieldViolations(
                            BadRequest.FieldViolation.newBuilder()
                                .setField("queue")
                                .setDescription("must match [a-z0-9._-]{1,64}"))
                        .build()))
            .build());
  }
}
