package io.antrean.client;

import io.antrean.channel.CoordinatorChannels;
import io.antrean.channel.CoordinatorServiceConfig;
import io.antrean.proto.RequestErrors;
import io.antrean.proto.v1.EnqueueBatchRequest;
import io.antrean.proto.v1.EnqueueBatchResponse;
import io.antrean.proto.v1.EnqueueRequest;
import io.antrean.proto.v1.EnqueueResponse;
import io.antrean.proto.v1.JobServiceGrpc;
import io.antrean.proto.v1.ProduceRequest;
import io.antrean.proto.v1.ProduceResponse;
import io.grpc.Channel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.StreamObserver;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import javax.annotation.Nullable;

/**
 * Enqueue and EnqueueBatch as messages of one Produce stream to the coordinator instead of a call
 * each: a message costs both ends much less than a call, most of all in JVMs that have not compiled
 * gRPC's call machinery yet. The stream opens with the first request, and a new one opens after
 * {@value #REQUESTS_PER_STREAM} requests (the old one ends once answered), so that with several
 * coordinators the requests keep going round them as calls would. Each request waits for its answer
 * up to its timeout, then fails {@code DEADLINE_EXCEEDED} as a call would (it may still be stored).
 * A request left unanswered by a broken stream fails with the stream's status; one that fails
 * {@code UNAVAILABLE} that way or in its answer (a coordinator gone or stopping) is sent again, on
 * a new stream once its own has ended, as the channel's retry policy repeats a call that ends so
 * ({@link CoordinatorServiceConfig}). Against a coordinator without Produce ({@code UNIMPLEMENTED})
 * every request goes as its unary call, then and from then on; so does a request longer than
 * {@value CoordinatorChannels#MAX_STREAM_REQUEST_BYTES} bytes, always.
 *
 * <p>Thread-safe; blocking callers wait on their own thread, answers arrive on the transport's.
 */
final class ProduceStreamClient implements AutoCloseable {
  /** Requests sent on one stream before the next request opens another. */
  static final int REQUESTS_PER_STREAM = 1_000;

  private final JobServiceGrpc.JobServiceStub stub;
  private final JobServiceGrpc.JobServiceBlockingStub calls;
  private final Object lock = new Object();
  @Nullable private OpenStream current; // guarded by lock
  private long lastId; // guarded by lock
  private boolean closed; // guarded by lock
  private volatile boolean unary;

  ProduceStreamClient(Channel channel) {
    this.stub = JobServiceGrpc.newStub(channel).withExecutor(Runnable::run);
    this.calls = JobServiceGrpc.newBlockingStub(channel);
  }

  /**
   * @throws StatusRuntimeException as the unary call would throw
   */
  EnqueueResponse enqueue(EnqueueRequest request, Duration timeout) {
    return send(
        b -> b.setEnqueue(request),
        request.getSerializedSize(),
        ProduceResponse::getEnqueue,
        stub -> stub.enqueue(request),
        timeout);
  }

  /**
   * @throws StatusRuntimeException as the unary call would throw
   */
  EnqueueBatchResponse enqueueBatch(EnqueueBatchRequest request, Duration timeout) {
    return send(
        b -> b.setEnqueueBatch(request),
        request.getSerializedSize(),
        ProduceResponse::getEnqueueBatch,
        stub -> stub.enqueueBatch(request),
        timeout);
  }

  /** Half-closes the stream: the coordinator answers what it holds and ends it. */
  @Override
  public void close() {
    synchronized (lock) {
      closed = true;
      if (current != null) {
        current.halfClose();
        current = null;
      }
    }
  }

  private <A> A send(
      Function<ProduceRequest.Builder, ProduceRequest.Builder> message,
      int requestBytes,
      Function<ProduceResponse, A> answer,
      Function<JobServiceGrpc.JobServiceBlockingStub, A> call,
      Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    boolean onStream = requestBytes <= CoordinatorChannels.MAX_STREAM_REQUEST_BYTES;
    for (int attempt = 1; ; attempt++) {
      Sent sent = unary || !onStream ? null : sendOnStream(message);
      if (sent == null) {
        return call.apply(calls.withDeadlineAfter(remaining(deadline), TimeUnit.NANOSECONDS));
      }
      StatusRuntimeException failure;
      try {
        ProduceResponse response = sent.answer().get(remaining(deadline), TimeUnit.NANOSECONDS);
        if (!response.hasError()) {
          return answer.apply(response);
        }
        failure = RequestErrors.toException(response.getError());
      } catch (TimeoutException e) {
        sent.stream().pending.remove(sent.id());
        throw Status.DEADLINE_EXCEEDED
            .withDescription("unanswered on the Produce stream after " + timeout)
            .asRuntimeException();
      } catch (InterruptedException e) {
        sent.stream().pending.remove(sent.id());
        Thread.currentThread().interrupt();
        throw Status.CANCELLED.withDescription("interrupted").withCause(e).asRuntimeException();
      } catch (ExecutionException e) {
        failure = (StatusRuntimeException) e.getCause();
        if (failure.getStatus().getCode() == Status.Code.UNIMPLEMENTED && unary) {
          continue;
        }
      }
      // As the channel's retry policy repeats a call that ends UNAVAILABLE.
      if (failure.getStatus().getCode() != Status.Code.UNAVAILABLE
          || attempt >= CoordinatorServiceConfig.MAX_ATTEMPTS) {
        throw failure;
      }
      backOff(attempt + 1, deadline, failure);
    }
  }

  /** The time left before {@code deadline}. */
  private static long remaining(long deadline) {
    return Math.max(0, deadline - System.nanoTime());
  }

  /**
   * Waits a random time up to the policy's backoff, or throws {@code failure} past the deadline.
   */
  private static void backOff(int attempt, long deadline, StatusRuntimeException failure) {
    long wait =
        ThreadLocalRandom.current()
            .nextLong(CoordinatorServiceConfig.backoffBefore(attempt).toNanos() + 1);
    if (System.nanoTime() + wait >= deadline) {
      throw failure;
    }
    try {
      TimeUnit.NANOSECONDS.sleep(wait);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw failure;
    }
  }

  /** A request sent on a stream, and its answer to come. */
  private record Sent(OpenStream stream, long id, CompletableFuture<ProduceResponse> answer) {}

  /** Sends on the current stream (opening one if needed); null once the coordinator has none. */
  @Nullable
  private Sent sendOnStream(Function<ProduceRequest.Builder, ProduceRequest.Builder> message) {
    synchronized (lock) {
      if (closed) {
        throw Status.CANCELLED.withDescription("client closed").asRuntimeException();
      }
      if (unary) {
        return null;
      }
      OpenStream stream = current;
      if (stream == null || stream.ended || stream.sent >= REQUESTS_PER_STREAM) {
        if (stream != null) {
          stream.halfClose();
        }
        stream = new OpenStream();
        current = stream;
      }
      CompletableFuture<ProduceResponse> answered = new CompletableFuture<>();
      long id = ++lastId;
      if (stream.ended) {
        // With a direct transport the stream may end inside its own start.
        answered.completeExceptionally(stream.endError);
        return new Sent(stream, id, answered);
      }
      stream.pending.put(id, answered);
      stream.sent++;
      stream.requests.onNext(message.apply(ProduceRequest.newBuilder().setRequestId(id)).build());
      return new Sent(stream, id, answered);
    }
  }

  /** One Produce stream; ended once the coordinator ended it or it broke. */
  private final class OpenStream implements StreamObserver<ProduceResponse> {
    final Map<Long, CompletableFuture<ProduceResponse>> pending = new ConcurrentHashMap<>();
    final StreamObserver<ProduceRequest> requests;
    int sent; // guarded by lock
    boolean halfClosed; // guarded by lock
    boolean ended; // guarded by lock
    StatusRuntimeException endError; // guarded by lock, set once ended

    OpenStream() {
      this.requests = stub.produce(this);
    }

    /** No more requests on this stream; it ends once those sent are answered. */
    void halfClose() {
      if (!ended && !halfClosed) {
        halfClosed = true;
        requests.onCompleted();
      }
    }

    @Override
    public void onNext(ProduceResponse response) {
      CompletableFuture<ProduceResponse> answered = pending.remove(response.getRequestId());
      if (answered != null) {
        answered.complete(response);
      }
    }

    @Override
    public void onError(Throwable t) {
      ended(StatusTranslation.asStatusException(t));
    }

    @Override
    public void onCompleted() {
      ended(
          Status.UNAVAILABLE
              .withDescription("the coordinator ended the Produce stream")
              .asRuntimeException());
    }

    private void ended(StatusRuntimeException error) {
      synchronized (lock) {
        ended = true;
        endError = error;
        if (current == this) {
          current = null;
        }
        if (error.getStatus().getCode() == Status.Code.UNIMPLEMENTED) {
          unary = true;
        }
      }
      for (Long id : pending.keySet()) {
        CompletableFuture<ProduceResponse> left = pending.remove(id);
        if (left != null) {
          left.completeExceptionally(error);
        }
      }
    }
  }
}
