package io.antrean.coordinator.grpc;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The open request streams of one server (Work and Produce), so a stopping coordinator can end them
 * all ({@link #stopAll}). Thread-safe.
 */
final class RequestStreams {
  private final Set<RequestStream<?, ?>> open = ConcurrentHashMap.newKeySet();
  private volatile boolean stopping;

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
