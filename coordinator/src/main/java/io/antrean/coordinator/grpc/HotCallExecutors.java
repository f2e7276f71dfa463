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
 * Runs the hot calls (Enqueue, EnqueueBatch, Lease, Complete, CompleteBatch) on the network thread
 * that read them, and every other call on the server's executor. Only for a store whose async forms
 * never block ({@code JobStore.asyncWrites().neverBlock()}): those handlers then only check the
 * request and hand it to the store, and answer from the thread that completes the store's future.
 * It saves a thread hand-off per call, which on a small machine is much of a call's cost.
 */
final class HotCallExecutors implements ServerCallExecutorSupplier {
  private static final Set<String> HOT_METHODS =
      Set.of(
          JobServiceGrpc.getEnqueueMethod().getFullMethodName(),
          JobServiceGrpc.getEnqueueBatchMethod().getFullMethodName(),
          WorkerServiceGrpc.getLeaseMethod().getFullMethodName(),
          WorkerServiceGrpc.getCompleteMethod().getFullMethodName(),
          WorkerServiceGrpc.getCompleteBatchMethod().getFullMethodName());

  private static final Executor DIRECT = Runnable::run;

  @Override
  @Nullable
  public <ReqT, RespT> Executor getExecutor(ServerCall<ReqT, RespT> call, Metadata metadata) {
    return isHot(call.getMethodDescriptor().getFullMethodName()) ? DIRECT : null;
  }

  static boolean isHot(String fullMethodName) {
    return HOT_METHODS.contains(fullMethodName);
  }
}
