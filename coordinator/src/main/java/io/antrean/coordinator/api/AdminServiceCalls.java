package io.antrean.coordinator.api;

import io.antrean.coordinator.core.DeadLetterSelection;
import io.antrean.coordinator.core.DeadLetters;
import io.antrean.coordinator.core.QueueControl;
import io.antrean.coordinator.core.QueueControl.QueueStatus;
import io.antrean.coordinator.core.QueueLimitsCommand;
import io.antrean.coordinator.core.QueueRates;
import io.antrean.coordinator.core.RedriveOutcome;
import io.antrean.coordinator.core.WorkerRegistry;
import io.antrean.coordinator.store.DeadLetterQuery;
import io.antrean.coordinator.store.JobPage;
import io.antrean.coordinator.store.QueueLimits;
import io.antrean.proto.v1.DeadLetterFilter;
import io.antrean.proto.v1.GetDeadLetterRequest;
import io.antrean.proto.v1.GetDeadLetterResponse;
import io.antrean.proto.v1.GetQueueRatesRequest;
import io.antrean.proto.v1.GetQueueRatesResponse;
import io.antrean.proto.v1.ListDeadLettersRequest;
import io.antrean.proto.v1.ListDeadLettersResponse;
import io.antrean.proto.v1.ListQueuesRequest;
import io.antrean.proto.v1.ListQueuesResponse;
import io.antrean.proto.v1.ListWorkersRequest;
import io.antrean.proto.v1.ListWorkersResponse;
import io.antrean.proto.v1.PauseQueueRequest;
import io.antrean.proto.v1.PauseQueueResponse;
import io.antrean.proto.v1.PurgeDeadLettersRequest;
import io.antrean.proto.v1.PurgeDeadLettersResponse;
import io.antrean.proto.v1.QueueInfo;
import io.antrean.proto.v1.RateLimit;
import io.antrean.proto.v1.RedriveDeadLettersRequest;
import io.antrean.proto.v1.RedriveDeadLettersResponse;
import io.antrean.proto.v1.ResumeQueueRequest;
import io.antrean.proto.v1.ResumeQueueResponse;
import io.antrean.proto.v1.SetQueueLimitsRequest;
import io.antrean.proto.v1.SetQueueLimitsResponse;
import java.time.Clock;
import javax.annotation.Nullable;

/**
 * The AdminService's calls (dead letters, queue control, workers and rates) without a transport: a
 * request message in, a response message out, each one call into the core. Shared by the gRPC
 * service and the HTTP/JSON API. Errors are the core's domain exceptions. Thread-safe.
 */
public final class AdminServiceCalls {
  private final DeadLetters deadLetters;
  private final QueueControl queues;
  private final WorkerRegistry workers;
  private final QueueRates rates;
  private final Clock clock;
  private final JobAccess access;

  public AdminServiceCalls(
      DeadLetters deadLetters,
      QueueControl queues,
      WorkerRegistry workers,
      QueueRates rates,
      Clock clock) {
    this.deadLetters = deadLetters;
    this.queues = queues;
    this.workers = workers;
    this.rates = rates;
    this.clock = clock;
    this.access = new JobAccess(deadLetters::find);
  }

  public ListWorkersResponse listWorkers(ListWorkersRequest request) {
    return WorkerMapper.workers(workers.list(clock.instant()));
  }

  /** INVALID_ARGUMENT (field violation on queue) for a bad queue name. */
  public GetQueueRatesResponse getQueueRates(GetQueueRatesRequest request) {
    String queue = request.getQueue().isEmpty() ? null : request.getQueue();
    return WorkerMapper.rates(rates.snapshot(queue, clock.instant()));
  }

  public ListDeadLettersResponse listDeadLetters(ListDeadLettersRequest request) {
    int size = JobServiceCalls.checkPageSize(request.getPageSize());
    DeadLetterQuery query =
        query(request.getFilter()).withPage(PageTokens.decode(request.getPageToken()), size);
    JobPage page = deadLetters.list(query);
    ListDeadLettersResponse.Builder b = ListDeadLettersResponse.newBuilder();
    page.jobs().forEach(j -> b.addJobs(JobMapper.job(j)));
    return b.setNextPageToken(PageTokens.encode(page.nextBeforeId())).build();
  }

  /** The dead letter with its attempt history. */
  public GetDeadLetterResponse getDeadLetter(GetDeadLetterRequest request) {
    JobServiceCalls.requirePositiveId(request.getId());
    access.check(request.getId());
    return GetDeadLetterResponse.newBuilder()
        .setJob(JobMapper.job(deadLetters.get(request.getId())))
        .build();
  }

  public RedriveDeadLettersResponse redriveDeadLetters(RedriveDeadLettersRequest request) {
    access.checkAll(request.getIdsList());
    RedriveOutcome outcome =
        deadLetters.redrive(
            new DeadLetterSelection(
                request.getIdsList(), query(request.getFilter()), request.getAll()),
            request.getRatePerSecond(),
            request.getLimit());
    RedriveDeadLettersResponse.Builder b =
        RedriveDeadLettersResponse.newBuilder()
            .addAllRedrivenIds(outcome.redrivenIds())
            .addAllSkippedIds(outcome.skippedIds());
    if (outcome.lastRunAt() != null) {
      b.setLastRunAt(ProtoTime.timestamp(outcome.lastRunAt()));
    }
    return b.build();
  }

  public PurgeDeadLettersResponse purgeDeadLetters(PurgeDeadLettersRequest request) {
    access.checkAll(request.getIdsList());
    int purged =
        deadLetters.purge(
            new DeadLetterSelection(
                request.getIdsList(), query(request.getFilter()), request.getAll()));
    return PurgeDeadLettersResponse.newBuilder().setPurged(purged).build();
  }

  public ListQueuesResponse listQueues(ListQueuesRequest request) {
    ListQueuesResponse.Builder b = ListQueuesResponse.newBuilder();
    queues.list().forEach(q -> b.addQueues(queueInfo(q)));
    return b.build();
  }

  public PauseQueueResponse pauseQueue(PauseQueueRequest request) {
    return PauseQueueResponse.newBuilder()
        .setQueue(queueInfo(queues.pause(request.getQueue())))
        .build();
  }

  public ResumeQueueResponse resumeQueue(ResumeQueueRequest request) {
    return ResumeQueueResponse.newBuilder()
        .setQueue(queueInfo(queues.resume(request.getQueue())))
        .build();
  }

  public SetQueueLimitsResponse setQueueLimits(SetQueueLimitsRequest request) {
    return SetQueueLimitsResponse.newBuilder()
        .setQueue(
            queueInfo(
                queues.setLimits(
                    new QueueLimitsCommand(
                        request.getQueue(),
                        request.getMaxRunning(),
                        request.getMaxRunningPerKey(),
                        request.hasRate() ? request.getRate().getStarts() : null,
                        request.hasRate() ? interval(request.getRate(), "rate.interval") : null,
                        request.hasRatePerKey() ? request.getRatePerKey().getStarts() : null,
                        request.hasRatePerKey()
                            ? interval(request.getRatePerKey(), "rate_per_key.interval")
                            : null))))
        .build();
  }

  @Nullable
  private static java.time.Duration interval(RateLimit rate, String field) {
    return rate.hasInterval() ? ProtoTime.requestDuration(rate.getInterval(), field) : null;
  }

  static QueueInfo queueInfo(QueueStatus q) {
    QueueInfo.Builder b =
        QueueInfo.newBuilder()
            .setName(q.name())
            .setPaused(q.paused())
            .setStats(JobMapper.queueStats(q.report()));
    if (q.pausedAt() != null) {
      b.setPausedAt(ProtoTime.timestamp(q.pausedAt()));
    }
    if (q.limits().limited()) {
      b.setLimits(limits(q.limits()));
    }
    return b.build();
  }

  static io.antrean.proto.v1.QueueLimits limits(QueueLimits limits) {
    io.antrean.proto.v1.QueueLimits.Builder b =
        io.antrean.proto.v1.QueueLimits.newBuilder()
            .setMaxRunning(limits.maxRunning() == null ? 0 : limits.maxRunning())
            .setMaxRunningPerKey(limits.maxRunningPerKey() == null ? 0 : limits.maxRunningPerKey());
    if (limits.rate() != null) {
      b.setRate(rate(limits.rate()));
    }
    if (limits.ratePerKey() != null) {
      b.setRatePerKey(rate(limits.ratePerKey()));
    }
    return b.build();
  }

  private static RateLimit rate(io.antrean.coordinator.store.RateLimit rate) {
    return RateLimit.newBuilder()
        .setStarts(rate.starts())
        .setInterval(ProtoTime.duration(rate.interval()))
        .build();
  }

  static DeadLetterQuery query(DeadLetterFilter f) {
    return new DeadLetterQuery(
        f.getQueue().isEmpty() ? null : f.getQueue(),
        f.getType().isEmpty() ? null : f.getType(),
        f.getErrorContains().isEmpty() ? null : f.getErrorContains(),
        f.hasFailedAfter()
            ? ProtoTime.requestInstant(f.getFailedAfter(), "filter.failed_after")
            : null,
        f.hasFailedBefore()
            ? ProtoTime.requestInstant(f.getFailedBefore(), "filter.failed_before")
            : null,
        null,
        1);
  }
}
