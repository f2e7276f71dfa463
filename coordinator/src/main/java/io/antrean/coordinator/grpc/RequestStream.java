package io.antrean.coordinator.grpc;

import io.antrean.coordinator.api.CallerIdentity;
import io.antrean.coordinator.core.Admission;
import io.antrean.coordinator.core.CoordinatorStoppingException;
import io.antrean.coordinator.core.FieldViolation;
import io.antrean.coordinator.core.ValidationException;
import io.antrean.coordinator.metrics.RpcDurations;
import io.antrean.coordinator.security.AccessPolicy;
import io.antrean.coordinator.security.Identity;
import io.antrean.coordinator.security.RequestQueues;
import io.antrean.proto.RequestErrors;
import io.antrean.proto.v1.RequestError;
import io.grpc.Context;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import java.util.function.Function;
import javax.annotation.Nullable;

/**
 * A stream whose messages stand for unary calls ({@link WorkStream}, {@link ProduceStream}): each
 * request carries an id, is checked as the interceptors check its call (the caller's queues,
 * admission), is answered by the same code as the call and is timed under the call's method name,
 * so the metrics read the same whichever way a client sends it. Answers go out in the order they
 * are ready, each under its request's id, with the call's status in error. A request id of 0 or one
 * still unanswered ends the stream INVALID_ARGUMENT. The client's half-close withdraws the requests
 * that wait (a lease) and ends the stream once the others are answered; so does the coordinator's
 * shutdown ({@link #stop}), which refuses later requests UNAVAILABLE (COORDINATOR_STOPPING).
 *
 * <p>Thread-safe: requests arrive on the call's thread, answers come from whichever thread
 * completes them, and every send to the stream is serialized here.
 *
 * @param <Q> the stream's request message
 * @param <R> the stream's response message
 */
abstract class RequestStream<Q, R> implements StreamObserver<Q> {
  private final ServerCallStreamObserver<R> out;
  @Nullable private final Admission admission;
  @Nullable private final RpcDurations durations;
  @Nullable private final Executor handlers; // null: on the thread the request arrived on
  @Nullable private final Identity identity = CallerIdentity.current();
  private final Map<Long, Pending> pending = new ConcurrentHashMap<>();
  private final Object sending = new Object();
  private boolean halfClosed; // guarded by sending
  private boolean stopping; // guarded by sending
  private boolean ended; // guarded by sending
  private volatile Runnable onEnd = () -> {};

  /**
   * @param streams how the requests are admitted, timed and run
   */
  RequestStream(ServerCallStreamObserver<R> out, RequestStreams streams) {
    this.out = out;
    this.admission = streams.admission();
    this.durations = streams.durations();
    this.handlers = streams.handlers();
    out.setOnCancelHandler(this::broken);
    // Closed from the server's side without this stream (a message that does not parse).
    out.setOnCloseHandler(this::broken);
  }

  /** The response that carries {@code error} as the answer to request {@code id}. */
  abstract R errorResponse(long id, RequestError error);

  /** A request being answered, and whether it waits (a lease), which a half-close withdraws. */
  private record Pending(CompletableFuture<?> future, boolean waits) {}

  /** For {@link #start}: an answer that, unread, leaves nothing to hand back. */
  static final Consumer<Object> NOTHING_HELD = unread -> {};

  /** The response that carries a request's answer. */
  interface Answer<A, R> {
    R response(long id, A answer);
  }

  /**
   * Starts answering request {@code id} as the unary call {@code method} with {@code body}.
   *
   * @param kind how admission counts it: {@link Admission.Kind#LONG_POLL} for a request that waits
   *     (withdrawn by a half-close), {@link Admission.Kind#UNARY} with its bytes otherwise
   * @param undelivered takes an answer made that will not be sent (the request was withdrawn, or
   *     the stream ended, as it was answered), to hand back what it holds (leased jobs); {@link
   *     #NOTHING_HELD} for an answer that holds nothing
   */
  final <M extends com.google.protobuf.MessageLite, A> void start(
      long id,
      String method,
      M request,
      Admission.Kind kind,
      Function<M, CompletableFuture<A>> body,
      Answer<A, R> answer,
      Consumer<? super A> undelivered) {
    if (id == 0) {
      endInvalid("request_id", "must not be 0");
      return;
    }
    if (pending.containsKey(id)) {
      endInvalid("request_id", id + " is still unanswered on this stream");
      return;
    }
    long startNanos = System.nanoTime();
    CompletableFuture<A> future;
    Admission.Ticket ticket = null;
    try {
      synchronized (sending) {
        if (stopping) {
          throw new CoordinatorStoppingException();
        }
      }
      checkQueues(request);
      if (admission != null) {
        ticket = admission.admit(kind);
        if (kind == Admission.Kind.UNARY) {
          ticket.addBytes(request.getSerializedSize());
        }
      }
      future = handlers == null ? body.apply(request) : onHandlers(body, request, undelivered);
    } catch (RuntimeException e) {
      if (ticket != null) {
        ticket.close();
      }
      send(id, method, startNanos, null, StatusMapping.toStatus(e), answer);
      return;
    }
    Pending entry = new Pending(future, kind == Admission.Kind.LONG_POLL);
    pending.put(id, entry);
    Admission.Ticket held = ticket;
    future.whenComplete(
        (response, error) -> {
          if (held != null) {
            held.close();
          }
          try {
            answered(id, entry, method, startNanos, response, error, answer, undelivered);
          } finally {
            finishIfDone();
          }
        });
  }

  /**
   * Sends the answer of request {@code id}, unless it was withdrawn meanwhile; an answer made and
   * not sent goes to {@code undelivered}.
   */
  private <A> void answered(
      long id,
      Pending entry,
      String method,
      long startNanos,
      @Nullable A response,
      @Nullable Throwable error,
      Answer<A, R> answer,
      Consumer<? super A> undelivered) {
    if (pending.remove(id, entry) && !entry.future().isCancelled()) {
      boolean sent =
          send(
              id,
              method,
              startNanos,
              response,
              error == null ? null : StatusMapping.toStatus(error),
              answer);
      if (!sent && error == null) {
        undelivered.accept(response);
      }
      return;
    }
    if (error == null) {
      // Answered at the moment it was withdrawn: the future could no longer be cancelled.
      undelivered.accept(response);
    }
    if (durations != null) {
      durations.record(method, Status.Code.CANCELLED.name(), System.nanoTime() - startNanos);
    }
  }

  /**
   * Runs {@code body} on the call threads, in the request's call context (the caller's identity
   * among it, which the handlers read as the call's would); the future it returns completes as the
   * body's does, and cancelling it cancels the body's (a withdrawn lease stops waiting), or the
   * body never runs; an answer the body made once it was cancelled goes to {@code undelivered}.
   */
  private <M, A> CompletableFuture<A> onHandlers(
      Function<M, CompletableFuture<A>> body, M request, Consumer<? super A> undelivered) {
    CompletableFuture<A> answer = new CompletableFuture<>();
    Context context = Context.current();
    handlers.execute(
        context.wrap(
            () -> {
              if (answer.isCancelled()) {
                return;
              }
              CompletableFuture<A> running;
              try {
                running = body.apply(request);
              } catch (RuntimeException e) {
                answer.completeExceptionally(e);
                return;
              }
              answer.whenComplete(
                  (a, e) -> {
                    if (answer.isCancelled()) {
                      running.cancel(false);
                    }
                  });
              running.whenComplete(
                  (a, e) -> {
                    if (e == null) {
                      if (!answer.complete(a)) {
                        undelivered.accept(a);
                      }
                    } else {
                      answer.completeExceptionally(e);
                    }
                  });
            }));
    return answer;
  }

  /** Whether a request of this stream is still unanswered. */
  final boolean anyUnanswered() {
    return !pending.isEmpty();
  }

  /** Withdraws request {@code id} if it is still unanswered; it gets no answer. */
  final void cancel(long id) {
    Pending waiting = pending.remove(id);
    if (waiting != null) {
      waiting.future().cancel(false);
    }
  }

  /** Ends the stream INVALID_ARGUMENT with one field violation. */
  final void endInvalid(String field, String description) {
    end(
        StatusMapping.toStatus(
            new ValidationException(List.of(new FieldViolation(field, description)))));
  }

  /** Refuses a request naming a queue the caller may not use, as QueueAccessInterceptor would. */
  private void checkQueues(Object request) {
    if (identity != null) {
      RequestQueues.of(request).forEach(q -> AccessPolicy.checkQueue(identity, q));
    }
  }

  /** Sends an answer; false if the stream ended before it could be. */
  private <A> boolean send(
      long id,
      String method,
      long startNanos,
      @Nullable A response,
      @Nullable StatusRuntimeException error,
      Answer<A, R> answer) {
    R message =
        error == null ? answer.response(id, response) : errorResponse(id, RequestErrors.of(error));
    if (durations != null) {
      Status.Code code = error == null ? Status.Code.OK : error.getStatus().getCode();
      durations.record(method, code.name(), System.nanoTime() - startNanos);
    }
    synchronized (sending) {
      if (ended || out.isCancelled()) {
        return false;
      }
      emit(() -> out.onNext(message));
      return !ended;
    }
  }

  /** Runs once when the stream has ended, however it ended. */
  final void onEnd(Runnable action) {
    this.onEnd = action;
  }

  /**
   * The coordinator is stopping: waiting requests are withdrawn, requests still arriving are
   * refused UNAVAILABLE (COORDINATOR_STOPPING), and the stream ends once the others are answered,
   * so the client opens its next stream to another coordinator.
   */
  final void stop() {
    synchronized (sending) {
      stopping = true;
      halfClosed = true;
    }
    withdrawWaiting();
    finishIfDone();
  }

  /** Ends the stream with {@code error}, withdrawing every request still unanswered. */
  private void end(StatusRuntimeException error) {
    synchronized (sending) {
      if (ended) {
        return;
      }
      ended = true;
    }
    withdrawAll();
    synchronized (sending) {
      emit(() -> out.onError(error));
    }
    onEnd.run();
  }

  private void withdrawAll() {
    for (Long id : pending.keySet()) {
      cancel(id);
    }
  }

  @Override
  public final void onError(Throwable t) {
    broken();
  }

  /**
   * Sends on the stream, unless the call was closed meanwhile by something other than this stream
   * (the parse guard answers a message that does not parse by closing the call).
   */
  private void emit(Runnable send) {
    try {
      send.run();
    } catch (IllegalStateException closed) {
      ended = true;
    }
  }

  /** The client cancelled or the connection went: nobody is left to answer. */
  private void broken() {
    synchronized (sending) {
      ended = true;
    }
    withdrawAll();
    onEnd.run();
  }

  /**
   * The client sends nothing more: requests that wait are withdrawn, the others are answered, then
   * the stream ends.
   */
  @Override
  public final void onCompleted() {
    synchronized (sending) {
      halfClosed = true;
    }
    withdrawWaiting();
    finishIfDone();
  }

  private void withdrawWaiting() {
    pending.forEach(
        (id, waiting) -> {
          if (waiting.waits() && pending.remove(id, waiting)) {
            waiting.future().cancel(false);
          }
        });
  }

  private void finishIfDone() {
    synchronized (sending) {
      if (!halfClosed || ended || !pending.isEmpty()) {
        return;
      }
      ended = true;
      if (!out.isCancelled()) {
        emit(out::onCompleted);
      }
    }
    onEnd.run();
  }
}
