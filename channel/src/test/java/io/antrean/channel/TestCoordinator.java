package io.antrean.channel;

import io.grpc.Server;
import io.grpc.ServerServiceDefinition;
import io.grpc.Status;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.protobuf.services.HealthStatusManager;
import io.grpc.stub.ServerCalls;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A stand-in coordinator on 127.0.0.1 and a free port: it serves {@link Echo} (answering with its
 * name, or with a status the test sets) and {@code grpc.health.v1}, and counts the Echo calls that
 * reach it. Thread-safe.
 */
final class TestCoordinator implements AutoCloseable {
  private final String name;
  private final HealthStatusManager health = new HealthStatusManager();
  private final AtomicInteger calls = new AtomicInteger();
  private final Server server;
  private volatile Status failure;

  TestCoordinator(String name) throws IOException {
    this.name = name;
    ServerServiceDefinition echo =
        ServerServiceDefinition.builder(Echo.SERVICE)
            .addMethod(
                Echo.CALL,
                ServerCalls.asyncUnaryCall(
                    (request, answer) -> {
                      calls.incrementAndGet();
                      Status status = failure;
                      if (status != null) {
                        answer.onError(status.asRuntimeException());
                        return;
                      }
                      answer.onNext(this.name);
                      answer.onCompleted();
                    }))
            .build();
    server =
        NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
            .addService(echo)
            .addService(health.getHealthService())
            .build()
            .start();
    health.setStatus("", ServingStatus.SERVING);
  }

  String name() {
    return name;
  }

  int port() {
    return server.getPort();
  }

  String address() {
    return "127.0.0.1:" + port();
  }

  /** Echo calls (attempts, retries included) that reached this server. */
  int calls() {
    return calls.get();
  }

  void resetCalls() {
    calls.set(0);
  }

  /** What the health service reports for the {@code ""} service from now on. */
  void health(ServingStatus status) {
    health.setStatus("", status);
  }

  /** Makes every Echo call fail with {@code status}; null answers normally again. */
  void failWith(Status status) {
    this.failure = status;
  }

  /** Stops at once, dropping connections, as a crashed coordinator would. */
  void kill() throws InterruptedException {
    server.shutdownNow();
    server.awaitTermination(5, TimeUnit.SECONDS);
  }

  @Override
  public void close() throws InterruptedException {
    kill();
  }
}
