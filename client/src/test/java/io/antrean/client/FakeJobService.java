package io.antrean.client;

import com.google.protobuf.Any;
import com.google.rpc.ErrorInfo;
import io.antrean.proto.RequestErrors;
import io.antrean.proto.v1.CancelJobRequest;
import io.antrean.proto.v1.CancelJobResponse;
import io.antrean.proto.v1.EnqueueBatchRequest;
import io.antrean.proto.v1.EnqueueBatchResponse;
import io.antrean.proto.v1.EnqueueRequest;
import io.antrean.proto.v1.EnqueueResponse;
import io.antrean.proto.v1.GetJobRequest;
import io.antrean.proto.v1.GetJobResponse;
import io.antrean.proto.v1.GetStatsRequest;
import io.antrean.proto.v1.GetStatsResponse;
import io.antrean.proto.v1.Job;
import io.antrean.proto.v1.JobServiceGrpc;
import io.antrean.proto.v1.ListDependenciesRequest;
import io.antrean.proto.v1.ListDependenciesResponse;
import io.antrean.proto.v1.ListJobsRequest;
import io.antrean.proto.v1.ListJobsResponse;
import io.antrean.proto.v1.ProduceRequest;
import io.antrean.proto.v1.ProduceResponse;
import io.antrean.proto.v1.WatchJobRequest;
import io.antrean.proto.v1.WatchJobResponse;
import io.grpc.Context;
import io.grpc.Deadline;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.protobuf.StatusProto;
import io.grpc.stub.StreamObserver;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A scriptable JobService for tests: each RPC answers with its handler (which may throw a {@link
 * StatusRuntimeException}), and every request and deadline the server saw is recorded. Handlers are
 * volatile fields so a test can swap them; the recordings are synchronized lists.
 */
public class FakeJobService extends JobServiceGrpc.JobServiceImplBase {

  /** Answers one request; throw a {@link StatusRuntimeException} to fail the call. */
  @FunctionalInterface
  public interface Handler<Q, R> {
    R handle(Q request) throws InterruptedException;
  }

  public volatile Handler<EnqueueRequest, EnqueueResponse> enqueue =
      r -> EnqueueResponse.newBuilder().setJob(jobFor(1, r)).build();
  public volatile Handler<EnqueueBatchRequest, EnqueueBatchResponse> enqueueBatch =
      FakeJobService::numberBatch;
  public volatile Handler<GetJobRequest, GetJobResponse> getJob =
      r -> {
        throw Status.NOT_FOUND
            .withDescription("job " + r.getId() + " not found")
            .asRuntimeException();
      };
  public volatile Handler<ListDependenciesRequest, ListDependenciesResponse> listDependencies =
      r -> {
        throw Status.NOT_FOUND
            .withDescription("job " + r.getId() + " not found")
            .asRuntimeException();
      };
  public volatile Handler<ListJobsRequest, ListJobsResponse> listJobs =
      r -> ListJobsResponse.getDefaultInstance();
  public volatile Handler<CancelJobRequest, CancelJobResponse> cancelJob =
      r -> {
        throw Status.NOT_FOUND
            .withDescription("job " + r.getId() + " not found")
            .asRuntimeException();
      };
  public volatile Handler<GetStatsRequest, GetStatsResponse> getStats =
      r -> GetStatsResponse.getDefaultInstance();

  /** Serves one WatchJob call on its observer: any number of messages, then an end or none. */
  @FunctionalInterface
  public interface StreamHandler<Q, R> {
    void handle(Q request, StreamObserver<R> observer) throws InterruptedException;
  }

  public volatile StreamHandler<WatchJobRequest, WatchJobResponse> watchJob =
      (r, observer) ->
          observer.onError(
              Status.NOT_FOUND
                  .withDescription("job " + r.getId() + " not found")
                  .asRuntimeException());

  /** A WatchJob handler that sends these snapshots, in order, and ends the stream OK. */
  public static StreamHandler<WatchJobRequest, WatchJobResponse> streaming(Job... snapshots) {
    return (r, observer) -> {
      for (Job job : snapshots) {
        observer.onNext(WatchJobResponse.newBuilder().setJob(job).build());
      }
      observer.onCompleted();
    };
  }

  /**
   * Whether Produce is served (each message answered by the enqueue and enqueueBatch handlers);
   * false answers it UNIMPLEMENTED, as a coordinator older than Produce does.
   */
  public volatile boolean produceImplemented = true;

  /** Produce streams opened. */
  public final AtomicInteger produceStreams = new AtomicInteger();

  /** Every request received, in order. */
  public final List<Object> requests = Collections.synchronizedList(new ArrayList<>());

  /** The deadline of every call received, in order; null entries for calls without one. */
  public final List<Deadline> deadlines = Collections.synchronizedList(new ArrayList<>());

  /** The job a plain Enqueue of {@code request} stores, with the given id. */
  public static Job jobFor(long id, EnqueueRequest request) {
    return Job.newBuilder()
        .setId(id)
        .setQueue(request.getQueue().isEmpty() ? "default" : request.getQueue())
        .setType(request.getType())
        .setPayload(request.getPayload())
        .setContentType(request.getContentType())
        .setPriority(request.getPriority())
        .setIdempotencyKey(request.getIdempotencyKey())
        .setRetryPolicy(request.getRetryPolicy())
        .setState(io.antrean.proto.v1.JobState.JOB_STATE_PENDING)
        .build();
  }

  /**
   * A failure the way the coordinator sends one with a reason: the status code and message with a
   * {@code google.rpc.ErrorInfo} detail holding {@code reason}.
   */
  public static StatusRuntimeException failure(Status.Code code, String message, String reason) {
    return StatusProto.toStatusRuntimeException(
        com.google.rpc.Status.newBuilder()
            .setCode(code.value())
            .setMessage(message)
            .addDetails(
                Any.pack(ErrorInfo.newBuilder().setReason(reason).setDomain("antrean.io").build()))
            .build());
  }

  private static EnqueueBatchResponse numberBatch(EnqueueBatchRequest batch) {
    EnqueueBatchResponse.Builder response = EnqueueBatchResponse.newBuilder();
    for (int i = 0; i < batch.getJobsCount(); i++) {
      response.addResultsBuilder().setJob(jobFor(i + 1, batch.getJobs(i)));
    }
    return response.build();
  }

  /** The requests of one type, in order. */
  public <T> List<T> requestsOf(Class<T> type) {
    synchronized (requests) {
      return requests.stream().filter(type::isInstance).map(type::cast).toList();
    }
  }

  @Override
  public void enqueue(EnqueueRequest request, StreamObserver<EnqueueResponse> observer) {
    serve(request, observer, enqueue);
  }

  @Override
  public StreamObserver<ProduceRequest> produce(StreamObserver<ProduceResponse> observer) {
    if (!produceImplemented) {
      return super.produce(observer);
    }
    produceStreams.incrementAndGet();
    return new StreamObserver<>() {
      @Override
      public void onNext(ProduceRequest request) {
        ProduceResponse.Builder answer =
            ProduceResponse.newBuilder().setRequestId(request.getRequestId());
        try {
          if (request.hasEnqueue()) {
            requests.add(request.getEnqueue());
            answer.setEnqueue(enqueue.handle(request.getEnqueue()));
          } else {
            requests.add(request.getEnqueueBatch());
            answer.setEnqueueBatch(enqueueBatch.handle(request.getEnqueueBatch()));
          }
        } catch (StatusRuntimeException e) {
          answer.setError(RequestErrors.of(e));
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          observer.onError(Status.CANCELLED.withCause(e).asRuntimeException());
          return;
        }
        synchronized (observer) {
          observer.onNext(answer.build());
        }
      }

      @Override
      public void onError(Throwable t) {}

      @Override
      public void onCompleted() {
        synchronized (observer) {
          observer.onCompleted();
        }
      }
    };
  }

  @Override
  public void enqueueBatch(
      EnqueueBatchRequest request, StreamObserver<EnqueueBatchResponse> observer) {
    serve(request, observer, enqueueBatch);
  }

  @Override
  public void getJob(GetJobRequest request, StreamObserver<GetJobResponse> observer) {
    serve(request, observer, getJob);
  }

  @Override
  public void listDependencies(
      ListDependenciesRequest request, StreamObserver<ListDependenciesResponse> observer) {
    serve(request, observer, listDependencies);
  }

  @Override
  public void listJobs(ListJobsRequest request, StreamObserver<ListJobsResponse> observer) {
    serve(request, observer, listJobs);
  }

  @Override
  public void cancelJob(CancelJobRequest request, StreamObserver<CancelJobResponse> observer) {
    serve(request, observer, cancelJob);
  }

  @Override
  public void getStats(GetStatsRequest request, StreamObserver<GetStatsResponse> observer) {
    serve(request, observer, getStats);
  }

  @Override
  public void watchJob(WatchJobRequest request, StreamObserver<WatchJobResponse> observer) {
    requests.add(request);
    deadlines.add(Context.current().getDeadline());
    try {
      watchJob.handle(request, observer);
    } catch (StatusRuntimeException e) {
      observer.onError(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      observer.onError(Status.CANCELLED.withCause(e).asRuntimeException());
    }
  }

  private <Q, R> void serve(Q request, StreamObserver<R> observer, Handler<Q, R> handler) {
    serve(request, observer, handler, requests, deadlines);
  }

  /**
   * Records the request and its deadline, then answers with the handler's response or its status.
   * Shared with {@link FakeAdminService}, which records into its own lists.
   */
  static <Q, R> void serve(
      Q request,
      StreamObserver<R> observer,
      Handler<Q, R> handler,
      List<Object> requests,
      List<Deadline> deadlines) {
    requests.add(request);
    deadlines.add(Context.current().getDeadline());
    try {
      observer.onNext(handler.handle(request));
      observer.onCompleted();
    } catch (StatusRuntimeException e) {
      observer.onError(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      observer.onError(Status.CANCELLED.withCause(e).asRuntimeException());
    }
  }
}
