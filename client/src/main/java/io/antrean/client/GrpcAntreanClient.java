package io.antrean.client;

import io.antrean.channel.ChannelSecurity;
import io.antrean.channel.CoordinatorChannels;
import io.antrean.proto.v1.AdminServiceGrpc;
import io.antrean.proto.v1.CancelJobRequest;
import io.antrean.proto.v1.Dependency;
import io.antrean.proto.v1.EnqueueBatchRequest;
import io.antrean.proto.v1.EnqueueBatchResponse;
import io.antrean.proto.v1.EnqueueRequest;
import io.antrean.proto.v1.EnqueueResponse;
import io.antrean.proto.v1.GetJobRequest;
import io.antrean.proto.v1.GetStatsRequest;
import io.antrean.proto.v1.GetStatsResponse;
import io.antrean.proto.v1.Job;
import io.antrean.proto.v1.JobServiceGrpc;
import io.antrean.proto.v1.ListDependenciesRequest;
import io.antrean.proto.v1.ListJobsRequest;
import io.antrean.proto.v1.ListJobsResponse;
import io.antrean.proto.v1.ListQueuesRequest;
import io.antrean.proto.v1.ListWorkersRequest;
import io.antrean.proto.v1.PauseQueueRequest;
import io.antrean.proto.v1.QueueInfo;
import io.antrean.proto.v1.QueueLimits;
import io.antrean.proto.v1.ResumeQueueRequest;
import io.antrean.proto.v1.ScheduleServiceGrpc;
import io.antrean.proto.v1.SetQueueLimitsRequest;
import io.antrean.proto.v1.WatchJobRequest;
import io.antrean.proto.v1.WatchJobResponse;
import io.antrean.proto.v1.WorkerStatus;
import io.grpc.Channel;
import io.grpc.Context;
import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import io.opentelemetry.api.GlobalOpenTelemetry;
import io.opentelemetry.api.OpenTelemetry;
import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import javax.annotation.Nullable;

/**
 * An {@link AntreanClient} that calls the coordinator's {@code antrean.v1.JobService} over gRPC,
 * and its {@code antrean.v1.AdminService} for {@link #deadLetters()} and queue control, on the same
 * channel.
 *
 * <p>Build one with {@link #forTarget} (the client opens a plaintext channel, owns it and shuts it
 * down on {@link #close}) or {@link #forChannel} (the client borrows the channel and never closes
 * it; use this for TLS, interceptors or in-process tests). A target may name several coordinators:
 * calls then go round-robin to the healthy ones, and a call that fails with {@code UNAVAILABLE} is
 * retried, usually on another one (see {@link CoordinatorChannels}).
 *
 * <p>Enqueues and batches go as the messages of one Produce stream ({@link ProduceStreamClient}),
 * each with this client's timeout and the same errors and retries as the calls; against a
 * coordinator without Produce they go as calls. {@link #close} ends the stream, also on a borrowed
 * channel. Thread-safe.
 */
public final class GrpcAntreanClient implements AntreanClient {
  /** The deadline of each call when the builder is not told otherwise. */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);

  /** How many times a call refused as overloaded is retried when the builder is not told. */
  public static final int DEFAULT_OVERLOAD_RETRIES = 3;

  private static final Duration CLOSE_GRACE = Duration.ofSeconds(5);

  @Nullable private final ManagedChannel ownedChannel;
  private final JobServiceGrpc.JobServiceBlockingStub stub;
  private final ProduceStreamClient produce;
  // A view made by withTimeout shares its parent's stream and closes nothing.
  private final boolean view;
  private final AdminServiceGrpc.AdminServiceBlockingStub adminStub;
  private final Duration timeout;
  private final OverloadRetry retry;
  private final EnqueueTracing tracing;

  private GrpcAntreanClient(
      @Nullable ManagedChannel ownedChannel,
      JobServiceGrpc.JobServiceBlockingStub stub,
      ProduceStreamClient produce,
      boolean view,
      AdminServiceGrpc.AdminServiceBlockingStub adminStub,
      Duration timeout,
      OverloadRetry retry,
      EnqueueTracing tracing) {
    this.ownedChannel = ownedChannel;
    this.stub = stub;
    this.produce = produce;
    this.view = view;
    this.adminStub = adminStub;
    this.timeout = timeout;
    this.retry = retry;
    this.tracing = tracing;
  }

  private static GrpcAntreanClient onChannel(
      @Nullable ManagedChannel ownedChannel,
      Channel channel,
      Duration timeout,
      OverloadRetry retry,
      EnqueueTracing tracing) {
    return new GrpcAntreanClient(
        ownedChannel,
        JobServiceGrpc.newBlockingStub(channel),
        new ProduceStreamClient(channel),
        false,
        AdminServiceGrpc.newBlockingStub(channel),
        timeout,
        retry,
        tracing);
  }

  /**
   * A builder for a client that connects to {@code target} without TLS and owns the channel.
   *
   * @param target {@code host:port}, a comma-separated list such as {@code
   *     coord-a:7400,coord-b:7400}, or {@code dns:///name:port}
   * @throws IllegalArgumentException if {@code target} is blank or malformed; the message names the
   *     bad entry
   */
  public static Builder forTarget(String target) {
    Objects.requireNonNull(target, "target");
    return new Builder(CoordinatorChannels.forTargets(target).userAgent("antrean-client"), null);
  }

  /**
   * A builder for a client that borrows {@code channel}. The caller keeps ownership: the client
   * never shuts it down, and the channel must outlive the client.
   */
  public static Builder forChannel(Channel channel) {
    return new Builder(null, Objects.requireNonNull(channel, "channel"));
  }

  /** The deadline each call of this client gets. */
  public Duration timeout() {
    return timeout;
  }

  @Override
  public EnqueueResponse enqueue(EnqueueRequest request) {
    return tracing.enqueue(request, traced -> retry.call(() -> produce.enqueue(traced, timeout)));
  }

  @Override
  public EnqueueBatchResponse enqueueBatch(EnqueueBatchRequest request) {
    return tracing.enqueueBatch(
        request, traced -> retry.call(() -> produce.enqueueBatch(traced, timeout)));
  }

  @Override
  public Job getJob(long id) {
    GetJobRequest request = GetJobRequest.newBuilder().setId(id).build();
    return retry.call(() -> deadlined().getJob(request)).getJob();
  }

  @Override
  public List<Dependency> listDependencies(long id) {
    ListDependenciesRequest request = ListDependenciesRequest.newBuilder().setId(id).build();
    return retry.call(() -> deadlined().listDependencies(request)).getDependenciesList();
  }

  @Override
  public ListJobsResponse listJobs(ListJobsRequest request) {
    return retry.call(() -> deadlined().listJobs(request));
  }

  @Override
  public Job cancelJob(long id) {
    CancelJobRequest request = CancelJobRequest.newBuilder().setId(id).build();
    return retry.call(() -> deadlined().cancelJob(request)).getJob();
  }

  @Override
  public JobWatch watchJob(long id, Duration timeout) {
    requirePositive(timeout);
    WatchJobRequest request = WatchJobRequest.newBuilder().setId(id).build();
    Context.CancellableContext context = Context.current().withCancellation();
    Context previous = context.attach();
    try {
      Iterator<WatchJobResponse> responses =
          stub.withDeadlineAfter(timeout.toNanos(), TimeUnit.NANOSECONDS).watchJob(request);
      return new JobWatch(responses, context);
    } catch (StatusRuntimeException e) {
      context.cancel(e);
      throw StatusTranslation.translate(e);
    } finally {
      context.detach(previous);
    }
  }

  @Override
  public GetStatsResponse getStats(@Nullable String queue) {
    return stats(GetStatsRequest.newBuilder().setQueue(queue == null ? "" : queue));
  }

  @Override
  public GetStatsResponse getUnfinishedStats(@Nullable String queue) {
    return stats(
        GetStatsRequest.newBuilder().setQueue(queue == null ? "" : queue).setUnfinishedOnly(true));
  }

  private GetStatsResponse stats(GetStatsRequest.Builder request) {
    return retry.call(() -> deadlined().getStats(request.build()));
  }

  @Override
  public List<QueueInfo> listQueues() {
    ListQueuesRequest request = ListQueuesRequest.getDefaultInstance();
    return retry.call(() -> deadlinedAdmin().listQueues(request)).getQueuesList();
  }

  @Override
  public List<WorkerStatus> listWorkers() {
    ListWorkersRequest request = ListWorkersRequest.getDefaultInstance();
    return retry.call(() -> deadlinedAdmin().listWorkers(request)).getWorkersList();
  }

  @Override
  public QueueInfo pauseQueue(String queue) {
    PauseQueueRequest request =
        PauseQueueRequest.newBuilder().setQueue(Objects.requireNonNull(queue, "queue")).build();
    return retry.call(() -> deadlinedAdmin().pauseQueue(request)).getQueue();
  }

  @Override
  public QueueInfo resumeQueue(String queue) {
    ResumeQueueRequest request =
        ResumeQueueRequest.newBuilder().setQueue(Objects.requireNonNull(queue, "queue")).build();
    return retry.call(() -> deadlinedAdmin().resumeQueue(request)).getQueue();
  }

  @Override
  public QueueInfo setQueueLimits(String queue, QueueLimits limits) {
    SetQueueLimitsRequest.Builder b =
        SetQueueLimitsRequest.newBuilder()
            .setQueue(Objects.requireNonNull(queue, "queue"))
            .setMaxRunning(limits.getMaxRunning())
            .setMaxRunningPerKey(limits.getMaxRunningPerKey());
    if (limits.hasRate()) {
      b.setRate(limits.getRate());
    }
    if (limits.hasRatePerKey()) {
      b.setRatePerKey(limits.getRatePerKey());
    }
    SetQueueLimitsRequest request = b.build();
    return retry.call(() -> deadlinedAdmin().setQueueLimits(request)).getQueue();
  }

  @Override
  public DeadLetters deadLetters() {
    return new GrpcDeadLetters(adminStub, timeout);
  }

  @Override
  public Schedules schedules() {
    return new GrpcSchedules(ScheduleServiceGrpc.newBlockingStub(adminStub.getChannel()), timeout);
  }

  @Override
  public AntreanClient withTimeout(Duration timeout) {
    return new GrpcAntreanClient(
        null, stub, produce, true, adminStub, requirePositive(timeout), retry, tracing);
  }

  @Override
  public void close() {
    if (view) {
      return;
    }
    produce.close();
    if (ownedChannel == null) {
      return;
    }
    ownedChannel.shutdown();
    try {
      if (!ownedChannel.awaitTermination(CLOSE_GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
        ownedChannel.shutdownNow();
      }
    } catch (InterruptedException e) {
      ownedChannel.shutdownNow();
      Thread.currentThread().interrupt();
    }
  }

  private JobServiceGrpc.JobServiceBlockingStub deadlined() {
    return stub.withDeadlineAfter(timeout.toNanos(), TimeUnit.NANOSECONDS);
  }

  private AdminServiceGrpc.AdminServiceBlockingStub deadlinedAdmin() {
    return adminStub.withDeadlineAfter(timeout.toNanos(), TimeUnit.NANOSECONDS);
  }

  private static Duration requirePositive(Duration timeout) {
    Objects.requireNonNull(timeout, "timeout");
    if (timeout.isZero() || timeout.isNegative()) {
      throw new IllegalArgumentException("timeout must be positive: " + timeout);
    }
    return timeout;
  }

  /** Configures a {@link GrpcAntreanClient}. Not thread-safe. */
  public static final class Builder {
    @Nullable private final CoordinatorChannels.Builder target;
    @Nullable private final Channel borrowedChannel;
    private Duration timeout = DEFAULT_TIMEOUT;
    private int overloadRetries = DEFAULT_OVERLOAD_RETRIES;
    private OverloadRetry.Sleeper sleeper = OverloadRetry.THREAD_SLEEP;
    @Nullable private OpenTelemetry openTelemetry;

    private Builder(
        @Nullable CoordinatorChannels.Builder target, @Nullable Channel borrowedChannel) {
      this.target = target;
      this.borrowedChannel = borrowedChannel;
    }

    /**
     * The deadline of each call, measured from its start; {@link #DEFAULT_TIMEOUT} when not set.
     *
     * @throws IllegalArgumentException if {@code timeout} is zero or negative
     */
    public Builder timeout(Duration timeout) {
      this.timeout = requirePositive(timeout);
      return this;
    }

    /**
     * TLS, a client certificate and the bearer token, for a client made {@link #forTarget}; none
     * (plaintext, no token) by default.
     *
     * @throws IllegalStateException for a client that borrows its channel
     */
    public Builder security(ChannelSecurity security) {
      if (target == null) {
        throw new IllegalStateException("a borrowed channel brings its own security");
      }
      target.security(security);
      return this;
    }

    /**
     * How many times a unary call refused with {@link OverloadedException} is made again, each
     * after the coordinator's retry hint (1 s when it sent none, at most 30 s); {@value
     * #DEFAULT_OVERLOAD_RETRIES} when not set, 0 to throw the first refusal. The refused call did
     * nothing, so repeating it is safe; each attempt gets the full {@link #timeout}.
     *
     * @throws IllegalArgumentException if {@code retries} is negative
     */
    public Builder overloadRetries(int retries) {
      if (retries < 0) {
        throw new IllegalArgumentException("overloadRetries must be at least 0, got " + retries);
      }
      this.overloadRetries = retries;
      return this;
    }

    /**
     * Where Enqueue spans go: each Enqueue runs in a {@code PRODUCER} span {@code antrean enqueue},
     * and the W3C {@code traceparent} of that span travels with the job (its {@code trace_parent})
     * unless the request already carries one, so a worker's handler span continues the trace. When
     * not set, the global one ({@link GlobalOpenTelemetry#getOrNoop()}) as it is when {@link
     * #build()} runs: install the SDK first, or tracing is a no-op.
     */
    public Builder openTelemetry(OpenTelemetry openTelemetry) {
      this.openTelemetry = Objects.requireNonNull(openTelemetry, "openTelemetry");
      return this;
    }

    /** For tests: how the client waits between overload retries. */
    Builder sleeper(OverloadRetry.Sleeper sleeper) {
      this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
      return this;
    }

    /** Builds the client; for {@link #forTarget} this creates the channel (it connects lazily). */
    public GrpcAntreanClient build() {
      OverloadRetry retry = new OverloadRetry(overloadRetries, sleeper);
      EnqueueTracing tracing =
          new EnqueueTracing(
              openTelemetry != null ? openTelemetry : GlobalOpenTelemetry.getOrNoop());
      if (borrowedChannel != null) {
        return onChannel(null, borrowedChannel, timeout, retry, tracing);
      }
      ManagedChannel channel = target.build();
      return onChannel(channel, channel, timeout, retry, tracing);
    }
  }
}
