package io.antrean.coordinator.grpc;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import com.google.rpc.BadRequest;
import io.antrean.proto.v1.EnqueueBatchRequest;
import io.antrean.proto.v1.EnqueueRequest;
import io.antrean.proto.v1.EnqueueResponse;
import io.antrean.proto.v1.GetJobRequest;
import io.antrean.proto.v1.JobState;
import io.antrean.proto.v1.ProduceRequest;
import io.antrean.proto.v1.ProduceResponse;
import io.grpc.Status;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Produce stream: each enqueue and enqueue_batch is stored and answered under its request id as
 * its unary call would be; a refused request leaves the stream serving; a request the stream cannot
 * carry ends it with INVALID_ARGUMENT; a half-close or a stopping coordinator ends it once every
 * request is answered.
 */
@Timeout(30)
class ProduceStreamTest {
  @TempDir Path dir;
  private InProcessCoordinator server;

  @BeforeEach
  void start() throws Exception {
    server = InProcessCoordinator.start(dir, InProcessCoordinator.Calls.ON_EXECUTORS, "t");
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private static EnqueueRequest.Builder job(String payload) {
    return EnqueueRequest.newBuilder().setType("t").setPayload(ByteString.copyFromUtf8(payload));
  }

  private JobState state(long id) {
    return server.jobs().getJob(GetJobRequest.newBuilder().setId(id).build()).getJob().getState();
  }

  /** The next {@code count} answers by request id. */
  private static Map<Long, ProduceResponse> answers(TestProduceStream stream, int count)
      throws InterruptedException {
    Map<Long, ProduceResponse> byId = new HashMap<>();
    for (int i = 0; i < count; i++) {
      ProduceResponse answer = stream.next();
      assertThat(byId.put(answer.getRequestId(), answer)).as("one answer per request").isNull();
    }
    return byId;
  }

  @Test
  void eachEnqueueAndBatchIsStoredAndAnsweredUnderItsOwnId() throws Exception {
    TestProduceStream stream = new TestProduceStream(server.channel);
    for (long id = 1; id <= 20; id++) {
      stream.enqueue(id, job("{\"n\":" + id + "}"));
    }
    stream.enqueueBatch(
        21, EnqueueBatchRequest.newBuilder().addJobs(job("{\"a\":1}")).addJobs(job("{\"b\":2}")));

    Map<Long, ProduceResponse> byId = answers(stream, 21);
    for (long id = 1; id <= 20; id++) {
      EnqueueResponse stored = byId.get(id).getEnqueue();
      assertThat(stored.getJob().getPayload().toStringUtf8()).isEqualTo("{\"n\":" + id + "}");
      assertThat(state(stored.getJob().getId())).isEqualTo(JobState.JOB_STATE_PENDING);
    }
    assertThat(byId.get(21L).getEnqueueBatch().getResultsList())
        .extracting(r -> r.getJob().getPayload().toStringUtf8())
        .containsExactly("{\"a\":1}", "{\"b\":2}");
    assertThat(stream.end).isNotDone();
  }

  @Test
  void aRefusedRequestIsAnsweredWithItsCallsStatusAndTheStreamGoesOn() throws Exception {
    TestProduceStream stream = new TestProduceStream(server.channel);
    stream.enqueue(1, job("{}").setType(""));
    ProduceResponse refused = stream.next();
    assertThat(refused.getRequestId()).isEqualTo(1);
    assertThat(refused.getError().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT.value());
    assertThat(
            refused
                .getError()
                .getDetails(0)
                .unpack(BadRequest.class)
                .getFieldViolations(0)
                .getField())
        .isEqualTo("type");

    stream.enqueue(2, job("{\"x\":1}").setIdempotencyKey("k"));
    long first = stream.next().getEnqueue().getJob().getId();
    stream.enqueue(3, job("{\"x\":1}").setIdempotencyKey("k"));
    assertThat(stream.next().getEnqueue().getJob().getId()).isEqualTo(first);
    stream.enqueue(4, job("{\"x\":2}").setIdempotencyKey("k"));
    ProduceResponse conflict = stream.next();
    assertThat(TestProduceStream.error(conflict).getStatus().getCode())
        .isEqualTo(Status.Code.ALREADY_EXISTS);

    stream.enqueue(5, job("{}"));
    assertThat(stream.next().getEnqueue().getJob().getId()).isPositive();
    assertThat(stream.end).isNotDone();
  }

  @Test
  void aRequestIdOfZeroOrNoRequestEndsTheStreamNamingTheFieldAndTheCoordinatorServesOn()
      throws Exception {
    TestProduceStream zero = new TestProduceStream(server.channel);
    zero.enqueue(0, job("{}"));
    Status zeroStatus = zero.end.get(10, TimeUnit.SECONDS);
    assertThat(zeroStatus.getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
    assertThat(zeroStatus.getDescription()).contains("request_id");

    TestProduceStream empty = new TestProduceStream(server.channel);
    empty.requests.onNext(ProduceRequest.newBuilder().setRequestId(1).build());
    Status emptyStatus = empty.end.get(10, TimeUnit.SECONDS);
    assertThat(emptyStatus.getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
    assertThat(emptyStatus.getDescription()).contains("call");

    TestProduceStream fine = new TestProduceStream(server.channel);
    fine.enqueue(1, job("{}"));
    assertThat(state(fine.next().getEnqueue().getJob().getId()))
        .isEqualTo(JobState.JOB_STATE_PENDING);
  }

  @Test
  void aHalfCloseEndsTheStreamOnceItsEnqueuesAreAnswered() throws Exception {
    TestProduceStream stream = new TestProduceStream(server.channel);
    for (long id = 1; id <= 5; id++) {
      stream.enqueue(id, job("{}"));
    }
    stream.requests.onCompleted();

    assertThat(stream.end.get(10, TimeUnit.SECONDS).getCode()).isEqualTo(Status.Code.OK);
    assertThat(stream.answers).hasSize(5).allSatisfy(a -> assertThat(a.hasEnqueue()).isTrue());
  }

  @Test
  void aStoppingCoordinatorEndsItsProduceStreamsAndAnswersWhatTheyHeld() throws Exception {
    TestProduceStream stream = new TestProduceStream(server.channel);
    stream.enqueue(1, job("{}"));
    long stored = stream.next().getEnqueue().getJob().getId();

    CompletableFuture<Void> stopped = CompletableFuture.runAsync(server.coordinator::close);

    // Ended by the coordinator (OK), not cut off when its shutdown grace ran out.
    assertThat(stream.end.get(10, TimeUnit.SECONDS).getCode()).isEqualTo(Status.Code.OK);
    stopped.get(20, TimeUnit.SECONDS);
    assertThat(stored).isPositive();
  }
}
