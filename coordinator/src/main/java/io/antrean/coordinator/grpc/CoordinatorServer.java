package io.antrean.coordinator.grpc;

import io.antrean.coordinator.api.AdminServiceCalls;
import io.antrean.coordinator.api.ScheduleServiceCalls;
import io.antrean.coordinator.core.Admission;
import io.antrean.coordinator.core.JobScheduler;
import io.antrean.coordinator.core.JobWatchers;
import io.antrean.coordinator.core.WorkerRegistry;
import io.antrean.coordinator.metrics.RpcDurations;
import io.antrean.proto.v1.AdminServiceGrpc;
import io.antrean.proto.v1.JobServiceGrpc;
import io.antrean.proto.v1.ScheduleServiceGrpc;
import io.antrean.proto.v1.WorkerServiceGrpc;
import io.grpc.BindableService;
import io.grpc.Server;
import io.grpc.ServerBuilder;
import io.grpc.ServerInterceptor;
import io.grpc.ServerInterceptors;
import io.grpc.ServerServiceDefinition;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.protobuf.services.HealthStatusManager;
import io.grpc.protobuf.services.ProtoReflectionService;
import io.grpc.protobuf.services.ProtoReflectionServiceV1;
import java.io.IOException;
import java.time.Clock;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import javax.annotation.Nullable;

/**
 * The gRPC server's lifecycle: JobService, WorkerService, AdminService, ScheduleService, health and
 * reflection (v1 and v1alpha) on a server built from the given builder (tests pass an in-process
 * one), each answering a request whose bytes do not parse {@code INVALID_ARGUMENT} ({@link
 * UnparseableRequests}). Thread-safe.
 */
public final class CoordinatorServer {
  private final Server server;
  private final RequestStreams streams;
  private final HealthStatusManager health = new HealthStatusManager();
  private final UnparseableRequests unparseable = new UnparseableRequests(System::nanoTime);

  /**
   * @param watchers serves WatchJob
   * @param workers learns of workers from their calls
   * @param admin answers the AdminService (built on the same core, registry and clock)
   * @param schedules answers the ScheduleService
   * @param callThreads runs the calls but the hot ones, which stay on the network thread ({@link
   *     HotCallExecutors}), and on a store whose writes may block the handlers of the Work and
   *     Produce streams' messages too; the caller shuts it down after the server
   * @param reflection whether to serve gRPC server reflection
   * @param admission admits each request of a Work or Produce stream (the stream itself is not
   *     counted); null admits all
   * @param rpcDurations times each request of a Work or Produce stream; null times none
   * @param interceptors run on every call whose request parses, for example {@link
   *     RpcMetricsInterceptor}; they see typed requests; the last one runs first
   */
  public CoordinatorServer(
      ServerBuilder<?> builder,
      JobScheduler scheduler,
      JobWatchers watchers,
      WorkerRegistry workers,
      AdminServiceCalls admin,
      ScheduleServiceCalls schedules,
      Clock clock,
      Executor callThreads,
      boolean reflection,
      @Nullable Admission admission,
      @Nullable RpcDurations rpcDurations,
      ServerInterceptor... interceptors) {
    if (scheduler.asyncNeverBlocks()) {
      builder.directExecutor().callExecutor(HotCallExecutors.whollyOnTheNetworkThread(callThreads));
      this.streams = new RequestStreams(admission, rpcDurations, null);
    } else {
      builder
          .directExecutor()
          .callExecutor(HotCallExecutors.streamsOnTheNetworkThread(callThreads));
      this.streams = new RequestStreams(admission, rpcDurations, callThreads);
    }
    // The queue check runs after every given interceptor (authentication among them).
    ServerInterceptor[] withQueues = new ServerInterceptor[interceptors.length + 1];
    withQueues[0] = new QueueAccessInterceptor();
    System.arraycopy(interceptors, 0, withQueues, 1, interceptors.length);
    builder
        .addService(guarded(new GrpcJobService(scheduler, clock, watchers, streams), withQueues))
        .addService(guarded(new GrpcWorkerService(scheduler, workers, clock, streams), withQueues))
        .addService(guarded(new GrpcAdminService(admin), withQueues))
        .addService(guarded(new GrpcScheduleService(schedules), withQueues))
        .addService(guarded(health.getHealthService(), interceptors));
    if (reflection) {
      builder
          .addService(guarded(ProtoReflectionServiceV1.newInstance(), interceptors))
          .addService(guarded(reflectionV1alpha(), interceptors));
    }
    this.server = builder.build();
  }

  /**
   * The service behind its interceptors, behind the parse guard: interceptors see parsed (typed)
   * requests, and a request that does not parse never reaches them.
   */
  private ServerServiceDefinition guarded(
      BindableService service, ServerInterceptor... interceptors) {
    return unparseable.guard(ServerInterceptors.intercept(service, interceptors));
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
    health.setStatus(ScheduleServiceGrpc.SERVICE_NAME, ServingStatus.SERVING);
    return this;
  }

  /** The bound port, or -1 for a server without one (in-process). */
  public int port() {
    return server.getPort();
  }

  /**
   * Reports NOT_SERVING, so balancing clients move away, stops accepting new calls and ends the
   * Work and Produce streams once the requests they hold are answered.
   */
  public void beginShutdown() {
    health.enterTerminalState();
    server.shutdown();
    streams.stopAll();
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
