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
import io.antrean.proto.v1.WorkError;
import io.antrean.proto.v1.WorkRequest;
import io.antrean.proto.v1.WorkResponse;
import io.antrean.proto.v1.WorkerServiceGrpc;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.protobuf.StatusProto;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import javax.annotation.Nullable;

/**
 * One worker's Work stream: Lease and CompleteBatch as messages instead of calls. Each request is
 * checked as its unary call would be by the interceptors (the caller's queues, admission), answered
 * by the same code as the calls ({@link WorkerAnswers}) and timed under the unary method's name, so
 * the metrics read the same whichever way a worker sends them. Answers go out in the order they are
 * ready, each under its request's id; a cancel, the client's half-close or the stream's end
 * withdraws what still waits; so does the coordinator's shutdown ({@link #stop}).
 *
 * <p>Thread-safe: requests arrive on the call's thread, answers come from whichever thread
 * completes them, and every send to the stream is serialized here.
 */
final class WorkStream implements StreamObserver<WorkRequest> {
  private static final String LEASE = WorkerServiceGrpc.getLeaseMethod().getFullMethodName();
  private static final String COMPLETE_BATCH =
      WorkerServiceGrpc.getCompleteBatchMethod().getFullMethodName();

  private final ServerCallStreamObserver<WorkResponse> out;
  private final WorkerAnswers answers;
  @Nullable private final Admission admission;
  @Nullable private final RpcDurations durations;
  @Nullable private final Identity identity = CallerIdentity.current();
  private final Map<Long, Pending> pending = new ConcurrentHashMap<>();
  private final Object sending = new Object();
  private boolean halfClosed; // guarded by sending
  private boolean stopping; // guarded by sending
  private boolean ended; // guarded by sending
  private volatile Runnable onEnd = () -> {};

  /**
   * @param admission admits each request as its unary call would be admitted; null admits all
   * @param durations times each request; null times none
   */
  WorkStream(
      ServerCallStreamObserver<WorkResponse> out,
      WorkerAnswers answers,
      @Nullable Admission admission,
      @Nullable RpcDurations durations) {
    this.out = out;
    this.answers = answers;
    this.admission = admission;
    this.durations = durations;
    out.setOnCancelHandler(this::broken);
    // Closed from the server's side without this stream (a message that does not parse).
    out.setOnCloseHandler(this::broken);
  }

  @Override
  public void onNext(WorkRequest request) {
    long id = request.getRequestId();
    switch (request.getCallCase()) {
      case CANCEL -> {
        Pending waiting = pending.remove(id);
        if (waiting != null) {
          waiting.future().cancel(false);
        }
      }
      case LEASE ->
          start(
              id,
              LEASE,
              request.getLease(),
              Admission.Kind.LONG_POLL,
              r -> answers.lease(r),
              (b, r) -> b.setLease(r));
      case COMPLETE_BATCH ->
          start(
              id,
              COMPLETE_BATCH,
              request.getCompleteBatch(),
              Admission.Kind.UNARY,
              r -> answers.completeBatch(r),
              (b, r) -> b.setCompleteBatch(r));
      case CALL_NOT_SET -> end(invalid("call", "must be one of lease, complete_batch or cancel"));
    }
  }

  /** A request being answered, and whether it is a lease (which a half-close withdraws). */
  private record Pending(CompletableFuture<?> future, boolean lease) {}

  /** Sets a request's answer on the response. */
  private interface Answer<A> {
    void set(WorkResponse.Builder response, A answer);
  }

  private <Q extends com.google.protobuf.MessageLite, A> void start(
      long id,
      String method,
      Q request,
      Admission.Kind kind,
      Function<Q, CompletableFuture<A>> body,
      Answer<A> answer) {
    if (id == 0) {
      end(invalid("request_id", "must not be 0"));
      return;
    }
    if (pending.containsKey(id)) {
      end(invalid("request_id", id + " is still unanswered on this stream"));
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
      future = body.apply(request);
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
          if (pending.remove(id, entry) && !future.isCancelled()) {
            send(
                id,
                method,
                startNanos,
                response,
                error == null ? null : StatusMapping.toStatus(error),
                answer);
          } else if (durations != null) {
            durations.record(method, Status.Code.CANCELLED.name(), System.nanoTime() - startNanos);
          }
          finishIfDone();
        });
  }

  /** Refuses a request naming a queue the caller may not use, as QueueAccessInterceptor would. */
  private void checkQueues(Object request) {
    if (identity != null) {
      RequestQueues.of(request).forEach(q -> AccessPolicy.checkQueue(identity, q));
    }
  }

  private <A> void send(
      long id,
      String method,
      long startNanos,
      @Nullable A response,
      @Nullable StatusRuntimeException error,
      Answer<A> answer) {
    WorkResponse.Builder b = WorkResponse.newBuilder().setRequestId(id);
    if (error == null) {
      answer.set(b, response);
    } else {
      b.setError(workError(error));
    }
    if (durations != null) {
      Status.Code code = error == null ? Status.Code.OK : error.getStatus().getCode();
      durations.record(method, code.name(), System.nanoTime() - startNanos);
    }
    synchronized (sending) {
      if (!ended && !out.isCancelled()) {
        emit(() -> out.onNext(b.build()));
      }
    }
  }

  /** The call's status, details included, as the stream carries it. */
  private static WorkError workError(StatusRuntimeException error) {
    com.google.rpc.Status status = StatusProto.fromThrowable(error);
    if (status == null) {
      Status plain = error.getStatus();
      return WorkError.newBuilder()
          .setCode(plain.getCode().value())
          .setMessage(plain.getDescription() == null ? "" : plain.getDescription())
          .build();
    }
    return WorkError.newBuilder()
        .setCode(status.getCode())
        .setMessage(status.getMessage())
        .addAllDetails(status.getDetailsList())
        .build();
  }

  private static StatusRuntimeException invalid(String field, String description) {
    return StatusMapping.toStatus(
        new ValidationException(List.of(new FieldViolation(field, description))));
  }

  /** Runs once when the stream has ended, however it ended. */
  void onEnd(Runnable action) {
    this.onEnd = action;
  }

  /**
   * The coordinator is stopping: waiting leases are withdrawn, requests still arriving are refused
   * UNAVAILABLE (COORDINATOR_STOPPING), and the stream ends once the completions being stored are
   * answered, so the worker opens its next stream to another coordinator.
   */
  void stop() {
    synchronized (sending) {
      stopping = true;
      halfClosed = true;
    }
    withdrawLeases();
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
      Pending waiting = pending.remove(id);
      if (waiting != null) {
        waiting.future().cancel(false);
      }
    }
  }

  @Override
  public void onError(Throwable t) {
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
   * The worker sends nothing more: leases still waiting are withdrawn, completions still being
   * stored are answered, then the stream ends.
   */
  @Override
  public void onCompleted() {
    synchronized (sending) {
      halfClosed = true;
    }
    withdrawLeases();
    finishIfDone();
  }

  private void withdrawLeases() {
    pending.forEach(
        (id, waiting) -> {
          if (waiting.lease() && pending.remove(id, waiting)) {
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
