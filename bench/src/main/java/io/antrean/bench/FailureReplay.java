package io.antrean.bench;

import io.antrean.client.AntreanException;
import io.antrean.client.GrpcAntreanClient;
import io.antrean.proto.v1.EnqueueRequest;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Status;

/**
 * Turns the failure of an asynchronous producer call into the {@link AntreanException} the blocking
 * client would have thrown for it, so that the CLI reports a refused call the same way whichever
 * stub made it. It replays the status and trailers through a {@link GrpcAntreanClient} on a channel
 * whose every call fails that way, which keeps the client's one translation table the only one.
 * Stateless and thread-safe.
 */
final class FailureReplay {
  private FailureReplay() {}

  /**
   * The exception the blocking client throws for a call that ended with {@code failure}.
   *
   * @param failure what an asynchronous stub passed to {@code onError}; anything that is not a gRPC
   *     status exception counts as {@code UNKNOWN}
   */
  static AntreanException translate(Throwable failure) {
    Status status = Status.fromThrowable(failure);
    Metadata trailers = Status.trailersFromThrowable(failure);
    Channel replaying = new FailingChannel(status, trailers == null ? new Metadata() : trailers);
    try {
      GrpcAntreanClient.forChannel(replaying).build().enqueue(EnqueueRequest.getDefaultInstance());
    } catch (AntreanException translated) {
      return translated;
    }
    throw new IllegalStateException("a replayed failure did not fail: " + status);
  }

  /** A channel whose calls end with one status as soon as they start, without any transport. */
  private static final class FailingChannel extends Channel {
    private final Status status;
    private final Metadata trailers;

    FailingChannel(Status status, Metadata trailers) {
      this.status = status;
      this.trailers = trailers;
    }

    @Override
    public <Q, R> ClientCall<Q, R> newCall(MethodDescriptor<Q, R> method, CallOptions options) {
      return new ClientCall<>() {
        @Override
        public void start(Listener<R> listener, Metadata headers) {
          listener.onClose(status, trailers);
        }

        @Override
        public void request(int count) {}

        @Override
        public void cancel(String message, Throwable cause) {}

        @Override
        public void halfClose() {}

        @Override
        public void sendMessage(Q message) {}
      };
    }

    @Override
    public String authority() {
      return "failure-replay";
    }
  }
}
