package io.antrean.client.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Timestamp;
import com.google.protobuf.util.Durations;
import io.antrean.client.GrpcAntreanClient;
import io.antrean.proto.v1.CreateScheduleRequest;
import io.antrean.proto.v1.CreateScheduleResponse;
import io.antrean.proto.v1.DeleteScheduleRequest;
import io.antrean.proto.v1.DeleteScheduleResponse;
import io.antrean.proto.v1.ListSchedulesRequest;
import io.antrean.proto.v1.ListSchedulesResponse;
import io.antrean.proto.v1.MisfirePolicy;
import io.antrean.proto.v1.OverlapPolicy;
import io.antrean.proto.v1.PauseScheduleRequest;
import io.antrean.proto.v1.PauseScheduleResponse;
import io.antrean.proto.v1.Schedule;
import io.antrean.proto.v1.ScheduleDefinition;
import io.antrean.proto.v1.ScheduleServiceGrpc;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.stub.StreamObserver;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@code antrean schedule ...} against a fake ScheduleService on an in-process server. */
@Timeout(10)
class ScheduleCommandTest {
  private static final Timestamp NEXT = Timestamp.newBuilder().setSeconds(1_800_003_600L).build();

  private final List<Object> requests = new CopyOnWriteArrayList<>();
  private Server server;
  private ManagedChannel channel;

  private static Schedule schedule(ScheduleDefinition d) {
    return Schedule.newBuilder()
        .setDefinition(d)
        .setNextFireAt(NEXT)
        .addUpcoming(NEXT)
        .addUpcoming(Timestamp.newBuilder().setSeconds(1_800_090_000L))
        .setFires(4)
        .setMisses(1)
        .build();
  }

  @BeforeEach
  void start() throws Exception {
    String name = InProcessServerBuilder.generateName();
    ScheduleServiceGrpc.ScheduleServiceImplBase fake =
        new ScheduleServiceGrpc.ScheduleServiceImplBase() {
          @Override
          public void createSchedule(
              CreateScheduleRequest r, StreamObserver<CreateScheduleResponse> o) {
            requests.add(r);
            o.onNext(
                CreateScheduleResponse.newBuilder().setSchedule(schedule(r.getSchedule())).build());
            o.onCompleted();
          }

          @Override
          public void listSchedules(
              ListSchedulesRequest r, StreamObserver<ListSchedulesResponse> o) {
            o.onNext(
                ListSchedulesResponse.newBuilder()
                    .addSchedules(
                        schedule(
                            ScheduleDefinition.newBuilder()
                                .setName("nightly")
                                .setCron("0 3 * * *")
                                .setTimeZone("Europe/Berlin")
                                .setTemplate(
                                    io.antrean.proto.v1.EnqueueRequest.newBuilder()
                                        .setQueue("reports")
                                        .setType("report"))
                                .build()))
                    .build());
            o.onCompleted();
          }

          @Override
          public void pauseSchedule(
              PauseScheduleRequest r, StreamObserver<PauseScheduleResponse> o) {
            o.onError(Status.NOT_FOUND.withDescription("schedule 'x' not found").asException());
          }

          @Override
          public void deleteSchedule(
              DeleteScheduleRequest r, StreamObserver<DeleteScheduleResponse> o) {
            requests.add(r);
            o.onNext(DeleteScheduleResponse.getDefaultInstance());
            o.onCompleted();
          }
        };
    server = InProcessServerBuilder.forName(name).directExecutor().addService(fake).build().start();
    channel = InProcessChannelBuilder.forName(name).directExecutor().build();
  }

  @AfterEach
  void stop() throws Exception {
    channel.shutdownNow();
    server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
  }

  private CliHarness.Result run(String... args) {
    return CliHarness.run(
        (target, timeout) -> GrpcAntreanClient.forChannel(channel).timeout(timeout).build(), args);
  }

  @Test
  void createSendsTheDefinitionAndPrintsTheNextFireTimes() {
    CliHarness.Result result =
        run(
            "schedule",
            "create",
            "nightly",
            "--cron",
            "0 3 * * *",
            "--time-zone",
            "Europe/Berlin",
            "--type",
            "report",
            "--queue",
            "reports",
            "--payload",
            "{}",
            "--misfire",
            "run_once",
            "--overlap",
            "skip");

    assertThat(result.exitCode()).as(result.err()).isZero();
    ScheduleDefinition sent = ((CreateScheduleRequest) requests.get(0)).getSchedule();
    assertThat(sent.getName()).isEqualTo("nightly");
    assertThat(sent.getCron()).isEqualTo("0 3 * * *");
    assertThat(sent.getTimeZone()).isEqualTo("Europe/Berlin");
    assertThat(sent.getTemplate().getQueue()).isEqualTo("reports");
    assertThat(sent.getTemplate().getPayload().toStringUtf8()).isEqualTo("{}");
    assertThat(sent.getMisfirePolicy()).isEqualTo(MisfirePolicy.MISFIRE_POLICY_RUN_ONCE);
    assertThat(sent.getOverlapPolicy()).isEqualTo(OverlapPolicy.OVERLAP_POLICY_SKIP);
    assertThat(result.out())
        .contains("schedule nightly: cron '0 3 * * *' Europe/Berlin")
        .contains("fires: 4, misses: 1")
        .contains("2027-01-15T09:00:00Z");
  }

  @Test
  void createWithAnIntervalSendsIt() {
    CliHarness.Result result = run("schedule", "create", "tick", "--every", "30s", "--type", "t");

    assertThat(result.exitCode()).as(result.err()).isZero();
    assertThat(((CreateScheduleRequest) requests.get(0)).getSchedule().getInterval())
        .isEqualTo(Durations.fromSeconds(30));
  }

  @Test
  void listPrintsOneRowPerSchedule() {
    CliHarness.Result result = run("schedule", "list");

    assertThat(result.exitCode()).isZero();
    assertThat(result.out().lines()).hasSize(2).first().asString().startsWith("SCHEDULE");
    assertThat(result.out().lines().skip(1).findFirst().orElseThrow())
        .contains("nightly", "cron '0 3 * * *' Europe/Berlin", "reports/report", "4", "1");
  }

  @Test
  void unknownScheduleFailsWithTheNotFoundExitCode() {
    CliHarness.Result result = run("schedule", "pause", "x");

    assertThat(result.exitCode()).isEqualTo(ExitCodes.NOT_FOUND);
    assertThat(result.err()).contains("not found");
  }

  @Test
  void deleteSaysSo() {
    CliHarness.Result result = run("schedule", "delete", "nightly");

    assertThat(result.exitCode()).isZero();
    assertThat(((DeleteScheduleRequest) requests.get(0)).getName()).isEqualTo("nightly");
    assertThat(result.out()).contains("schedule nightly deleted");
  }
}
