package io.antrean.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.google.protobuf.Any;
import com.google.rpc.Code;
import com.google.rpc.ErrorInfo;
import com.google.rpc.RetryInfo;
import io.antrean.proto.v1.GetJobResponse;
import io.antrean.proto.v1.Job;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.protobuf.StatusProto;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The client retries calls the coordinator refused as overloaded, after its hint, a few times. */
@Timeout(10)
class OverloadRetryTest {
  private final FakeJobService service = new FakeJobService();
  private final List<Duration> waits = new CopyOnWriteArrayList<>();
  private final AtomicInteger calls = new AtomicInteger();
  private InProcessCoordinator coordinator;

  @BeforeEach
  void start() {
    coordinator = InProcessCoordinator.start(service);
  }

  @AfterEach
  void stop() throws InterruptedException {
    coordinator.close();
  }

  private GrpcAntreanClient client(int retries) {
    return GrpcAntreanClient.forChannel(coordinator.channel())
        .timeout(Duration.ofSeconds(5))
        .overloadRetries(retries)
        .sleeper(waits::add)
        .build();
  }

  private static StatusRuntimeException overloaded(long retryMillis) {
    return StatusProto.toStatusRuntimeException(
        com.google.rpc.Status.newBuilder()
            .setCode(Code.RESOURCE_EXHAUSTED.getNumber())
            .setMessage("busy")
            .addDetails(
                Any.pack(
                    ErrorInfo.newBuilder()
                        .setReason("OVERLOADED")
                        .setDomain("antrean.io")
                        .putMetadata("limit", "in_flight_bytes")
                        .build()))
            .addDetails(
                Any.pack(
                    RetryInfo.newBuilder()
                        .setRetryDelay(
                            com.google.protobuf.Duration.newBuilder()
                                .setNanos((int) retryMillis * 1_000_000))
                        .build()))
            .build());
  }

  /** Refuses the first {@code refusals} GetJob calls as overloaded, then answers. */
  private void refuseFirst(int refusals) {
    service.getJob =
        r -> {
          if (calls.incrementAndGet() <= refusals) {
            throw overloaded(250);
          }
          return GetJobResponse.newBuilder().setJob(Job.newBuilder().setId(r.getId())).build();
        };
  }

  @Test
  void aRefusedCallIsMadeAgainAfterTheCoordinatorsHint() {
    refuseFirst(2);

    assertThat(client(3).getJob(7).getId()).isEqualTo(7);
    assertThat(calls).hasValue(3);
    assertThat(waits).containsExactly(Duration.ofMillis(250), Duration.ofMillis(250));
  }

  @Test
  void afterTheRetriesTheLastRefusalIsThrownWithItsHintAndLimit() {
    refuseFirst(Integer.MAX_VALUE);

    OverloadedException e =
        catchThrowableOfType(OverloadedException.class, () -> client(3).getJob(7));

    assertThat(calls).hasValue(4);
    assertThat(waits).hasSize(3);
    assertThat(e.statusCode()).isEqualTo(Status.Code.RESOURCE_EXHAUSTED);
    assertThat(e.reason()).hasValue("OVERLOADED");
    assertThat(e.retryAfter()).hasValue(Duration.ofMillis(250));
    assertThat(e.limit()).hasValue("in_flight_bytes");
    assertThat(e.isRetryable()).isTrue();
  }

  @Test
  void zeroRetriesThrowsTheFirstRefusal() {
    refuseFirst(1);

    catchThrowableOfType(OverloadedException.class, () -> client(0).getJob(7));
    assertThat(calls).hasValue(1);
    assertThat(waits).isEmpty();
  }

  @Test
  void otherResourceExhaustedAnswersAreNotRetried() {
    service.getJob =
        r -> {
          calls.incrementAndGet();
          throw Status.RESOURCE_EXHAUSTED.withDescription("message too large").asRuntimeException();
        };

    AntreanException e = catchThrowableOfType(AntreanException.class, () -> client(3).getJob(7));

    assertThat(e).isExactlyInstanceOf(AntreanException.class);
    assertThat(calls).hasValue(1);
    assertThat(waits).isEmpty();
  }
}
