package io.antrean.coordinator.grpc;

import io.antrean.proto.v1.JobServiceGrpc;
import io.antrean.proto.v1.WorkerServiceGrpc;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallExecutorSupplier;
import java.util.Set;
import java.util.concurrent.Executor;
import javax.annotation.Nullable;

/**
 * Runs the hot calls (Enqueue, EnqueueBatch, Lease, Complete, CompleteBatch, Work) wholly on the
 * network thread that read them, and every other call on {@code others}. Only for a server whose
 * own executor is direct, and a store whose async forms never block ({@code
 * JobStore.asyncWrites().neverBlock()}): those handlers then only check the request and hand it to
 * the store, and answer from the thread that completes the store's future. grpc-java starts every
 * call (method lookup, interceptors, {@code startCall}) on the server's executor and only then
 * switches to the one chosen here; with a thread pool as the server's executor, each hot call went
 * from the network thread to a pool thread and back (two wake-ups, which on a small machine are
 * much of a call's cost). With a direct one, a hot call never leaves the network thread and the
 * others move to {@code others} right after the method lookup, before any interceptor runs.
 */
final class HotCallExecutors implements ServerCallExecutorSupplier {
  private static final Set<String> HOT_METHODS =
      Set.of(
          JobServiceGrpc.getEnqueueMethod().getFullMethodName(),
          JobServiceGrpc.getEnqueueBatchMethod().getFullMethodName(),
          JobServiceGrpc.getProduceMethod().getFullMethodName(),
          WorkerServiceGrpc.getLeaseMethod().getFullMethodName(),
          WorkerServiceGrpc.getCompleteMethod().getFullMethodName(),
          WorkerServiceGrpc.getCompleteBatchMethod().getFullMethodName(),
          WorkerServiceGrpc.getWorkMethod().getFullMethodName());

  private final Executor others;

  /**
   * @param others runs every call that is not hot: interceptors, handler and listener callbacks
   */
  HotCallExecutors(Executor others) {
    this.others = others;
  }

  /** Null (stay on the network thread) for a hot call, the executor of the others otherwise. */
  @Override
  @Nullable
  public <ReqT, RespT> Executor getExecutor(ServerCall<ReqT, RespT> call, Metadata metadata) {
    return isHot(call.getMethodDescriptor().getFullMethodName()) ? null : others;
  }

  static boolean isHot(String fullMethodName) {
    return HOT_METHODS.contains(fullMethodName);
  }
}
