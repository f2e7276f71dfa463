package io.antrean.worker.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.Any;
import com.google.protobuf.ByteString;
import com.google.rpc.RetryInfo;
import io.antrean.channel.CoordinatorChannels;
import io.antrean.proto.v1.CompleteBatchRequest;
import io.antrean.proto.v1.CompleteBatchResponse;
import io.antrean.proto.v1.CompleteItem;
import io.antrean.proto.v1.CompleteOutcome;
import io.antrean.proto.v1.Job;
import io.antrean.proto.v1.LeaseRequest;
import io.antrean.proto.v1.LeaseResponse;
import io.antrean.proto.v1.RequestError;
import io.antrean.proto.v1.WorkRequest;
import io.antrean.proto.v1.WorkResponse;
import io.antrean.proto.v1.WorkerServiceGrpc;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Server;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.ServerInterceptors;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.protobuf.StatusProto;
import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Lease and CompleteBatch over one Work stream: answers reach their own requests in any order, a
 * stream that breaks fails what it carried and the next request opens another, deadlines and
 * cancels withdraw a request at the coordinator, and a coordinator without Work gets unary calls.
 */
@Timeout(30)
class WorkStreamClientTest {
  private static final long TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(10);
  private static final CompleteBatchRequest BATCH =
      CompleteBatchRequest.newBuilder().setWorkerId("w-1").build();
  private static final LeaseRequest LEASE =
      LeaseRequest.newBuilder().setWorkerId("w-1").addTypes("t").build();

  private final ScheduledExecutorService deadlines = Executors.newSingleThreadScheduledExecutor();
  private final List<String> methods = new CopyOnWriteArrayList<>();
  private final List<Job> unclaimed = new CopyOnWriteArrayList<>();
  private final FakeStreams coordinator = new FakeStreams();
  private Server server;
  private ManagedChannel channel;

  @AfterEach
  void tearDown() {
    deadlines.shutdownNow();
    if (channel != null) {
      channel.shutdownNow();
    }
    if (server != null) {
      server.shutdownNow();
    }
  }

  /** A coordinator whose Work streams the test drives through {@code streams}. */
  private static final class FakeStreams extends WorkerServiceGrpc.WorkerServiceImplBase {
    final BlockingQueue<FakeStream> streams = new LinkedBlockingQueue<>();

    @Override
    public StreamObserver<WorkRequest> work(StreamObserver<WorkResponse> answers) {
      FakeStream stream = new FakeStream(answers);
      streams.add(stream);
      return stream;
    }
  }

  /** One stream's requests, in arrival order, and the way to answer them. */
  private static final class FakeStream implements StreamObserver<WorkRequest> {
    final BlockingQueue<WorkRequest> requests = new LinkedBlockingQueue<>();
    final StreamObserver<WorkResponse> answers;

    FakeStream(StreamObserver<WorkResponse> answers) {
      this.answers = answers;
    }

    WorkRequest next() throws InterruptedException {
      WorkRequest request = requests.poll(10, TimeUnit.SECONDS);
      assertThat(request).as("a request on the stream").isNotNull();
      return request;
    }

    synchronized void answer(WorkResponse response) {
      answers.onNext(response);
    }

    @Override
    public void onNext(WorkRequest request) {
      requests.add(request);
    }

    @Override
    public void onError(Throwable t) {}

    @Override
    public void onCompleted() {}
  }

  /** A Lease's answer as the poller's LeaseCall would take it. */
  private static final class RecordedLease implements WorkStreamClient.LeaseObserver {
    final CompletableFuture<LeaseResponse> answer = new CompletableFuture<>();
    final AtomicReference<Runnable> cancel = new AtomicReference<>();
    private LeaseResponse response;

    @Override
    public void started(Runnable cancel) {
      this.cancel.set(cancel);
    }

    @Override
    public void beforeStart(ClientCallStreamObserver<LeaseRequest> requestStream) {
      started(() -> requestStream.cancel("test", null));
    }

    @Override
    public void onNext(LeaseResponse value) {
      response = value;
    }

    @Override
    public void onError(Throwable t) {
      answer.completeExceptionally(t);
    }

    @Override
    public void onCompleted() {
      answer.complete(response);
    }

    Status failure() throws Exception {
      try {
        answer.get(10, TimeUnit.SECONDS);
      } catch (java.util.concurrent.ExecutionException e) {
        return Status.fromThrowable(e.getCause());
      }
      throw new AssertionError("the lease was answered");
    }
  }

  /** The next Work stream the worker opened, waited for up to 10 s. */
  private FakeStream nextStream() throws InterruptedException {
    FakeStream stream = coordinator.streams.poll(10, TimeUnit.SECONDS);
    assertThat(stream).as("a Work stream").isNotNull();
    return stream;
  }

  private WorkStreamClient client(WorkerServiceGrpc.WorkerServiceImplBase service)
      throws IOException {
    String name = InProcessServerBuilder.generateName();
    ServerInterceptor recordMethods =
        new ServerInterceptor() {
          @Override
          public <Q, A> ServerCall.Listener<Q> interceptCall(
              ServerCall<Q, A> call, Metadata headers, ServerCallHandler<Q, A> next) {
            methods.add(call.getMethodDescriptor().getBareMethodName());
            return next.startCall(call, headers);
          }
        };
    server =
        InProcessServerBuilder.forName(name)
            .addService(ServerInterceptors.intercept(service, recordMethods))
            .build()
            .start();
    channel = InProcessChannelBuilder.forName(name).build();
    return new WorkStreamClient(WorkerServiceGrpc.newStub(channel), deadlines, unclaimed::addAll);
  }

  private static WorkResponse leased(long requestId, long jobId) {
    return WorkResponse.newBuilder()
        .setRequestId(requestId)
        .setLease(LeaseResponse.newBuilder().addJobs(Job.newBuilder().setId(jobId)))
        .build();
  }

  private static WorkResponse completed(long requestId, long jobId) {
    return WorkResponse.newBuilder()
        .setRequestId(requestId)
        .setCompleteBatch(
            CompleteBatchResponse.newBuilder()
                .addOutcomes(CompleteOutcome.newBuilder().setJobId(jobId)))
        .build();
  }

  @Test
  void answersReachTheirOwnRequestsInWhateverOrderTheyComeOnOneStream() throws Exception {
    WorkStreamClient work = client(coordinator);
    RecordedLease lease = new RecordedLease();

    work.lease(LEASE, TIMEOUT_NANOS, lease);
    FakeStream stream = nextStream();
    WorkRequest leaseRequest = stream.next();
    assertThat(leaseRequest.getLease()).isEqualTo(LEASE);
    CompletableFuture<CompleteBatchResponse> batch =
        CompletableFuture.supplyAsync(() -> work.completeBatch(BATCH, TIMEOUT_NANOS));
    WorkRequest batchRequest = stream.next();
    assertThat(batchRequest.getCompleteBatch()).isEqualTo(BATCH);
    assertThat(batchRequest.getRequestId()).isNotEqualTo(leaseRequest.getRequestId());

    // The later request is answered first; the lease still waits.
    stream.answer(completed(batchRequest.getRequestId(), 7));
    assertThat(batch.get(10, TimeUnit.SECONDS).getOutcomes(0).getJobId()).isEqualTo(7);
    assertThat(lease.answer).isNotDone();
    stream.answer(leased(leaseRequest.getRequestId(), 8));
    assertThat(lease.answer.get(10, TimeUnit.SECONDS).getJobs(0).getId()).isEqualTo(8);
    assertThat(methods).containsExactly("Work");
  }

  @Test
  void anErrorAnswerIsThrownAsTheCallWouldThrowItWithItsDetails() throws Exception {
    WorkStreamClient work = client(coordinator);
    CompletableFuture<CompleteBatchResponse> batch =
        CompletableFuture.supplyAsync(() -> work.completeBatch(BATCH, TIMEOUT_NANOS));
    FakeStream stream = nextStream();
    WorkRequest request = stream.next();
    RetryInfo retry =
        RetryInfo.newBuilder()
            .setRetryDelay(com.google.protobuf.Duration.newBuilder().setSeconds(3))
            .build();
    stream.answer(
        WorkResponse.newBuilder()
            .setRequestId(request.getRequestId())
            .setError(
                RequestError.newBuilder()
                    .setCode(Status.Code.RESOURCE_EXHAUSTED.value())
                    .setMessage("busy")
                    .addDetails(Any.pack(retry)))
            .build());

    assertThatThrownBy(() -> batch.join())
        .cause()
        .isInstanceOfSatisfying(
            StatusRuntimeException.class,
            e -> {
              assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.RESOURCE_EXHAUSTED);
              assertThat(e.getStatus().getDescription()).isEqualTo("busy");
              assertThat(StatusProto.fromThrowable(e).getDetailsList())
                  .containsExactly(Any.pack(retry));
            });
    // The stream goes on serving.
    RecordedLease lease = new RecordedLease();
    work.lease(LEASE, TIMEOUT_NANOS, lease);
    stream.answer(leased(stream.next().getRequestId(), 9));
    assertThat(lease.answer.get(10, TimeUnit.SECONDS).getJobs(0).getId()).isEqualTo(9);
  }

  @Test
  void aBrokenStreamFailsWhatItCarriedAndTheNextRequestOpensAnother() throws Exception {
    WorkStreamClient work = client(coordinator);
    RecordedLease lease = new RecordedLease();
    work.lease(LEASE, TIMEOUT_NANOS, lease);
    FakeStream first = nextStream();
    first.next();

    first.answers.onError(Status.UNAVAILABLE.withDescription("going away").asRuntimeException());

    Status failure = lease.failure();
    assertThat(failure.getCode()).isEqualTo(Status.Code.UNAVAILABLE);
    CompletableFuture<CompleteBatchResponse> batch =
        CompletableFuture.supplyAsync(() -> work.completeBatch(BATCH, TIMEOUT_NANOS));
    FakeStream second = nextStream();
    assertThat(second).as("a second stream").isNotSameAs(first);
    second.answer(completed(second.next().getRequestId(), 3));
    assertThat(batch.get(10, TimeUnit.SECONDS).getOutcomes(0).getJobId()).isEqualTo(3);
  }

  @Test
  void aLeaseUnansweredByItsDeadlineFailsAndIsWithdrawnAtTheCoordinator() throws Exception {
    WorkStreamClient work = client(coordinator);
    RecordedLease lease = new RecordedLease();

    work.lease(LEASE, Duration.ofMillis(50).toNanos(), lease);

    assertThat(lease.failure().getCode()).isEqualTo(Status.Code.DEADLINE_EXCEEDED);
    FakeStream stream = nextStream();
    WorkRequest sent = stream.next();
    WorkRequest cancel = stream.next();
    assertThat(cancel.hasCancel()).isTrue();
    assertThat(cancel.getRequestId()).isEqualTo(sent.getRequestId());
    // A late answer is not delivered twice: its jobs are handed to be released.
    stream.answer(leased(sent.getRequestId(), 1));
    assertThat(lease.answer).isCompletedExceptionally();
    assertThat(unclaimed).extracting(Job::getId).containsExactly(1L);
  }

  @Test
  void theJobsOfAnAnswerThatCrossedItsCancelOnTheWireAreHandedBackNotDispatched() throws Exception {
    WorkStreamClient work = client(coordinator);
    RecordedLease lease = new RecordedLease();
    work.lease(LEASE, TIMEOUT_NANOS, lease);
    FakeStream stream = nextStream();
    WorkRequest sent = stream.next();
    CompletableFuture<CompleteBatchResponse> batch =
        CompletableFuture.supplyAsync(() -> work.completeBatch(BATCH, TIMEOUT_NANOS));
    WorkRequest batchRequest = stream.next();

    lease.cancel.get().run();
    assertThat(stream.next().hasCancel()).isTrue();
    // The coordinator had answered before the cancel reached it.
    stream.answer(leased(sent.getRequestId(), 4));
    // An answer to a request still waiting is its own, with nothing handed back.
    stream.answer(
        WorkResponse.newBuilder()
            .setRequestId(batchRequest.getRequestId())
            .setCompleteBatch(
                CompleteBatchResponse.newBuilder().addLeasedJobs(Job.newBuilder().setId(5)))
            .build());

    assertThat(batch.get(10, TimeUnit.SECONDS).getLeasedJobs(0).getId()).isEqualTo(5);
    assertThat(lease.failure().getCode()).isEqualTo(Status.Code.CANCELLED);
    assertThat(unclaimed).extracting(Job::getId).containsExactly(4L);
  }

  @Test
  void cancellingALeaseFailsItCancelledAndWithdrawsItAtTheCoordinator() throws Exception {
    WorkStreamClient work = client(coordinator);
    RecordedLease lease = new RecordedLease();
    work.lease(LEASE, TIMEOUT_NANOS, lease);
    FakeStream stream = nextStream();
    WorkRequest sent = stream.next();

    lease.cancel.get().run();

    assertThat(lease.failure().getCode()).isEqualTo(Status.Code.CANCELLED);
    WorkRequest cancel = stream.next();
    assertThat(cancel.hasCancel()).isTrue();
    assertThat(cancel.getRequestId()).isEqualTo(sent.getRequestId());
  }

  @Test
  void aCoordinatorWithoutWorkGetsTheUnaryCallsFromThenOn() throws Exception {
    WorkStreamClient work =
        client(
            new WorkerServiceGrpc.WorkerServiceImplBase() {
              @Override
              public void lease(LeaseRequest request, StreamObserver<LeaseResponse> answer) {
                answer.onNext(
                    LeaseResponse.newBuilder().addJobs(Job.newBuilder().setId(4)).build());
                answer.onCompleted();
              }

              @Override
              public void completeBatch(
                  CompleteBatchRequest request, StreamObserver<CompleteBatchResponse> answer) {
                answer.onNext(
                    CompleteBatchResponse.newBuilder()
                        .addOutcomes(CompleteOutcome.newBuilder().setJobId(5))
                        .build());
                answer.onCompleted();
              }
            });
    RecordedLease lease = new RecordedLease();

    work.lease(LEASE, TIMEOUT_NANOS, lease);

    assertThat(lease.answer.get(10, TimeUnit.SECONDS).getJobs(0).getId()).isEqualTo(4);
    assertThat(work.completeBatch(BATCH, TIMEOUT_NANOS).getOutcomes(0).getJobId()).isEqualTo(5);
    RecordedLease again = new RecordedLease();
    work.lease(LEASE, TIMEOUT_NANOS, again);
    assertThat(again.answer.get(10, TimeUnit.SECONDS).getJobs(0).getId()).isEqualTo(4);
    assertThat(methods).containsExactly("Work", "Lease", "CompleteBatch", "Lease");
  }

  @Test
  void aCompleteBatchLongerThanTheStreamTakesGoesAsItsOwnCallAndTheLeaseStaysOnTheStream()
      throws Exception {
    WorkStreamClient work =
        client(
            new WorkerServiceGrpc.WorkerServiceImplBase() {
              @Override
              public StreamObserver<WorkRequest> work(StreamObserver<WorkResponse> answers) {
                return coordinator.work(answers);
              }

              @Override
              public void completeBatch(
                  CompleteBatchRequest request, StreamObserver<CompleteBatchResponse> answer) {
                answer.onNext(
                    CompleteBatchResponse.newBuilder()
                        .addOutcomes(CompleteOutcome.newBuilder().setJobId(6))
                        .build());
                answer.onCompleted();
              }
            });
    RecordedLease lease = new RecordedLease();
    work.lease(LEASE, TIMEOUT_NANOS, lease);
    FakeStream stream = nextStream();
    WorkRequest leaseRequest = stream.next();
    CompleteBatchRequest longBatch =
        BATCH.toBuilder()
            .addItems(
                CompleteItem.newBuilder()
                    .setJobId(6)
                    .setResult(
                        ByteString.copyFrom(
                            new byte[CoordinatorChannels.MAX_STREAM_REQUEST_BYTES + 1])))
            .build();

    assertThat(work.completeBatch(longBatch, TIMEOUT_NANOS).getOutcomes(0).getJobId()).isEqualTo(6);
    assertThat(methods).containsExactly("Work", "CompleteBatch");
    assertThat(lease.answer).isNotDone();
    stream.answer(leased(leaseRequest.getRequestId(), 8));
    assertThat(lease.answer.get(10, TimeUnit.SECONDS).getJobs(0).getId()).isEqualTo(8);
  }
}
