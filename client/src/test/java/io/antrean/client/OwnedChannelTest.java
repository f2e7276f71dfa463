package io.antrean.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.antrean.proto.v1.GetStatsResponse;
import io.antrean.proto.v1.QueueStats;
import io.grpc.Grpc;
import io.grpc.InsecureServerCredentials;
import io.grpc.Server;
import io.grpc.Status;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A client built for a {@code host:port} target dials it over TCP and owns the channel. */
@Timeout(20)
class OwnedChannelTest {
  private final FakeJobService service = new FakeJobService();
  private Server server;

  @BeforeEach
  void start() throws IOException {
    service.getStats =
        r ->
            GetStatsResponse.newBuilder()
                .addQueues(QueueStats.newBuilder().setQueue("default"))
                .build();
    server =
        Grpc.newServerBuilderForPort(0, InsecureServerCredentials.create())
            .addService(service)
            .build()
            .start();
  }

  @AfterEach
  void stop() throws InterruptedException {
    server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
  }

  @Test
  void hostPortTargetReachesTheServer() {
    try (GrpcAntreanClient client = GrpcAntreanClient.forTarget(target()).build()) {
      assertThat(client.getStats(null).getQueues(0).getQueue()).isEqualTo("default");
      assertThat(client.timeout()).isEqualTo(GrpcAntreanClient.DEFAULT_TIMEOUT);
    }
  }

  @Test
  void closeShutsTheOwnedChannelDownSoLaterCallsFail() {
    GrpcAntreanClient client = GrpcAntreanClient.forTarget(target()).build();
    client.getStats(null);

    client.close();
    client.close();

    UnavailableException e =
        catchThrowableOfType(UnavailableException.class, () -> client.getStats(null));
    assertThat(e.statusCode()).isEqualTo(Status.Code.UNAVAILABLE);
  }

  @Test
  void closingAWithTimeoutViewLeavesTheOwnersChannelOpen() {
    try (GrpcAntreanClient client = GrpcAntreanClient.forTarget(target()).build()) {
      client.withTimeout(java.time.Duration.ofSeconds(1)).close();

      assertThat(client.getStats(null).getQueuesCount()).isEqualTo(1);
    }
  }

  @Test
  void aTargetWithNoServerFailsAsUnavailable() throws InterruptedException {
    String deadTarget = target();
    server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);

    try (GrpcAntreanClient client = GrpcAntreanClient.forTarget(deadTarget).build()) {
      UnavailableException e =
          catchThrowableOfType(UnavailableException.class, () -> client.getStats(null));
      assertThat(e.isDeadlineExceeded()).isFalse();
    }
  }

  private String target() {
    return "127.0.0.1:" + server.getPort();
  }
}
