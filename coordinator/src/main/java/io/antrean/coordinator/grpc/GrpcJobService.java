package io.antrean.coordinator.grpc;

import io.antrean.coordinator.core.EnqueueCommand;
import io.antrean.coordinator.core.FieldViolation;
import io.antrean.coordinator.core.JobScheduler;
import io.antrean.coordinator.core.ValidationException;
import io.antrean.coordinator.store.EnqueueResult;
import io.antrean.coordinator.store.JobPage;
import io.antrean.coordinator.store.JobQuery;
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
import io.antrean.proto.v1.JobServiceGrpc;
import io.antrean.proto.v1.ListJobsRequest;
import io.antrean.proto.v1.ListJobsResponse;
import io.grpc.stub.StreamObserver;
import java.time.Clock;
import java.util.List;

/** The producer-facing RPCs: validate, map, call the core once, map back. */
public final class GrpcJobService extends JobServiceGrpc.JobServiceImplBase {
  static final int DEFAULT_PAGE_SIZE = 100;
  static final int MAX_PAGE_SIZE = 1000;

  private final JobScheduler scheduler;
  private final Clock clock;

  public GrpcJobService(JobScheduler scheduler, Clock clock) {
    this.scheduler = scheduler;
    this.clock = clock;
  }

  @Override
  public void enqueue(EnqueueRequest request, StreamObserver<EnqueueResponse> observer) {
    Unary.answer(observer, () -> response(scheduler.enqueue(JobMapper.command(request))));
  }

  @Override
  public void enqueueBatch(
      EnqueueBatchRequest request, StreamObserver<EnqueueBatchResponse> observer) {
    Unary.answer(
        observer,
        () -> {
          List<EnqueueCommand> commands =
              request.getJobsList().stream().map(JobMapper::command).toList();
          EnqueueBatchResponse.Builder b = EnqueueBatchResponse.newBuilder();
          for (EnqueueResult r : scheduler.enqueueBatch(commands)) {
            b.addResults(response(r));
          }
          return b.build();
        });
  }

  private static EnqueueResponse response(EnqueueResult r) {
    return EnqueueResponse.newBuilder()
        .setJob(JobMapper.job(r.job()))
        .setDeduplicated(r.deduplicated())
        .build();
  }

  @Override
  public void getJob(GetJobRequest request, StreamObserver<GetJobResponse> observer) {
    Unary.answer(
        observer,
        () -> {
          requirePositiveId(request.getId());
          return GetJobResponse.newBuilder()
              .setJob(JobMapper.job(scheduler.get(request.getId())))
              .build();
        });
  }

  @Override
  public void listJobs(ListJobsRequest request, StreamObserver<ListJobsResponse> observer) {
    Unary.answer(
        observer,
        () -> {
          int size = request.getPageSize();
          if (size < 0 || size > MAX_PAGE_SIZE) {
            throw new ValidationException(
                List.of(
                    new FieldViolation(
                        "page_size", "must be between 0 and " + MAX_PAGE_SIZE + ", got " + size)));
          }
          JobQuery query =
              new JobQuery(
                  emptyToNull(request.getQueue()),
                  emptyToNull(request.getType()),
                  JobMapper.state(request.getState()),
                  PageTokens.decode(request.getPageToken()),
                  size == 0 ? DEFAULT_PAGE_SIZE : size);
          JobPage page = scheduler.list(query);
          ListJobsResponse.Builder b = ListJobsResponse.newBuilder();
          page.jobs().forEach(j -> b.addJobs(JobMapper.job(j)));
          return b.setNextPageToken(PageTokens.encode(page.nextBeforeId())).build();
        });
  }

  @Override
  public void cancelJob(CancelJobRequest request, StreamObserver<CancelJobResponse> observer) {
    Unary.answer(
        observer,
        () -> {
          requirePositiveId(request.getId());
          return CancelJobResponse.newBuilder()
              .setJob(JobMapper.job(scheduler.cancel(request.getId())))
              .build();
        });
  }

  static void requirePositiveId(long id) {
    if (id <= 0) {
      throw new ValidationException(List.of(new FieldViolation("id", "must be positive")));
    }
  }

  @Override
  public void getStats(GetStatsRequest request, StreamObserver<GetStatsResponse> observer) {
    Unary.answer(
        observer,
        () -> {
          GetStatsResponse.Builder b =
              GetStatsResponse.newBuilder()
                  .setAsOf(ProtoTime.timestamp(clock.instant()))
                  .setDeadLetterWindow(ProtoTime.duration(scheduler.deadLetterWindow()));
          scheduler.stats(emptyToNull(request.getQueue())).stream()
              .map(JobMapper::queueStats)
              .forEach(b::addQueues);
          return b.build();
        });
  }

  private static String emptyToNull(String s) {
    return s.isEmpty() ? null : s;
  }
}
