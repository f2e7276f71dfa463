package io.antrean.worker;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import io.antrean.proto.v1.CompleteRequest;
import io.antrean.proto.v1.JobServiceGrpc;
import io.antrean.proto.v1.JobState;
import io.antrean.proto.v1.ListDependenciesRequest;
import io.antrean.proto.v1.ListDependenciesResponse;
import io.antrean.worker.testing.FakeWorkerService;
import io.antrean.worker.testing.Polling;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.stub.StreamObserver;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A fan-in handler reads its dependencies' results through {@link JobContext#dependencies()}. */
@Timeout(20)
class WorkerDependenciesTest {
  private static final Duration WAIT = Duration.ofSeconds(10);

  private final FakeWorkerService workers = new FakeWorkerService();
  private final List<Long> askedFor = new CopyOnWriteArrayList<>();
  private Server server;
  private ManagedChannel channel;
  private Worker worker;

  /** Answers ListDependencies with two parts, one succeeded with a result. */
  private final class Jobs extends JobServiceGrpc.JobServiceImplBase {
    @Override
    public void listDependencies(
        ListDependenciesRequest request, StreamObserver<ListDependenciesResponse> observer) {
      askedFor.add(request.getId());
      observer.onNext(
          ListDependenciesResponse.newBuilder()
              .addDependencies(
                  io.antrean.proto.v1.Dependency.newBuilder()
                      .setId(3)
                      .setQueue("parts")
                      .setType("part")
                      .setState(JobState.JOB_STATE_SUCCEEDED)
                      .setResult(ByteString.copyFromUtf8("{\"n\":3}"))
                      .setResultContentType("application/json"))
              .addDependencies(
                  io.antrean.proto.v1.Dependency.newBuilder()
                      .setId(4)
                      .setQueue("parts")
                      .setType("part")
                      .setState(JobState.JOB_STATE_FAILED)
                      .setLastError("boom"))
              .build());
      observer.onCompleted();
    }
  }

  @BeforeEach
  void start() throws Exception {
    String name = InProcessServerBuilder.generateName();
    server =
        InProcessServerBuilder.forName(name)
            .addService(workers)
            .addService(new Jobs())
            .build()
            .start();
    channel = InProcessChannelBuilder.forName(name).build();
  }

  @AfterEach
  void stop() throws InterruptedException {
    if (worker != null) {
      worker.shutdownNow();
      assertThat(worker.awaitTermination(WAIT)).isTrue();
    }
    channel.shutdownNow();
    server.shutdownNow();
    assertThat(server.awaitTermination(5, TimeUnit.SECONDS)).isTrue();
  }

  @Test
  void theHandlerReadsEachDependencysStateAndResult() {
    worker =
        Worker.builder()
            .channel(channel)
            .workerId("w-deps")
            .concurrency(2)
            .leaseTtl(Duration.ofSeconds(3))
            .heartbeatInterval(Duration.ofMillis(50))
            .pollWait(Duration.ofSeconds(1))
            .pollBackoff(Duration.ofMillis(20), Duration.ofMillis(100))
            .shutdownGrace(Duration.ofSeconds(5))
            .handler(
                "merge",
                ctx -> {
                  StringBuilder merged = new StringBuilder();
                  for (Dependency d : ctx.dependencies()) {
                    merged
                        .append(d.jobId())
                        .append(
                            d.succeeded()
                                ? "=" + d.resultUtf8()
                                : ":" + d.state() + " " + d.lastError())
                        .append(';');
                  }
                  return merged.toString().getBytes(StandardCharsets.UTF_8);
                })
            .build();
    worker.start();
    long id = workers.enqueue("merge", "{}");

    assertThat(Polling.await(WAIT, () -> !workers.completes.isEmpty())).isTrue();
    CompleteRequest complete = workers.completes.get(0);
    assertThat(complete.getJobId()).isEqualTo(id);
    assertThat(complete.getResult().toStringUtf8()).isEqualTo("3={\"n\":3};4:FAILED boom;");
    assertThat(askedFor).containsExactly(id);
  }
}
