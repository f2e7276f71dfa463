package io.antrean.coordinator.grpc;

import io.antrean.coordinator.core.DeadLetters;
import io.antrean.coordinator.core.JobScheduler;
import io.antrean.coordinator.core.JobWatchers;
import io.antrean.coordinator.core.QueueControl;
import io.antrean.proto.v1.AdminServiceGrpc;
import io.antrean.proto.v1.JobServiceGrpc;
import io.antrean.proto.v1.WorkerServiceGrpc;
import io.grpc.Server;
import io.grpc.ServerBuilder;
import io.grpc.ServerInterceptor;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.protobuf.services.HealthStatusManager;
import io.grpc.protobuf.services.ProtoReflectionServiceV1;
import java.io.IOException;
import java.time.Clock;
import java.util.concurrent.TimeUnit;

/**
 * The gRPC server's lifecycle: JobService, WorkerService, health and reflection on a server built
 * from the given builder (tests pass an in-process one). Thread-safe.
 */
public final class CoordinatorServer {
  private final Server server;
  private final HealthStatusManager health = new HealthStatusManager();

  /**
   * @param watchers serves WatchJob
   * @param interceptors run on every call, for example {@link RpcMetricsInterceptor}
   */
  public CoordinatorServer(
      ServerBuilder<?> builder,
      JobScheduler scheduler,
      JobWatchers watchers,
      Clock clock,
      ServerInterceptor... interceptors) {
    this(builder, scheduler, watchers, clock, true, interceptors);
  }

  /**
   * @param reflection whether to serve gRPC server reflection
   * @param interceptors run on every call; the last one runs first
   */
  public CoordinatorServer(
      ServerBuilder<?> builder,
      JobScheduler scheduler,
      JobWatchers watchers,
      Clock clock,
      boolean reflection,
      ServerInterceptor... interceptors) {
    for (ServerInterceptor interceptor : interceptors) {
      builder.intercept(interceptor);
    }
    if (scheduler.asyncNeverBlocks()) {
      builder.callExecutor(new HotCallExecutors());
    }
    builder
        .addService(new GrpcJobService(scheduler, clock, watchers))
        .addService(new GrpcWorkerService(scheduler))
        .addService(new GrpcAdminService(new DeadLetters(scheduler), new QueueControl(scheduler)))
        .addService(health.getHealthService());
    if (reflection) {
      builder.addService(ProtoReflectionServiceV1.newInstance());
    }
    this.server = builder.build();
  }

  /** Starts serving and reports SERVING on the health service. */
  public CoordinatorServer start() throws IOException {
    server.start();
    health.setStatus("", ServingStatus.SERVING);
    health.setStatus(JobServiceGrpc.SERVICE_NAME, ServingStatus.SERVING);
    health.setStatus(WorkerServiceGrpc.SERVICE_NAME, ServingStatus.SERVING);
    health.setStatus(AdminServiceGrpc.SERVICE_NAME, ServingStatus.SERVING);
    return this;
  }

  /** The bound port, or -1 for a server without one (in-process). */
  public int port() {
    return server.getPort();
  }

  /** Reports NOT_SERVING, so balancing clients move away, and stops accepting new calls. */
  public void beginShutdown() {
    health.enterTerminalState();
    server.shutdown();
  }

  /** Waits for calls in flight up to the grace, then cancels the rest. */
  public void awaitShutdown(long graceMillis) throws InterruptedException {
    if (!server.awaitTermination(graceMillis, TimeUnit.MILLISECONDS)) {
      server.shutdownNow();
      server.awaitTermination(5, TimeUnit.SECONDS);
    }
  }

  public void awaitTermination() throws InterruptedException {
    server.awaitTermination();
  }
}
