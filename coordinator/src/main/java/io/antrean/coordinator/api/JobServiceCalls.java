package io.antrean.coordinator.api;

import io.antrean.coordinator.core.EnqueueCommand;
import io.antrean.coordinator.core.FieldViolation;
import io.antrean.coordinator.core.JobScheduler;
import io.antrean.coordinator.core.QueueReports;
import io.antrean.coordinator.core.ValidationException;
import io.antrean.coordinator.job.DependsOn;
import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.security.AccessDeniedException;
import io.antrean.coordinator.store.Dependency;
import io.antrean.coordinator.store.EnqueueResult;
import io.antrean.coordinator.store.JobNotFoundException;
import io.antrean.coordinator.store.JobPage;
import io.antrean.coordinator.store.JobQuery;
import io.antrean.coordinator.store.StoreFutures;
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
import io.antrean.proto.v1.ListDependenciesRequest;
import io.antrean.proto.v1.ListDependenciesResponse;
import io.antrean.proto.v1.ListJobsRequest;
import io.antrean.proto.v1.ListJobsResponse;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongFunction;
import java.util.function.Supplier;

/**
 * The JobService's calls without a transport: a request message in, a response message out, each
 * one call into the core. The gRPC service and the HTTP/JSON API both answer through these, so the
 * two always agree. Errors are the core's domain exceptions, for the caller's status table.
 * Thread-safe.
 */
public final class JobServiceCalls {
  static final int DEFAULT_PAGE_SIZE = 100;
  static final int MAX_PAGE_SIZE = 1000;

  private final JobScheduler scheduler;
  private final Clock clock;
  private final JobAccess access;

  public JobServiceCalls(JobScheduler scheduler, Clock clock) {
    this.scheduler = scheduler;
    this.clock = clock;
    this.access = new JobAccess(JobServiceCalls.lookup(scheduler));
  }

  public EnqueueResponse enqueue(EnqueueRequest request) {
    return StoreFutures.join(enqueueAsync(request));
  }

  /** Enqueue answered once durable; bad input throws at once. */
  public CompletableFuture<EnqueueResponse> enqueueAsync(EnqueueRequest request) {
    EnqueueCommand command = JobMapper.command(request);
    checkDependencies(List.of(command), false);
    return scheduler.enqueueAsync(command).thenApply(r -> response(r, command));
  }

  /**
   * The jobs a command depends on exist and may be used, checked after the validation of the
   * command's own fields (so a bad field is INVALID_ARGUMENT first); nothing to read without any.
   */
  private void checkDependencies(List<EnqueueCommand> commands, boolean batch) {
    if (commands.stream().allMatch(c -> c.dependsOn().isEmpty())) {
      return;
    }
    scheduler.validate(commands);
    for (int i = 0; i < commands.size(); i++) {
      access.checkDependencies(
          commands.get(i).dependsOn(), (batch ? "jobs[" + i + "]." : "") + "depends_on");
    }
  }

  /**
   * Runs {@code enqueues}, made for a producer with more Enqueues in flight that it sends at once:
   * the store may queue their writes with those that follow rather than run them on this thread
   * ({@link io.antrean.coordinator.store.JobStore#writeAmongOthers}).
   */
  public <T> T amongOtherEnqueues(Supplier<T> enqueues) {
    return scheduler.amongOtherWrites(enqueues);
  }

  /** EnqueueBatch answered once durable; bad input throws at once. */
  public CompletableFuture<EnqueueBatchResponse> enqueueBatchAsync(EnqueueBatchRequest request) {
    List<EnqueueCommand> commands = new ArrayList<>(request.getJobsCount());
    for (int i = 0; i < request.getJobsCount(); i++) {
      commands.add(JobMapper.command(request.getJobs(i), "jobs[" + i + "]."));
    }
    checkDependencies(commands, true);
    return scheduler
        .enqueueBatchAsync(commands)
        .thenApply(
            results -> {
              EnqueueBatchResponse.Builder b = EnqueueBatchResponse.newBuilder();
              for (int i = 0; i < results.size(); i++) {
                b.addResults(response(results.get(i), commands.get(i)));
              }
              return b.build();
            });
  }

  /**
   * A new job's dependencies are the command's, so the answer reads nothing more from the store on
   * the hot path; a deduplicated answer is an older job, whose own dependencies are read.
   */
  private EnqueueResponse response(EnqueueResult r, EnqueueCommand command) {
    io.antrean.proto.v1.Job job =
        r.deduplicated()
            ? withDependsOn(r.job())
            : JobMapper.job(
                r.job(),
                command.dependsOn().isEmpty()
                    ? null
                    : new DependsOn(command.dependsOn(), command.onDependencyFailure()));
    return EnqueueResponse.newBuilder().setJob(job).setDeduplicated(r.deduplicated()).build();
  }

  private static LongFunction<Optional<Job>> lookup(JobScheduler scheduler) {
    return id -> {
      try {
        return Optional.of(scheduler.get(id));
      } catch (JobNotFoundException e) {
        return Optional.empty();
      }
    };
  }

  /**
   * For WatchJob, which streams instead of answering here: the caller may use the job's queue.
   *
   * @throws io.antrean.coordinator.security.AccessDeniedException otherwise
   */
  public void checkAccess(long jobId) {
    access.check(jobId);
  }

  /** The job with its attempt history. */
  public GetJobResponse getJob(GetJobRequest request) {
    requirePositiveId(request.getId());
    access.check(request.getId());
    return GetJobResponse.newBuilder()
        .setJob(withDependsOn(scheduler.get(request.getId())))
        .build();
  }

  /**
   * The job as a message with what it depends on (one indexed read; none for WAITING-free jobs).
   */
  private io.antrean.proto.v1.Job withDependsOn(Job job) {
    return JobMapper.job(job, scheduler.dependencies().dependsOn(List.of(job.id())).get(job.id()));
  }

  /**
   * The jobs a job depends on, with their states and results: for a fan-in handler. The caller must
   * be allowed the job's queue and every dependency's queue.
   */
  public ListDependenciesResponse listDependencies(ListDependenciesRequest request) {
    requirePositiveId(request.getId());
    access.check(request.getId());
    scheduler.get(request.getId());
    List<Dependency> dependencies = scheduler.dependencies().of(request.getId());
    ListDependenciesResponse.Builder b = ListDependenciesResponse.newBuilder();
    for (Dependency d : dependencies) {
      if (!access.mayUse(d.queue())) {
        throw AccessDeniedException.jobNotAllowed(CallerIdentity.current().name(), d.id());
      }
      b.addDependencies(JobMapper.dependency(d));
    }
    return b.build();
  }

  public ListJobsResponse listJobs(ListJobsRequest request) {
    int size = checkPageSize(request.getPageSize());
    Instant after =
        request.hasCreatedAfter()
            ? ProtoTime.requestInstant(request.getCreatedAfter(), "created_after")
            : null;
    Instant before =
        request.hasCreatedBefore()
            ? ProtoTime.requestInstant(request.getCreatedBefore(), "created_before")
            : null;
    if (after != null && before != null && !after.isBefore(before)) {
      throw new ValidationException(
          List.of(new FieldViolation("created_before", "must be after created_after")));
    }
    JobQuery query =
        new JobQuery(
            emptyToNull(request.getQueue()),
            emptyToNull(request.getType()),
            JobMapper.state(request.getState()),
            emptyToNull(request.getErrorContains()),
            after,
            before,
            emptyToNull(request.getIdempotencyKey()),
            request.getOldestFirst(),
            PageTokens.decode(request.getPageToken()),
            size);
    JobPage page = scheduler.list(query);
    ListJobsResponse.Builder b = ListJobsResponse.newBuilder();
    Map<Long, DependsOn> dependsOn =
        scheduler.dependencies().dependsOn(page.jobs().stream().map(Job::id).toList());
    page.jobs().forEach(j -> b.addJobs(JobMapper.job(j, dependsOn.get(j.id()))));
    return b.setNextPageToken(PageTokens.encode(page.nextBeforeId())).build();
  }

  public CancelJobResponse cancelJob(CancelJobRequest request) {
    requirePositiveId(request.getId());
    access.check(request.getId());
    return CancelJobResponse.newBuilder()
        .setJob(JobMapper.job(scheduler.cancel(request.getId())))
        .build();
  }

  public GetStatsResponse getStats(GetStatsRequest request) {
    QueueReports reports = scheduler.queueReports();
    GetStatsResponse.Builder b =
        GetStatsResponse.newBuilder().setAsOf(ProtoTime.timestamp(clock.instant()));
    String queue = emptyToNull(request.getQueue());
    if (request.getUnfinishedOnly()) {
      // No dead-letter growth is counted, so no window is given for it.
      reports.unfinished(queue).stream().map(JobMapper::queueStats).forEach(b::addQueues);
    } else {
      b.setDeadLetterWindow(ProtoTime.duration(reports.deadLetterWindow()));
      reports.all(queue).stream().map(JobMapper::queueStats).forEach(b::addQueues);
    }
    return b.build();
  }

  /**
   * @return the page size to use: the default for 0
   * @throws ValidationException outside 0 to {@value #MAX_PAGE_SIZE}
   */
  static int checkPageSize(int size) {
    if (size < 0 || size > MAX_PAGE_SIZE) {
      throw new ValidationException(
          List.of(
              new FieldViolation(
                  "page_size", "must be between 0 and " + MAX_PAGE_SIZE + ", got " + size)));
    }
    return size == 0 ? DEFAULT_PAGE_SIZE : size;
  }

  public static void requirePositiveId(long id) {
    if (id <= 0) {
      throw new ValidationException(List.of(new FieldViolation("id", "must be positive")));
    }
  }

  private static String emptyToNull(String s) {
    return s.isEmpty() ? null : s;
  }
}
