package io.antrean.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.google.protobuf.Any;
import com.google.protobuf.Timestamp;
import com.google.protobuf.util.Durations;
import com.google.rpc.BadRequest;
import com.google.rpc.Code;
import io.antrean.proto.v1.ListQueuesRequest;
import io.antrean.proto.v1.ListQueuesResponse;
import io.antrean.proto.v1.PauseQueueRequest;
import io.antrean.proto.v1.PauseQueueResponse;
import io.antrean.proto.v1.QueueInfo;
import io.antrean.proto.v1.QueueStats;
import io.antrean.proto.v1.ResumeQueueRequest;
import io.antrean.proto.v1.ResumeQueueResponse;
import io.grpc.Deadline;
import io.grpc.Status;
import io.grpc.protobuf.StatusProto;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class QueueControlTest {
  private static final QueueInfo MAIL =
      QueueInfo.newBuilder()
          .setName("mail")
          .setPaused(true)
          .setPausedAt(Timestamp.newBuilder().setSeconds(1_799_990_000L))
          .setStats(
              QueueStats.newBuilder()
                  .setQueue("mail")
                  .setPending(4)
                  .setOldestPendingAge(Durations.fromSeconds(90)))
          .build();
  private static final QueueInfo DEFAULT =
      QueueInfo.newBuilder()
          .setName("default")
          .setStats(QueueStats.newBuilder().setQueue("default").setSucceeded(3))
          .build();

  private final FakeJobService service = new FakeJobService();
  private final FakeAdminService admin = new FakeAdminService();
  private InProcessCoordinator coordinator;
  private AntreanClient client;

  @BeforeEach
  void start() {
    coordinator = InProcessCoordinator.start(service, admin);
    client = coordinator.client(Duration.ofSeconds(5));
  }

  @AfterEach
  void stop() throws InterruptedException {
    client.close();
    coordinator.close();
  }

  @Test
  void listQueuesReturnsTheQueuesInTheServersOrder() {
    admin.listQueues =
        r -> ListQueuesResponse.newBuilder().addQueues(DEFAULT).addQueues(MAIL).build();

    assertThat(client.listQueues()).containsExactly(DEFAULT, MAIL);
    assertThat(admin.requestsOf(ListQueuesRequest.class))
        .containsExactly(ListQueuesRequest.getDefaultInstance());
  }

  @Test
  void noQueuesIsAnEmptyList() {
    assertThat(client.listQueues()).isEmpty();
  }

  @Test
  void pauseSendsTheNameAndReturnsTheQueueAfterTheChange() {
    admin.pauseQueue = r -> PauseQueueResponse.newBuilder().setQueue(MAIL).build();

    assertThat(client.pauseQueue("mail")).isEqualTo(MAIL);
    assertThat(admin.requestsOf(PauseQueueRequest.class))
        .containsExactly(PauseQueueRequest.newBuilder().setQueue("mail").build());
  }

  @Test
  void resumeSendsTheNameAndReturnsTheQueueAfterTheChange() {
    QueueInfo resumed = MAIL.toBuilder().setPaused(false).clearPausedAt().build();
    admin.resumeQueue = r -> ResumeQueueResponse.newBuilder().setQueue(resumed).build();

    assertThat(client.resumeQueue("mail")).isEqualTo(resumed);
    assertThat(admin.requestsOf(ResumeQueueRequest.class))
        .containsExactly(ResumeQueueRequest.newBuilder().setQueue("mail").build());
  }

  @Test
  void aBadQueueNameIsAnInvalidArgumentWithTheFieldViolation() {
    admin.pauseQueue = r -> badQueue();
    admin.resumeQueue = r -> badQueue();

    for (Runnable call :
        new Runnable[] {() -> client.pauseQueue("no spaces"), () -> client.resumeQueue("")}) {
      InvalidArgumentException e = catchThrowableOfType(InvalidArgumentException.class, call::run);
      assertThat(e.description()).isEqualTo("bad queue name");
      assertThat(e.fieldViolations())
          .containsExactly(new FieldViolation("queue", "must match [a-z0-9._-]{1,64}"));
    }
  }

  @Test
  void otherFailuresGoThroughTheSameTable() {
    admin.listQueues =
        r -> {
          throw Status.UNAVAILABLE.withDescription("store down").asRuntimeException();
        };
    admin.pauseQueue =
        r -> {
          throw Status.PERMISSION_DENIED.withDescription("admin only").asRuntimeException();
        };

    assertThat(catchThrowableOfType(UnavailableException.class, client::listQueues).statusCode())
        .isEqualTo(Status.Code.UNAVAILABLE);
    AntreanException denied =
        catchThrowableOfType(AntreanException.class, () -> client.pauseQueue("mail"));
    assertThat(denied).isExactlyInstanceOf(AntreanException.class);
    assertThat(denied.statusCode()).isEqualTo(Status.Code.PERMISSION_DENIED);
  }

  @Test
  void everyQueueCallCarriesTheClientsDeadline() {
    client.listQueues();
    client.pauseQueue("mail");
    client.withTimeout(Duration.ofMillis(1500)).resumeQueue("mail");

    assertThat(admin.deadlines).hasSize(3);
    admin.deadlines.subList(0, 2).forEach(d -> assertRemaining(d, Duration.ofSeconds(5)));
    assertRemaining(admin.deadlines.get(2), Duration.ofMillis(1500));
  }

  static <T> T badQueue() {
    throw StatusProto.toStatusRuntimeException(
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

  private static void assertRemaining(Deadline deadline, Duration timeout) {
    assertThat(deadline).isNotNull();
    assertThat(deadline.timeRemaining(TimeUnit.MILLISECONDS))
        .isLessThanOrEqualTo(timeout.toMillis())
        .isGreaterThan(timeout.toMillis() - 1000);
  }
}
