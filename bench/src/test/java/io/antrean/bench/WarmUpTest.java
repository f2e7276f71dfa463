package io.antrean.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.grpc.Server;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class WarmUpTest {
  private final FakeQueues queues = new FakeQueues();
  private final String name = InProcessServerBuilder.generateName();
  private final Server server;
  private final BenchTarget target;

  WarmUpTest() throws Exception {
    server =
        InProcessServerBuilder.forName(name)
            .addService(queues.jobService())
            .addService(queues.workerService())
            .build()
            .start();
    target =
        new BenchTarget(
            t -> InProcessChannelBuilder.forName(name).build(), "fake:1", Duration.ofSeconds(5));
  }

  @AfterEach
  void stop() throws InterruptedException {
    target.close();
    server.shutdownNow();
    server.awaitTermination(5, TimeUnit.SECONDS);
    queues.close();
  }

  @Test
  void workersStillStartingGetTheirAllowanceOnTopOfWait() {
    BenchWorkers starting =
        new BenchWorkers() {
          @Override
          public String describe() {
            return "starting";
          }

          @Override
          public void throwIfFailed() {}

          @Override
          public Duration startAllowance() {
            return Duration.ofMillis(300);
          }

          @Override
          public void close() {}
        };

    assertThatThrownBy(() -> WarmUp.runJobs(context(), starting, "idle", 3))
        .isInstanceOf(BenchFailedException.class)
        .hasMessageContaining("warm-up: only 0 of 3 jobs finished within 0.5 s");
    assertThat(queues.stats("idle").getPending()).isEqualTo(3);
  }

  private BenchContext context() {
    BenchSettings settings =
        new BenchSettings(
            null,
            50,
            500,
            Duration.ofSeconds(10),
            100,
            null,
            null,
            false,
            25,
            25,
            null,
            Duration.ofMillis(200),
            true,
            true,
            null,
            false,
            0);
    return new BenchContext(
        target,
        settings,
        new BenchPayload(100),
        new PrintWriter(new StringWriter()),
        () -> {
          throw new AssertionError("no worker processes here");
        });
  }
}
