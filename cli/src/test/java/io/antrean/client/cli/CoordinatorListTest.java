package io.antrean.client.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.antrean.client.FakeJobService;
import io.antrean.client.GrpcAntreanClient;
import io.antrean.proto.v1.GetStatsRequest;
import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A comma-separated coordinator target, through the library and through the command line. */
@Timeout(30)
class CoordinatorListTest {
  private final FakeJobService one = new FakeJobService();
  private final FakeJobService two = new FakeJobService();
  private final List<Server> servers = new ArrayList<>();

  @AfterEach
  void stop() throws InterruptedException {
    for (Server server : servers) {
      server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
  }

  @Test
  void aClientForACommaSeparatedTargetSpreadsItsCallsOverBothCoordinators() throws IOException {
    String target = serve(one) + "," + serve(two);

    try (GrpcAntreanClient client = GrpcAntreanClient.forTarget(target).build()) {
      // Both connections come up within a few calls.
      for (int i = 0; i < 200 && (stats(one) == 0 || stats(two) == 0); i++) {
        client.getStats(null);
      }
      one.requests.clear();
      two.requests.clear();
      for (int i = 0; i < 10; i++) {
        client.getStats(null);
      }
    }

    assertThat(List.of(stats(one), stats(two))).containsExactly(5, 5);
  }

  @Test
  void theCommandLineTakesACommaSeparatedCoordinator() throws IOException {
    String target = serve(one) + ", " + serve(two);

    CliHarness.Result result =
        CliHarness.run(ClientConnector.GRPC, "--coordinator", target, "stats");

    assertThat(result.exitCode()).as(result.err()).isZero();
    assertThat(stats(one) + stats(two)).isEqualTo(1);
  }

  @Test
  void aMalformedListIsAUsageErrorNamingTheBadEntry() {
    CliHarness.Result result =
        CliHarness.run(ClientConnector.GRPC, "--coordinator", "h1:7400,,h2:7400", "stats");

    assertThat(result.exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(result.err())
        .startsWith("antrean: --coordinator: bad coordinator address '' (entry 2 of");
    assertThatThrownBy(() -> GrpcAntreanClient.forTarget("127.0.0.1:7400,coordinator-b"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'coordinator-b'");
  }

  private static int stats(FakeJobService service) {
    return service.requestsOf(GetStatsRequest.class).size();
  }

  private String serve(FakeJobService service) throws IOException {
    Server server =
        NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
            .addService(service)
            .build()
            .start();
    servers.add(server);
    return "127.0.0.1:" + server.getPort();
  }
}
