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
 * Keeps the hot calls on the network thread that read them, and runs every other call on {@code
 * others}. Only for a server whose own executor is direct. grpc-java starts every call (method
 * lookup, interceptors, {@code startCall}) on the server's executor and only then switches to the
 * one chosen here; with a thread pool as the server's executor, each message went from the network
 * thread to a pool thread first (a wake-up, which on a small machine is much of a message's cost).
 * With a direct one, a hot call's listener runs on the network thread and the others move to {@code
 * others} right after the method lookup, before any interceptor runs.
 *
 * <p>Which calls are hot depends on the store ({@code JobStore.asyncWrites().neverBlock()}):
 *
 * <ul>
 *   <li>{@link #whollyOnTheNetworkThread}: on a store whose writes never block, the unary hot calls
 *       and the Work and Produce streams, whose handlers only check the request and hand it to the
 *       store, and answer from the thread that completes the store's future;
 *   <li>{@link #streamsOnTheNetworkThread}: on a store whose writes may block, the Work and Produce
 *       streams alone. Their listeners only parse, check and admit a message there and hand its
 *       handler to the call threads ({@link RequestStreams#handlers}), so a message crosses to
 *       another thread once instead of twice; unary calls run their handlers on the call threads.
 * </ul>
 */
final class HotCallExecutors implements ServerCallExecutorSupplier {
  private static final Set<String> STREAMS =
      Set.of(
          JobServiceGrpc.getProduceMethod().getFullMethodName(),
          WorkerServiceGrpc.getWorkMethod().getFullMethodName());
  private static final Set<String> HOT_METHODS =
      Set.of(
          JobServiceGrpc.getEnqueueMethod().getFullMethodName(),
          JobServiceGrpc.getEnqueueBatchMethod().getFullMethodName(),
          JobServiceGrpc.getProduceMethod().getFullMethodName(),
          WorkerServiceGrpc.getLeaseMethod().getFullMethodName(),
          WorkerServiceGrpc.getCompleteMethod().getFullMethodName(),
          WorkerServiceGrpc.getCompleteBatchMethod().getFullMethodName(),
          WorkerServiceGrpc.getWorkMethod().getFullMethodName());

  private final Set<String> onTheNetworkThread;
  private final Executor others;

  private HotCallExecutors(Set<String> onTheNetworkThread, Executor others) {
    this.onTheNetworkThread = onTheNetworkThread;
    this.others = others;
  }

  /**
   * For a store whose writes never block: the hot calls and streams stay on the network thread.
   *
   * @param others runs every other call: interceptors, handler and listener callbacks
   */
  static HotCallExecutors whollyOnTheNetworkThread(Executor others) {
    return new HotCallExecutors(HOT_METHODS, others);
  }

  /**
   * For a store whose writes may block: the Work and Produce streams' listeners stay on the network
   * thread and hand their handlers to the call threads; every other call runs on {@code others}.
   */
  static HotCallExecutors streamsOnTheNetworkThread(Executor others) {
    return new HotCallExecutors(STREAMS, others);
  }

  /** Null (stay on the network thread) for a hot call, the executor of the others otherwise. */
  @Override
  @Nullable
  public <ReqT, RespT> Executor getExecutor(ServerCall<ReqT, RespT> call, Metadata metadata) {
    return isHot(call.getMethodDescriptor().getFullMethodName()) ? null : others;
  }

  boolean isHot(String fullMethodName) {
    return onTheNetworkThread.contains(fullMethodName);
  }
}
