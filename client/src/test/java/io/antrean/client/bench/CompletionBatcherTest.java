package io.antrean.client.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.antrean.proto.v1.CompleteBatchRequest;
import io.antrean.proto.v1.CompleteBatchResponse;
import io.antrean.proto.v1.CompleteItem;
import io.antrean.proto.v1.CompleteOutcome;
import io.antrean.proto.v1.CompleteRequest;
import io.antrean.proto.v1.CompleteResponse;
import io.antrean.proto.v1.CompleteStatus;
import io.antrean.proto.v1.Job;
import io.antrean.proto.v1.Lease;
import io.antrean.proto.v1.WorkerServiceGrpc;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.stub.StreamObserver;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.LongStream;
import javax.annotation.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link CompletionBatcher} against a WorkerService that holds every call until the test answers
 * it, so what is sent while a batch is in flight is seen exactly.
 */
@Timeout(10)
class CompletionBatcherTest {
  private static final long WAIT_SECONDS = 5;

  /** A call the server holds: what was asked, and where to answer. */
  private record Held<Q, R>(Q request, StreamObserver<R> answer) {
    void reply(R response) {
      answer.onNext(response);
      answer.onCompleted();
    }
  }

  private final BlockingQueue<Held<CompleteBatchRequest, CompleteBatchResponse>> batches =
      new LinkedBlockingQueue<>();
  private final BlockingQueue<Held<CompleteRequest, CompleteResponse>> completes =
      new LinkedBlockingQueue<>();
  private final BlockingQueue<String> answered = new LinkedBlockingQueue<>();
  private final BlockingQueue<String> failures = new LinkedBlockingQueue<>();
  private final AtomicInteger fallbacks = new AtomicInteger();
  private final AtomicBoolean batchUnimplemented = new AtomicBoolean();
  private Server server;
  private ManagedChannel channel;
  private CompletionBatcher batcher;

  @BeforeEach
  void start() throws Exception {
    String name = InProcessServerBuilder.generateName();
    server =
        InProcessServerBuilder.forName(name)
            .addService(
                new WorkerServiceGrpc.WorkerServiceImplBase() {
                  @Override
                  public void completeBatch(
                      CompleteBatchRequest request,
                      StreamObserver<CompleteBatchResponse> observer) {
                    batches.add(new Held<>(request, observer));
                  }

                  @Override
                  public void complete(
                      CompleteRequest request, StreamObserver<CompleteResponse> observer) {
                    completes.add(new Held<>(request, observer));
                  }
                })
            .build()
            .start();
    channel = InProcessChannelBuilder.forName(name).build();
    batcher =
        new CompletionBatcher(
            "w1",
            WorkerServiceGrpc.newStub(channel).withExecutor(Runnable::run),
            Duration.ofSeconds(WAIT_SECONDS),
            batchUnimplemented,
            new CompletionBatcher.Acknowledgements() {
              @Override
              public void answered(int jobs, int completed) {
                answered.add(jobs + "/" + completed);
              }

              @Override
              public void failed(String what, @Nullable Throwable cause) {
                Status status = cause == null ? null : Status.fromThrowable(cause);
                failures.add(status == null ? what : what + ": " + status.getCode());
              }

              @Override
              public void fellBackToUnary() {
                fallbacks.incrementAndGet();
              }
            });
  }

  @AfterEach
  void stop() throws InterruptedException {
    channel.shutdownNow();
    server.shutdownNow();
    channel.awaitTermination(WAIT_SECONDS, TimeUnit.SECONDS);
    server.awaitTermination(WAIT_SECONDS, TimeUnit.SECONDS);
  }

  @Test
  void aJobIsSentAtOnceWhenNoBatchIsInFlight() throws Exception {
    batcher.addAll(jobs(1, 1));

    Held<CompleteBatchRequest, CompleteBatchResponse> batch = nextBatch();
    assertThat(batch.request().getWorkerId()).isEqualTo("w1");
    assertThat(batch.request().getItemsList())
        .containsExactly(CompleteItem.newBuilder().setJobId(1).setFencingToken(1001).build());
    batch.reply(outcomes(batch, CompleteStatus.COMPLETE_STATUS_COMPLETED));

    assertThat(nextAnswer()).isEqualTo("1/1");
    assertThat(failures).isEmpty();
  }

  @Test
  void jobsFinishedWhileABatchIsInFlightGoTogetherInTheNextInOrder() throws Exception {
    batcher.addAll(jobs(1, 1));
    Held<CompleteBatchRequest, CompleteBatchResponse> first = nextBatch();

    batcher.addAll(jobs(2, 3));
    batcher.addAll(jobs(4, 4));
    first.reply(outcomes(first, CompleteStatus.COMPLETE_STATUS_COMPLETED));
    Held<CompleteBatchRequest, CompleteBatchResponse> second = nextBatch();

    assertThat(ids(first)).containsExactly(1L);
    assertThat(ids(second)).containsExactly(2L, 3L, 4L);
    second.reply(outcomes(second, CompleteStatus.COMPLETE_STATUS_COMPLETED));
    assertThat(List.of(nextAnswer(), nextAnswer())).containsExactly("1/1", "3/3");
    assertThat(batches).isEmpty();
  }

  @Test
  void aBatchCarriesAtMostAThousandJobs() throws Exception {
    batcher.addAll(jobs(1, 2_500));

    for (int[] range : new int[][] {{1, 1_000}, {1_001, 2_000}, {2_001, 2_500}}) {
      Held<CompleteBatchRequest, CompleteBatchResponse> batch = nextBatch();
      assertThat(ids(batch)).isEqualTo(LongStream.rangeClosed(range[0], range[1]).boxed().toList());
      batch.reply(outcomes(batch, CompleteStatus.COMPLETE_STATUS_COMPLETED));
    }
    assertThat(List.of(nextAnswer(), nextAnswer(), nextAnswer()))
        .containsExactly("1000/1000", "1000/1000", "500/500");
  }

  @Test
  void aRefusedJobIsAFailureNamingItAndItsOutcome() throws Exception {
    batcher.addAll(jobs(1, 3));
    Held<CompleteBatchRequest, CompleteBatchResponse> batch = nextBatch();

    batch.reply(
        CompleteBatchResponse.newBuilder()
            .addOutcomes(outcome(1, CompleteStatus.COMPLETE_STATUS_COMPLETED))
            .addOutcomes(outcome(2, CompleteStatus.COMPLETE_STATUS_NOT_FOUND))
            .addOutcomes(outcome(3, CompleteStatus.COMPLETE_STATUS_LEASE_LOST))
            .build());

    assertThat(nextAnswer()).isEqualTo("3/1");
    assertThat(failures).containsExactly("w1: CompleteBatch answered NOT_FOUND for job 2");
  }

  @Test
  void outcomesThatDoNotMatchTheItemsAreFailures() throws Exception {
    batcher.addAll(jobs(1, 2));
    Held<CompleteBatchRequest, CompleteBatchResponse> batch = nextBatch();

    batch.reply(
        CompleteBatchResponse.newBuilder()
            .addOutcomes(outcome(2, CompleteStatus.COMPLETE_STATUS_COMPLETED))
            .build());

    assertThat(nextAnswer()).isEqualTo("2/0");
    assertThat(failures)
        .containsExactly(
            "w1: CompleteBatch answered 1 outcomes for 2 jobs",
            "w1: CompleteBatch answered job 2 (COMPLETED) in the place of job 1");
  }

  @Test
  void aFailedBatchFreesItsJobsIsReportedAndWhatPiledUpStillGoes() throws Exception {
    batcher.addAll(jobs(1, 1));
    Held<CompleteBatchRequest, CompleteBatchResponse> first = nextBatch();
    batcher.addAll(jobs(2, 2));

    first.answer().onError(Status.UNAVAILABLE.withDescription("gone").asRuntimeException());

    assertThat(nextAnswer()).isEqualTo("1/0");
    assertThat(failures).containsExactly("w1: CompleteBatch of 1 jobs failed: UNAVAILABLE");
    assertThat(ids(nextBatch())).containsExactly(2L);
    assertThat(fallbacks).hasValue(0);
  }

  @Test
  void unimplementedFallsBackToOneCompletePerJobForTheRefusedAndAllLaterJobs() throws Exception {
    batcher.addAll(jobs(1, 1));
    Held<CompleteBatchRequest, CompleteBatchResponse> first = nextBatch();
    batcher.addAll(jobs(2, 3));

    first.answer().onError(Status.UNIMPLEMENTED.asRuntimeException());
    List<Held<CompleteRequest, CompleteResponse>> unary =
        List.of(nextComplete(), nextComplete(), nextComplete());
    batcher.addAll(jobs(4, 4));
    Held<CompleteRequest, CompleteResponse> later = nextComplete();

    assertThat(unary)
        .extracting(held -> held.request().getJobId())
        .containsExactlyInAnyOrder(1L, 2L, 3L);
    assertThat(later.request().getJobId()).isEqualTo(4);
    assertThat(later.request().getFencingToken()).isEqualTo(1004);
    assertThat(later.request().getWorkerId()).isEqualTo("w1");
    assertThat(batchUnimplemented).isTrue();
    assertThat(fallbacks).hasValue(1);
    unary.stream()
        .filter(held -> held.request().getJobId() == 1)
        .forEach(held -> held.reply(CompleteResponse.getDefaultInstance()));
    assertThat(nextAnswer()).isEqualTo("1/1");
    unary.stream()
        .filter(held -> held.request().getJobId() == 2)
        .forEach(held -> held.answer().onError(Status.FAILED_PRECONDITION.asRuntimeException()));
    assertThat(nextAnswer()).isEqualTo("1/0");
    assertThat(failures).containsExactly("w1: Complete of job 2 failed: FAILED_PRECONDITION");
    assertThat(batches).isEmpty();
  }

  @Test
  void aBatcherWhoseSharedFlagIsSetNeverTriesABatch() throws Exception {
    batchUnimplemented.set(true);

    batcher.addAll(jobs(1, 2));

    assertThat(List.of(nextComplete(), nextComplete()))
        .extracting(held -> held.request().getJobId())
        .containsExactlyInAnyOrder(1L, 2L);
    assertThat(batches).isEmpty();
    assertThat(fallbacks).hasValue(0);
  }

  private Held<CompleteBatchRequest, CompleteBatchResponse> nextBatch()
      throws InterruptedException {
    Held<CompleteBatchRequest, CompleteBatchResponse> batch =
        batches.poll(WAIT_SECONDS, TimeUnit.SECONDS);
    assertThat(batch).as("a CompleteBatch call").isNotNull();
    return batch;
  }

  private Held<CompleteRequest, CompleteResponse> nextComplete() throws InterruptedException {
    Held<CompleteRequest, CompleteResponse> complete =
        completes.poll(WAIT_SECONDS, TimeUnit.SECONDS);
    assertThat(complete).as("a Complete call").isNotNull();
    return complete;
  }

  private String nextAnswer() throws InterruptedException {
    String answer = answered.poll(WAIT_SECONDS, TimeUnit.SECONDS);
    assertThat(answer).as("an acknowledgement").isNotNull();
    return answer;
  }

  /** Jobs {@code first} to {@code last}, each leased with fencing token id + 1000. */
  private static List<Job> jobs(long first, long last) {
    return LongStream.rangeClosed(first, last)
        .mapToObj(
            id ->
                Job.newBuilder()
                    .setId(id)
                    .setLease(Lease.newBuilder().setFencingToken(id + 1000))
                    .build())
        .toList();
  }

  private static List<Long> ids(Held<CompleteBatchRequest, CompleteBatchResponse> batch) {
    return batch.request().getItemsList().stream().map(CompleteItem::getJobId).toList();
  }

  private static CompleteBatchResponse outcomes(
      Held<CompleteBatchRequest, CompleteBatchResponse> batch, CompleteStatus status) {
    CompleteBatchResponse.Builder response = CompleteBatchResponse.newBuilder();
    ids(batch).forEach(id -> response.addOutcomes(outcome(id, status)));
    return response.build();
  }

  private static CompleteOutcome outcome(long jobId, CompleteStatus status) {
    return CompleteOutcome.newBuilder().setJobId(jobId).setStatus(status).build();
  }
}
