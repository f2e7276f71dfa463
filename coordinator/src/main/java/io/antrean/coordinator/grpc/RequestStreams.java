package io.antrean.coordinator.grpc;

import io.antrean.coordinator.core.Admission;
import io.antrean.coordinator.metrics.RpcDurations;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import javax.annotation.Nullable;

/**
 * The request streams of one server (Work and Produce): how their requests are admitted, timed and
 * run, as the interceptors and the executors treat the calls they stand for; and the open ones, so
 * a stopping coordinator can end them all ({@link #stopAll}). Thread-safe.
 */
final class RequestStreams {
  @Nullable private final Admission admission;
  @Nullable private final RpcDurations durations;
  @Nullable private final Executor handlers;
  private final Set<RequestStream<?, ?>> open = ConcurrentHashMap.newKeySet();
  private volatile boolean stopping;

  /**
   * @param admission admits each request as its unary call would be admitted; null admits all
   * @param durations times each request under its unary method; null times none
   * @param handlers runs each request's handler: the call threads on a store whose writes may
   *     block, so one stream's requests are stored side by side as calls would be (a Produce stream
   *     with 50 in flight, on PostgreSQL); null on a store whose writes never block, where a
   *     handler runs on the thread its request arrived on, as the hot calls run
   */
  RequestStreams(
      @Nullable Admission admission,
      @Nullable RpcDurations durations,
      @Nullable Executor handlers) {
    this.admission = admission;
    this.durations = durations;
    this.handlers = handlers;
  }

  @Nullable
  Admission admission() {
    return admission;
  }

  @Nullable
  RpcDurations durations() {
    return durations;
  }

  @Nullable
  Executor handlers() {
    return handlers;
  }

  /** Keeps {@code stream} until it ends; one opened after {@link #stopAll} is stopped at once. */
  <S extends RequestStream<?, ?>> S add(S stream) {
    open.add(stream);
    stream.onEnd(() -> open.remove(stream));
    if (stopping) {
      stream.stop();
    }
    return stream;
  }

  /**
   * Ends every stream once the requests it holds are answered, and every one opened from now on at
   * once: the coordinator is stopping, and its clients move to another one.
   */
  void stopAll() {
    stopping = true;
    open.forEach(RequestStream::stop);
  }
}
