package io.antrean.channel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.grpc.LoadBalancerRegistry;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Real channels against stand-in coordinators on loopback: balancing, failover, health. */
@Timeout(60)
class CoordinatorChannelsTest {
  private static final Duration WAIT = Duration.ofSeconds(15);

  private final List<TestCoordinator> coordinators = new ArrayList<>();
  private ManagedChannel channel;

  @AfterEach
  void stopAll() throws InterruptedException {
    if (channel != null) {
      channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
    for (TestCoordinator coordinator : coordinators) {
      coordinator.close();
    }
  }

  @Test
  void callsGoRoundRobinOverEveryCoordinatorOfAList() throws IOException {
    TestCoordinator a = start("a");
    TestCoordinator b = start("b");
    TestCoordinator c = start("c");
    channel = CoordinatorChannels.open(a.address() + ", " + b.address() + "," + c.address());
    warmUp(a, b, c);

    List<String> answeredBy = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      answeredBy.add(Echo.call(channel));
    }

    assertThat(List.of(a.calls(), b.calls(), c.calls())).containsExactly(10, 10, 10);
    // Strict rotation: every window of three calls visits each coordinator once.
    for (int i = 0; i + 3 <= answeredBy.size(); i += 3) {
      assertThat(answeredBy.subList(i, i + 3)).containsExactlyInAnyOrder("a", "b", "c");
    }
  }

  @Test
  void callsKeepSucceedingOnTheOthersWhenOneCoordinatorDies()
      throws IOException, InterruptedException {
    TestCoordinator a = start("a");
    TestCoordinator b = start("b");
    TestCoordinator c = start("c");
    channel = CoordinatorChannels.open(a.address() + "," + b.address() + "," + c.address());
    warmUp(a, b, c);

    b.kill();
    for (int i = 0; i < 30; i++) {
      assertThat(Echo.call(channel)).isIn("a", "c");
    }

    assertThat(b.calls()).isZero();
    assertThat(a.calls() + c.calls()).isEqualTo(30);
    assertThat(a.calls()).isPositive();
    assertThat(c.calls()).isPositive();
  }

  @Test
  void anAnswerPastGrpcsDefaultFourMibIsRead() throws IOException {
    String large = "x".repeat(5 << 20);
    TestCoordinator a = start(large);
    channel = CoordinatorChannels.open(a.address());

    assertThat(Echo.call(channel)).hasSize(large.length());
  }

  @Test
  void anUnavailableAnswerIsRetriedOnAnotherCoordinator() throws IOException {
    TestCoordinator a = start("a");
    TestCoordinator b = start("b");
    channel = CoordinatorChannels.open(a.address() + "," + b.address());
    warmUp(a, b);
    a.failWith(Status.UNAVAILABLE.withDescription("draining"));

    for (int i = 0; i < 20; i++) {
      assertThat(Echo.call(channel)).isEqualTo("b");
    }

    assertThat(b.calls()).isEqualTo(20);
    assertThat(a.calls()).as("attempts that a refused and b then served").isPositive();
  }

  @Test
  void unavailableIsRetriedUpToFiveAttemptsInAll() throws IOException {
    TestCoordinator a = start("a");
    a.failWith(Status.UNAVAILABLE.withDescription("store down"));
    channel = CoordinatorChannels.open(a.address());

    assertThatThrownBy(() -> Echo.call(channel))
        .isInstanceOfSatisfying(
            StatusRuntimeException.class,
            e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNAVAILABLE));
    assertThat(a.calls()).isEqualTo(CoordinatorServiceConfig.MAX_ATTEMPTS);
  }

  @Test
  void noOtherCodeIsRetried() throws IOException {
    TestCoordinator a = start("a");
    channel = CoordinatorChannels.open(a.address());
    for (Status status :
        List.of(Status.FAILED_PRECONDITION, Status.INTERNAL, Status.RESOURCE_EXHAUSTED)) {
      a.resetCalls();
      a.failWith(status.withDescription("injected"));

      assertThatThrownBy(() -> Echo.call(channel))
          .isInstanceOfSatisfying(
              StatusRuntimeException.class,
              e -> assertThat(e.getStatus().getCode()).isEqualTo(status.getCode()));
      assertThat(a.calls()).as(status.getCode().name()).isEqualTo(1);
    }
  }

  @Test
  void healthCheckingRoundRobinComesFromGrpcServices() {
    assertThat(LoadBalancerRegistry.getDefaultRegistry().getProvider("round_robin"))
        .extracting(p -> p.getClass().getName())
        .asString()
        .contains("HealthChecking");
  }

  @Test
  void aCoordinatorReportingNotServingGetsNoCalls() throws IOException {
    TestCoordinator a = start("a");
    TestCoordinator b = start("b");
    TestCoordinator c = start("c");
    c.health(ServingStatus.NOT_SERVING);
    channel = CoordinatorChannels.open(a.address() + "," + b.address() + "," + c.address());
    warmUp(a, b);

    for (int i = 0; i < 30; i++) {
      Echo.call(channel);
    }

    assertThat(c.calls()).isZero();
    assertThat(List.of(a.calls(), b.calls())).containsExactly(15, 15);
  }

  @Test
  void aCoordinatorThatStartsDrainingStopsGettingCallsAndComesBackWhenServing() throws IOException {
    TestCoordinator a = start("a");
    TestCoordinator b = start("b");
    channel = CoordinatorChannels.open(a.address() + "," + b.address());
    warmUp(a, b);

    b.health(ServingStatus.NOT_SERVING);
    assertThat(eventually(() -> tenCallsMiss(b))).isTrue();
    for (int i = 0; i < 20; i++) {
      assertThat(Echo.call(channel)).isEqualTo("a");
    }

    b.health(ServingStatus.SERVING);
    assertThat(eventually(() -> Echo.call(channel).equals("b"))).isTrue();
  }

  @Test
  void aSingleHostPortTargetWorks() throws IOException {
    TestCoordinator a = start("a");
    channel = CoordinatorChannels.open(a.address());

    assertThat(Echo.call(channel)).isEqualTo("a");
  }

  @Test
  void aDnsTargetWorks() throws IOException {
    TestCoordinator a = start("a");
    channel = CoordinatorChannels.open("dns:///localhost:" + a.port());

    assertThat(Echo.call(channel)).isEqualTo("a");
  }

  @Test
  void theUserAgentIsOptionalAndTheTargetsAreKept() throws IOException {
    TestCoordinator a = start("a");
    CoordinatorChannels.Builder builder =
        CoordinatorChannels.forTargets(" " + a.address() + " ").userAgent("antrean-test");
    channel = builder.build();

    assertThat(builder.targets()).isEqualTo(a.address());
    assertThat(Echo.call(channel)).isEqualTo("a");
  }

  private TestCoordinator start(String name) throws IOException {
    TestCoordinator coordinator = new TestCoordinator(name);
    coordinators.add(coordinator);
    return coordinator;
  }

  /** Calls until every one of {@code expected} has answered, then zeroes every counter. */
  private void warmUp(TestCoordinator... expected) {
    assertThat(
            eventually(
                () -> {
                  Echo.call(channel);
                  for (TestCoordinator coordinator : expected) {
                    if (coordinator.calls() == 0) {
                      return false;
                    }
                  }
                  return true;
                }))
        .as("every coordinator answered")
        .isTrue();
    coordinators.forEach(TestCoordinator::resetCalls);
  }

  private boolean tenCallsMiss(TestCoordinator coordinator) {
    int before = coordinator.calls();
    for (int i = 0; i < 10; i++) {
      Echo.call(channel);
    }
    return coordinator.calls() == before;
  }

  /** Checks {@code condition} (which makes calls itself) until it holds or {@link #WAIT} ends. */
  private static boolean eventually(BooleanSupplier condition) {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (System.nanoTime() - deadline < 0) {
      if (condition.getAsBoolean()) {
        return true;
      }
    }
    return false;
  }
}
