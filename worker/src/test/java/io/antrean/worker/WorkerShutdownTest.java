package io.antrean.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.antrean.proto.v1.CompleteRequest;
import io.antrean.proto.v1.ReleaseRequest;
import io.antrean.proto.v1.WorkerServiceGrpc;
import io.antrean.worker.testing.InProcessCoordinator;
import io.antrean.worker.testing.Polling;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptor;
import io.grpc.ForwardingClientCall.SimpleForwardingClientCall;
import io.grpc.MethodDescriptor;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Graceful and forced shutdown: what finishes, what is handed back, and when. */
@Timeout(30)
class WorkerShutdownTest {
  private static final Duration WAIT = Duration.ofSeconds(10);

  private InProcessCoordinator coordinator;
  private Worker worker;
  private final CountDownLatch started = new CountDownLatch(2);
  private final CountDownLatch shortMayFinish = new CountDownLatch(1);
  private final CountDownLatch longInterrupted = new CountDownLatch(1);

  private final CountDownLatch longNeverFinishes = new CountDownLatch(1);

  @BeforeEach
  void startCoordinator() throws IOException {
    coordinator = new InProcessCoordinator();
  }

  @AfterEach
  void stopAll() throws InterruptedException {
    shortMayFinish.countDown();
    if (worker != null) {
      worker.shutdownNow();
      assertThat(worker.awaitTermination(WAIT)).isTrue();
    }
    coordinator.close();
  }

  private WorkerBuilder shortAndLongJobs(Duration grace) {
    return TestWorkers.builder(coordinator)
        .shutdownGrace(grace)
        .handler(
            "short",
            ctx -> {
              started.countDown();
              shortMayFinish.await();
              return new byte[] {1};
            })
        .handler(
            "long",
            ctx -> {
              started.countDown();
              try {
                // Only an interruption ends this job: nothing ever opens the latch.
                longNeverFinishes.await();
                return new byte[] {2};
              } catch (InterruptedException e) {
                longInterrupted.countDown();
                throw e;
              }
            });
  }

  private long startShortAndLong(Duration grace) throws InterruptedException {
    worker = shortAndLongJobs(grace).build();
    coordinator.service.enqueue("short", "{}");
    long longId = coordinator.service.enqueue("long", "{}");
    worker.start();
    assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
    return longId;
  }

  @Test
  void gracefulShutdownLetsAShortJobFinishAndReleasesALongOneAfterTheGrace()
      throws InterruptedException {
    long longId = startShortAndLong(Duration.ofMillis(600));
    long shutdownAt = System.nanoTime();
    worker.shutdown();
    int beatsAtShutdown = coordinator.service.heartbeats.size();
    shortMayFinish.countDown();

    assertThat(worker.awaitTermination(WAIT)).isTrue();
    long elapsedMillis = (System.nanoTime() - shutdownAt) / 1_000_000;
    assertThat(elapsedMillis).isGreaterThanOrEqualTo(550);
    assertThat(longInterrupted.getCount()).isZero();
    assertThat(coordinator.service.completes)
        .extracting(CompleteRequest::getJobId)
        .containsExactly(1L);
    assertThat(coordinator.service.releases)
        .extracting(ReleaseRequest::getJobId, ReleaseRequest::getReason)
        .containsExactly(org.assertj.core.groups.Tuple.tuple(longId, "shutdown"));
    assertThat(coordinator.service.fails).isEmpty();
    assertThat(coordinator.service.heartbeats.size())
        .as("heartbeats continue during the grace")
        .isGreaterThan(beatsAtShutdown + 3);
  }

  @Test
  void jobsOfALeaseAnsweredAsShutdownWithdrewItAreReleasedBeforeTheChannelCloses()
      throws InterruptedException {
    coordinator.service.answersCrossCancels = true;
    // A channel of its own, as a worker built with coordinator(target) has: it closes it when it
    // terminates.
    worker =
        Worker.create(
            shortAndLongJobs(Duration.ofSeconds(5)).settings(),
            "in-process",
            coordinator.channelThrough(),
            true);
    worker.start();
    assertThat(Polling.await(WAIT, () -> !coordinator.service.leases.isEmpty())).isTrue();

    worker.shutdown();
    // The waiting lease takes a job after the worker withdrew it, and answers all the same.
    long id = coordinator.service.enqueue("short", "{}");

    assertThat(worker.awaitTermination(WAIT)).isTrue();
    assertThat(coordinator.service.releases)
        .extracting(ReleaseRequest::getJobId, ReleaseRequest::getReason)
        .containsExactly(org.assertj.core.groups.Tuple.tuple(id, "lease call gone"));
    assertThat(coordinator.service.outstanding()).isZero();
    assertThat(started.getCount()).as("no handler ran").isEqualTo(2);
    assertThat(coordinator.service.completes).isEmpty();
  }

  @Test
  void shutdownNowSkipsTheGrace() throws InterruptedException {
    long longId = startShortAndLong(Duration.ofSeconds(60));
    worker.shutdownNow();

    assertThat(worker.awaitTermination(WAIT)).isTrue();
    assertThat(coordinator.service.releases)
        .extracting(ReleaseRequest::getJobId)
        .containsExactlyInAnyOrder(1L, longId);
    assertThat(coordinator.service.completes).isEmpty();
  }

  @Test
  void shutdownNowCutsARunningGraceShort() throws InterruptedException {
    startShortAndLong(Duration.ofSeconds(60));
    worker.shutdown();
    assertThat(worker.awaitTermination(Duration.ofMillis(200))).isFalse();
    worker.shutdownNow();

    assertThat(worker.awaitTermination(WAIT)).isTrue();
    assertThat(coordinator.service.releases).hasSize(2);
  }

  @Test
  void handlerThatIgnoresInterruptionIsReleasedForIt() throws InterruptedException {
    CountDownLatch running = new CountDownLatch(1);
    CountDownLatch stop = new CountDownLatch(1);
    worker =
        TestWorkers.builder(coordinator)
            .handler(
                "stubborn",
                ctx -> {
                  running.countDown();
                  while (true) {
                    try {
                      stop.await();
                      return new byte[] {1};
                    } catch (InterruptedException e) {
                      // Swallowed on purpose: this handler plays badly written blocking code.
                    }
                  }
                })
            .build();
    long id = coordinator.service.enqueue("stubborn", "{}");
    worker.start();
    assertThat(running.await(10, TimeUnit.SECONDS)).isTrue();
    worker.shutdownNow();

    assertThat(worker.awaitTermination(Duration.ofSeconds(15))).isTrue();
    stop.countDown();
    assertThat(coordinator.service.releases)
        .extracting(ReleaseRequest::getJobId)
        .containsExactly(id);
    assertThat(Polling.await(WAIT, () -> worker.heldLeases() == 0)).isTrue();
    assertThat(coordinator.service.completes).isEmpty();
  }

  @Test
  void aLeaseCallWhoseCancelThrowsDoesNotStopTheDrain() throws InterruptedException {
    // grpc-java can throw out of a cancel that races the call's start; this plays that race.
    AtomicInteger cancelsThrown = new AtomicInteger();
    ClientInterceptor cancelThrows =
        new ClientInterceptor() {
          @Override
          public <Q, A> ClientCall<Q, A> interceptCall(
              MethodDescriptor<Q, A> method, CallOptions options, Channel next) {
            ClientCall<Q, A> call = next.newCall(method, options);
            if (!method.equals(WorkerServiceGrpc.getLeaseMethod())) {
              return call;
            }
            return new SimpleForwardingClientCall<>(call) {
              @Override
              public void cancel(String message, Throwable cause) {
                super.cancel(message, cause);
                cancelsThrown.incrementAndGet();
                throw new IllegalStateException("cancel raced the call's start");
              }
            };
          }
        };
    CountDownLatch running = new CountDownLatch(1);
    CountDownLatch leaseHeld = new CountDownLatch(1);
    coordinator.service.emptyLeaseGate = leaseHeld;
    // The race is a Lease call's; on a Work stream a lease is a message, cancelled by another.
    coordinator.service.workImplemented = false;
    try {
      worker =
          TestWorkers.builder(coordinator)
              .channel(coordinator.channelThrough(cancelThrows))
              .handler(
                  "blocking",
                  ctx -> {
                    running.countDown();
                    longNeverFinishes.await();
                    return null;
                  })
              .build();
      long id = coordinator.service.enqueue("blocking", "{}");
      worker.start();
      assertThat(running.await(10, TimeUnit.SECONDS)).isTrue();
      // The first Lease took the job; the second finds none and is held in flight.
      assertThat(Polling.await(WAIT, () -> coordinator.service.leases.size() >= 2)).isTrue();
      worker.shutdownNow();

      assertThat(worker.awaitTermination(WAIT)).isTrue();
      assertThat(cancelsThrown.get()).isPositive();
      assertThat(coordinator.service.releases)
          .extracting(ReleaseRequest::getJobId)
          .containsExactly(id);
      assertThat(coordinator.service.fails).isEmpty();
    } finally {
      leaseHeld.countDown();
    }
  }

  @Test
  void workerShutDownBeforeStartTerminatesAtOnceAndCannotStart() throws InterruptedException {
    worker = TestWorkers.builder(coordinator).handler("t", ctx -> null).build();
    worker.shutdown();

    assertThat(worker.awaitTermination(Duration.ZERO)).isTrue();
    assertThatThrownBy(worker::start).isInstanceOf(IllegalStateException.class);
    assertThat(coordinator.service.leases).isEmpty();
  }

  @Test
  void workerCannotStartTwice() {
    worker = TestWorkers.builder(coordinator).handler("t", ctx -> null).build();
    worker.start();

    assertThatThrownBy(worker::start).isInstanceOf(IllegalStateException.class);
  }
}
