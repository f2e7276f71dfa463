package io.antrean.client.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Timestamp;
import com.google.protobuf.util.JsonFormat;
import io.antrean.proto.v1.ListWorkersResponse;
import io.antrean.proto.v1.WorkerInfo;
import io.antrean.proto.v1.WorkerLiveness;
import io.antrean.proto.v1.WorkerStatus;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class WorkersCommandTest {
  private static final ListWorkersResponse WORKERS =
      ListWorkersResponse.newBuilder()
          .addWorkers(
              WorkerStatus.newBuilder()
                  .setWorkerId("w1")
                  .setInfo(
                      WorkerInfo.newBuilder()
                          .setHost("host-a")
                          .setVersion("0.1.0")
                          .addQueues("mail")
                          .addTypes("email.send")
                          .addTypes("email.bulk")
                          .setConcurrency(8))
                  .setLiveness(WorkerLiveness.WORKER_LIVENESS_LIVE)
                  .setJobsHeld(3)
                  .setLastSeen(Timestamp.newBuilder().setSeconds(1_800_000_000L)))
          .addWorkers(
              WorkerStatus.newBuilder()
                  .setWorkerId("w2")
                  .setInfo(WorkerInfo.newBuilder().addQueues("default"))
                  .setLiveness(WorkerLiveness.WORKER_LIVENESS_LOST)
                  .setLastSeen(Timestamp.newBuilder().setSeconds(1_799_999_000L)))
          .build();

  private final CliHarness cli = new CliHarness();

  @AfterEach
  void stop() throws InterruptedException {
    cli.close();
  }

  @Test
  void workersPrintsOneRowPerWorkerWithStateHostAndHeldJobs() {
    cli.admin.listWorkers = r -> WORKERS;

    CliHarness.Result result = cli.run("workers");

    assertThat(result.exitCode()).isZero();
    assertThat(result.err()).isEmpty();
    assertThat(result.out().lines())
        .containsExactly(
            "WORKER  STATE  HOST    VERSION  QUEUES   TYPES                  CONCURRENCY  HELD"
                + "  LAST SEEN",
            "w1      live   host-a  0.1.0    mail     email.send,email.bulk  8            3   "
                + "  2027-01-15T08:00:00Z",
            "w2      lost   -       -        default  -                      -            0   "
                + "  2027-01-15T07:43:20Z");
  }

  @Test
  void withoutWorkersSaysSo() {
    CliHarness.Result result = cli.run("workers");

    assertThat(result.exitCode()).isZero();
    assertThat(result.out()).isEqualTo("no workers" + System.lineSeparator());
  }

  @Test
  void jsonParsesBackIntoTheResponse() throws Exception {
    cli.admin.listWorkers = r -> WORKERS;

    CliHarness.Result result = cli.run("workers", "--json");

    ListWorkersResponse.Builder parsed = ListWorkersResponse.newBuilder();
    JsonFormat.parser().merge(result.out(), parsed);
    assertThat(parsed.build()).isEqualTo(WORKERS);
  }
}
