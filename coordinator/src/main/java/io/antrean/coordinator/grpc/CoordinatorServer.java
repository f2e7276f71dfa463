package io.antrean.coordinator.grpc;

import io.antrean.coordinator.core.JobScheduler;
import io.antrean.coordinator.core.JobWatchers;
import io.antrean.coordinator.core.WorkerRegistry;
import io.antrean.proto.v1.AdminServiceGrpc;
import io.antrean.proto.v1.JobServiceGrpc;
import io.antrean.proto.v1.WorkerServiceGrpc;
import io.grpc.Server;
import io.grpc.ServerBuilder;
import io.grpc.ServerInterceptor;
import io.grpc.ServerInterceptors;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.protobuf.services.HealthStatusManager;
import io.grpc.protobuf.services.ProtoReflectionService;
import io.grpc.protobuf.services.ProtoReflectionServiceV1;
import java.io.IOException;
import java.time.Clock;
import java.util.concurrent.TimeUnit;

/**
 * The gRPC server's lifecycle: JobService, WorkerService, AdminService, health and reflection (v1
 * and v1alpha) on a server built from the given builder (tests pass an in-process one), each
 * answering a request whose bytes do not parse {@code INVALID_ARGUMENT} ({@link
 * UnparseableRequests}). Thread-safe.
 */
public final class CoordinatorServer {
  private final Server server;
  private final HealthStatusManager health = new HealthStatusManager();
  private final UnparseableRequests unparseable = new UnparseableRequests(System::nanoTime);

  /**
   * @param watchers serves WatchJob
   * @param workers learns of workers from their calls
   * @param admin answers the AdminService (built on the same core, registry and clock)
   * @param interceptors run on every call, for example {@link RpcMetricsInterceptor}
   */
  public CoordinatorServer(
      ServerBuilder<?> builder,
      JobScheduler scheduler,
      JobWatchers watchers,
      WorkerRegistry workers,
      AdminServiceCalls admin,
      Clock clock,
      ServerInterceptor... interceptors) {
    this(builder, scheduler, watchers, workers, admin, clock, true, interceptors);
  }

  /**
   * @param reflection whether to serve gRPC server reflection
   * @param interceptors run on every call (on its raw bytes); the last one runs first
   */
  public CoordinatorServer(
      ServerBuilder<?> builder,
      JobScheduler scheduler,
      JobWatchers watchers,
      WorkerRegistry workers,
      AdminServiceCalls admin,
      Clock clock,
      boolean reflection,
      ServerInterceptor... interceptors) {
    for (ServerInterceptor interceptor : interceptors) {
      builder.intercept(interceptor);
    }
    if (scheduler.asyncNeverBlocks()) {
      builder.callExecutor(new HotCallExecutors());
    }
    // The queue check needs the parsed request, so it sits inside the parsing guard.
    QueueAccessInterceptor queues = new QueueAccessInterceptor();
    builder
        .addService(
            unparseable.guard(
                ServerInterceptors.intercept(
                    new GrpcJobService(scheduler, clock, watchers).bindService(), queues)))
        .addService(
            unparseable.guard(
                ServerInterceptors.intercept(
                    new GrpcWorkerService(scheduler, workers, clock).bindService(), queues)))
        .addService(
            unparseable.guard(
                ServerInterceptors.intercept(new GrpcAdminService(admin).bindService(), queues)))
        .addService(unparseable.guard(health.getHealthService().bindService()));
    if (reflection) {
      builder
          .addService(unparseable.guard(ProtoReflectionServiceV1.newInstance().bindService()))
          .addService(unparseable.guard(reflectionV1alpha().bindService()));
    }
    this.server = builder.build();
  }

  /**
   * Reflection under its older name, {@code grpc.reflection.v1alpha}, which many tools and language
   * clients still ask for; grpc-java deprecates it in favour of v1, which is served too.
   */
  @SuppressWarnings("deprecation")
  private static io.grpc.BindableService reflectionV1alpha() {
    return ProtoReflectionService.newInstance();
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
