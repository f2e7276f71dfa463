package io.antrean.coordinator.grpc;

import static org.assertj.core.api.Assertions.assertThat;

import io.antrean.coordinator.core.Admission;
import io.antrean.proto.v1.Job;
import io.antrean.proto.v1.LeaseRequest;
import io.antrean.proto.v1.LeaseResponse;
import io.antrean.proto.v1.RequestError;
import io.antrean.proto.v1.WorkRequest;
import io.antrean.proto.v1.WorkResponse;
import io.antrean.proto.v1.WorkerServiceGrpc;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import javax.annotation.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A lease answered at the very moment it is withdrawn, by the worker's cancel or by the stream's
 * end, is not sent; its answer goes to be handed back instead of its jobs waiting for their leases
 * to expire. Both where the handlers run on the arrival thread (SQLite) and on the call threads
 * (PostgreSQL).
 */
@Timeout(30)
class UndeliveredAnswersTest {
  private static final LeaseResponse LEASED =
      LeaseResponse.newBuilder().addJobs(Job.newBuilder().setId(42)).build();

  private final ExecutorService callThreads = Executors.newFixedThreadPool(2);
  private final BlockingQueue<LeaseResponse> undelivered = new LinkedBlockingQueue<>();
  private final BlockingQueue<AnsweredWhenCancelled> leases = new LinkedBlockingQueue<>();
  private Server server;
  private ManagedChannel channel;

  @AfterEach
  void stop() throws InterruptedException {
    channel.shutdownNow();
    server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    callThreads.shutdownNow();
  }

  /**
   * A lease whose jobs are leased at the instant it is cancelled: the cancel finds it answered. The
   * race a store's commit and a worker's cancel can run, made to happen every time.
   */
  private static final class AnsweredWhenCancelled extends CompletableFuture<LeaseResponse> {
    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
      complete(LEASED);
      return super.cancel(mayInterruptIfRunning);
    }
  }

  /** A Work stream whose leases are the test's, and whose unsent answers it records. */
  private final class LeasesOnly extends RequestStream<WorkRequest, WorkResponse> {
    LeasesOnly(ServerCallStreamObserver<WorkResponse> out, RequestStreams streams) {
      super(out, streams);
    }

    @Override
    public void onNext(WorkRequest request) {
      if (request.hasCancel()) {
        cancel(request.getRequestId());
        return;
      }
      start(
          request.getRequestId(),
          "test/Lease",
          request.getLease(),
          Admission.Kind.LONG_POLL,
          r -> {
            AnsweredWhenCancelled lease = new AnsweredWhenCancelled();
            leases.add(lease);
            return lease;
          },
          (id, r) -> WorkResponse.newBuilder().setRequestId(id).setLease(r).build(),
          undelivered::add);
    }

    @Override
    WorkResponse errorResponse(long id, RequestError error) {
      return WorkResponse.newBuilder().setRequestId(id).setError(error).build();
    }
  }

  private TestWorkStream serve(@Nullable ExecutorService handlers) throws Exception {
    RequestStreams streams = new RequestStreams(null, null, handlers);
    String name = InProcessServerBuilder.generateName();
    server =
        InProcessServerBuilder.forName(name)
            .directExecutor()
            .addService(
                new WorkerServiceGrpc.WorkerServiceImplBase() {
                  @Override
                  public StreamObserver<WorkRequest> work(StreamObserver<WorkResponse> observer) {
                    return streams.add(
                        new LeasesOnly((ServerCallStreamObserver<WorkResponse>) observer, streams));
                  }
                })
            .build()
            .start();
    channel = InProcessChannelBuilder.forName(name).directExecutor().build();
    return new TestWorkStream(channel);
  }

  private void leaseWaiting(TestWorkStream stream, long id) throws InterruptedException {
    stream.lease(id, LeaseRequest.newBuilder().setMaxJobs(1).setWait(TestWorkStream.LONG_WAIT));
    assertThat(leases.poll(10, TimeUnit.SECONDS)).as("the lease reached its handler").isNotNull();
  }

  @ParameterizedTest(name = "handlers on the call threads: {0}")
  @ValueSource(booleans = {false, true})
  void aLeaseAnsweredAsTheWorkerCancelsItIsHandedBackNotSent(boolean onCallThreads)
      throws Exception {
    TestWorkStream stream = serve(onCallThreads ? callThreads : null);
    leaseWaiting(stream, 1);

    stream.cancel(1);

    assertThat(undelivered.poll(10, TimeUnit.SECONDS)).isEqualTo(LEASED);
    // The stream goes on: a half-close ends it OK with nothing sent for the withdrawn lease.
    stream.requests.onCompleted();
    assertThat(stream.end.get(10, TimeUnit.SECONDS).getCode()).isEqualTo(Status.Code.OK);
    assertThat(stream.answers).isEmpty();
    assertThat(undelivered).isEmpty();
  }

  @ParameterizedTest(name = "handlers on the call threads: {0}")
  @ValueSource(booleans = {false, true})
  void aLeaseAnsweredAsTheStreamBreaksIsHandedBack(boolean onCallThreads) throws Exception {
    TestWorkStream stream = serve(onCallThreads ? callThreads : null);
    leaseWaiting(stream, 1);

    stream.cancelStream();

    assertThat(undelivered.poll(10, TimeUnit.SECONDS)).isEqualTo(LEASED);
    assertThat(stream.answers).isEmpty();
  }

  @ParameterizedTest(name = "handlers on the call threads: {0}")
  @ValueSource(booleans = {false, true})
  void aLeaseAnsweredBeforeItsCancelIsSentAndNotHandedBack(boolean onCallThreads) throws Exception {
    TestWorkStream stream = serve(onCallThreads ? callThreads : null);
    stream.lease(1, LeaseRequest.newBuilder().setMaxJobs(1).setWait(TestWorkStream.LONG_WAIT));
    AnsweredWhenCancelled lease = leases.poll(10, TimeUnit.SECONDS);
    assertThat(lease).isNotNull();

    lease.complete(LEASED);
    assertThat(stream.next().getLease()).isEqualTo(LEASED);
    stream.cancel(1);
    stream.requests.onCompleted();

    assertThat(stream.end.get(10, TimeUnit.SECONDS).getCode()).isEqualTo(Status.Code.OK);
    assertThat(undelivered).isEmpty();
  }
}
