package io.antrean.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.antrean.proto.v1.CompleteRequest;
import io.antrean.worker.testing.FakeWorkerService;
import io.antrean.worker.testing.Polling;
import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A worker given a comma-separated coordinator list leases through one of them at a time (its Work
 * stream), and through another once that one goes away.
 */
@Timeout(30)
class MultiCoordinatorTest {
  private static final Duration WAIT = Duration.ofSeconds(15);

  private final FakeWorkerService one = new FakeWorkerService(0);
  private final FakeWorkerService two = new FakeWorkerService(100);
  private final List<Server> servers = new ArrayList<>();
  private Worker worker;

  @AfterEach
  void stopAll() throws InterruptedException {
    if (worker != null) {
      worker.shutdownNow();
      assertThat(worker.awaitTermination(WAIT)).isTrue();
    }
    for (Server server : servers) {
      server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
  }

  @Test
  void leasesThroughOneCoordinatorOfTheListAndMovesToAnotherWhenItGoes() throws IOException {
    String target = serve(one) + "," + serve(two);
    long first = one.enqueue("t", "{}");
    long second = two.enqueue("t", "{}");
    worker =
        Worker.builder()
            .coordinator(target)
            .workerId("multi")
            .leaseTtl(Duration.ofSeconds(3))
            .pollWait(Duration.ofSeconds(1))
            .pollBackoff(Duration.ofMillis(20), Duration.ofMillis(100))
            .handler("t", ctx -> new byte[0])
            .build();
    worker.start();
    assertThat(Polling.await(WAIT, () -> !completedJobIds().isEmpty())).isTrue();
    // The Work stream went to one coordinator; it holds one job, the other one the other.
    int used = one.completes.isEmpty() ? 1 : 0;

    servers.get(used).shutdownNow();

    assertThat(Polling.await(WAIT, () -> completedJobIds().size() == 2)).isTrue();
    assertThat(completedJobIds()).containsExactlyInAnyOrder(first, second);
  }

  @Test
  void aMalformedListIsRefusedNamingTheBadEntry() {
    assertThatThrownBy(() -> Worker.builder().coordinator("127.0.0.1:7400,coordinator-b"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'coordinator-b'");
  }

  private List<Long> completedJobIds() {
    return Stream.concat(one.completes.stream(), two.completes.stream())
        .map(CompleteRequest::getJobId)
        .toList();
  }

  private String serve(FakeWorkerService service) throws IOException {
    Server server =
        NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
            .addService(service)
            .build()
            .start();
    servers.add(server);
    return "127.0.0.1:" + server.getPort();
  }
}
