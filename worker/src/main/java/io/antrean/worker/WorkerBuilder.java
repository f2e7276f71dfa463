package io.antrean.worker;

import io.antrean.channel.ChannelSecurity;
import io.antrean.channel.CoordinatorChannels;
import io.antrean.worker.internal.SelfDescription;
import io.antrean.worker.internal.WorkerSettings;
import io.grpc.ManagedChannel;
import io.opentelemetry.api.GlobalOpenTelemetry;
import io.opentelemetry.api.OpenTelemetry;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import javax.annotation.Nullable;

/**
 * Configures a {@link Worker}. Every setting but the coordinator and at least one handler has a
 * default. Setters return {@code this}; {@link #build()} validates everything at once.
 *
 * <p>Not thread-safe: configure it on one thread.
 */
public final class WorkerBuilder {
  private CoordinatorChannels.Builder target;
  private ChannelSecurity security = ChannelSecurity.none();
  private ManagedChannel channel;
  private String queue = "default";
  private int concurrency = 4;
  @Nullable private Integer prefetch;
  private final Map<String, JobHandler> handlers = new LinkedHashMap<>();
  private Duration leaseTtl = Duration.ofSeconds(30);
  private Duration heartbeatInterval;
  private Duration pollWait = Duration.ofSeconds(20);
  private Duration shutdownGrace = Duration.ofSeconds(30);
  private Duration rpcTimeout = Duration.ofSeconds(10);
  private Duration pollBackoffInitial = Duration.ofMillis(100);
  private Duration pollBackoffMax = Duration.ofSeconds(10);
  private String workerId;
  private ErrorClassifier classifier = ErrorClassifier.standard();
  private Clock clock = Clock.systemUTC();
  private Ticker ticker = Ticker.system();
  private OpenTelemetry openTelemetry;

  WorkerBuilder() {}

  /**
   * The coordinators to connect to: {@code host:port}, a comma-separated list of them, or {@code
   * dns:///name:port}. The worker opens a plaintext channel and closes it when it terminates. With
   * several coordinators every call, each Lease long-poll included, goes round-robin to the next
   * healthy one, and a call that fails with UNAVAILABLE is retried on another (see {@link
   * CoordinatorChannels}). Replaces {@link #channel(ManagedChannel)}.
   *
   * @param target for example {@code "127.0.0.1:7400"} or {@code "coord-a:7400,coord-b:7400"}
   * @return this builder
   * @throws IllegalArgumentException if {@code target} is blank or malformed; the message names the
   *     bad entry
   */
  public WorkerBuilder coordinator(String target) {
    Objects.requireNonNull(target, "target");
    this.target = CoordinatorChannels.forTargets(target).userAgent("antrean-worker");
    this.channel = null;
    return this;
  }

  /**
   * A channel to the coordinator, for TLS, in-process tests or a shared channel. The worker only
   * borrows it: it never shuts it down, and the caller must keep it open until the worker has
   * terminated. Replaces {@link #coordinator(String)}.
   *
   * @param channel the channel to use
   * @return this builder
   */
  public WorkerBuilder channel(ManagedChannel channel) {
    return borrow(channel);
  }

  /**
   * TLS, a client certificate and the bearer token for the channel {@link #coordinator(String)}
   * opens; none (plaintext, no token) by default.
   *
   * @param security how the worker proves who it is
   * @return this builder
   */
  public WorkerBuilder security(ChannelSecurity security) {
    this.security = Objects.requireNonNull(security, "security");
    return this;
  }

  private WorkerBuilder borrow(ManagedChannel channel) {
    this.channel = Objects.requireNonNull(channel, "channel");
    this.target = null;
    return this;
  }

  /**
   * The queue to lease from; {@code "default"} by default.
   *
   * @param queue the queue name
   * @return this builder
   */
  public WorkerBuilder queue(String queue) {
    this.queue = requireText(queue, "queue");
    return this;
  }

  /**
   * Handler threads, the jobs the worker runs at once; 4 by default, 1 to 1024. Without {@link
   * #prefetch} it is also the most jobs the worker holds: a job holds its place from its lease
   * until its outcome is answered, so a completion waiting in a CompleteBatch (see {@link Worker})
   * still counts.
   *
   * @param concurrency the number of handler threads
   * @return this builder
   */
  public WorkerBuilder concurrency(int concurrency) {
    this.concurrency = concurrency;
    return this;
  }

  /**
   * The most jobs the worker leases beyond its handler threads, to keep them busy while a
   * CompleteBatch carries finished jobs to the coordinator and brings the next ones; by default as
   * many as {@link #concurrency} while the two stay within 1024, 0 to turn it off. Concurrency and
   * prefetch together are at most 1024, the leases one Heartbeat carries (a concurrency of 600 gets
   * 424 by default). The worker leases ahead only as many jobs as its handlers finish during one
   * such round trip (measured as it runs), and none while its handlers take longer than the round
   * trip times the handler threads, so a long job never waits in one worker while another worker
   * could run it. A job leased ahead waits in the worker for a free thread, its lease kept by
   * heartbeats; shutdown releases it without running it, and it spends no attempt then. After a
   * crash it comes back when its lease expires, like a running job.
   *
   * @param prefetch the most jobs leased ahead
   * @return this builder
   */
  public WorkerBuilder prefetch(int prefetch) {
    this.prefetch = prefetch;
    return this;
  }

  /**
   * Registers the handler for one job type; the worker leases only the registered types. A later
   * registration of the same type replaces the earlier one.
   *
   * @param type the job type, not blank
   * @param handler a thread-safe handler
   * @return this builder
   */
  public WorkerBuilder handler(String type, JobHandler handler) {
    handlers.put(requireText(type, "type"), Objects.requireNonNull(handler, "handler"));
    return this;
  }

  /**
   * How long a lease lasts without a heartbeat; 30 s by default, at most 10 minutes (the longest a
   * coordinator grants; heartbeats keep a longer job's lease). Shorter means a dead worker's jobs
   * are taken over sooner, at the cost of more heartbeats.
   *
   * @param leaseTtl a positive duration, at most 10 minutes
   * @return this builder
   */
  public WorkerBuilder leaseTtl(Duration leaseTtl) {
    this.leaseTtl = Objects.requireNonNull(leaseTtl, "leaseTtl");
    return this;
  }

  /**
   * Time between heartbeats; a third of the lease TTL by default. Must be below the lease TTL.
   *
   * @param interval a positive duration
   * @return this builder
   */
  public WorkerBuilder heartbeatInterval(Duration interval) {
    this.heartbeatInterval = Objects.requireNonNull(interval, "interval");
    return this;
  }

  /**
   * How long one Lease call waits for a job when none is ready; 20 s by default, 0 to 60 s.
   *
   * @param wait the long-poll wait
   * @return this builder
   */
  public WorkerBuilder pollWait(Duration wait) {
    this.pollWait = Objects.requireNonNull(wait, "wait");
    return this;
  }

  /**
   * How long {@link Worker#shutdown()} lets running jobs finish before it interrupts and releases
   * them; 30 s by default.
   *
   * @param grace zero or more
   * @return this builder
   */
  public WorkerBuilder shutdownGrace(Duration grace) {
    this.shutdownGrace = Objects.requireNonNull(grace, "grace");
    return this;
  }

  /**
   * The deadline of each Complete, CompleteBatch, Fail and Release call; 10 s by default (never
   * past the lease; for CompleteBatch, the longest lease among its jobs).
   *
   * @param timeout a positive duration
   * @return this builder
   */
  public WorkerBuilder rpcTimeout(Duration timeout) {
    this.rpcTimeout = Objects.requireNonNull(timeout, "timeout");
    return this;
  }

  /**
   * The poll loop's backoff after a failed Lease: the first delay is about {@code initial}, each
   * further one doubles, up to {@code max}, with jitter; 100 ms and 10 s by default.
   *
   * @param initial a positive duration
   * @param max at least {@code initial}
   * @return this builder
   */
  public WorkerBuilder pollBackoff(Duration initial, Duration max) {
    this.pollBackoffInitial = Objects.requireNonNull(initial, "initial");
    this.pollBackoffMax = Objects.requireNonNull(max, "max");
    return this;
  }

  /**
   * The id this worker presents; {@code <hostname>-<pid>-<random>} by default. It appears in each
   * job's history, so make it say which process ran the job.
   *
   * @param workerId not blank, at most 256 characters (a coordinator refuses a longer one)
   * @return this builder
   */
  public WorkerBuilder workerId(String workerId) {
    this.workerId = requireText(workerId, "workerId");
    return this;
  }

  /**
   * Replaces the {@linkplain ErrorClassifier#standard() standard failure table}.
   *
   * @param classifier a thread-safe classifier
   * @return this builder
   */
  public WorkerBuilder errorClassifier(ErrorClassifier classifier) {
    this.classifier = Objects.requireNonNull(classifier, "classifier");
    return this;
  }

  /**
   * The wall clock, used only to express lease deadlines as instants; UTC system clock by default.
   *
   * @param clock the clock
   * @return this builder
   */
  public WorkerBuilder clock(Clock clock) {
    this.clock = Objects.requireNonNull(clock, "clock");
    return this;
  }

  /**
   * The monotonic time source for lease deadlines and heartbeat timing; {@link Ticker#system()} by
   * default. Tests pass a fake ticker to expire leases without waiting.
   *
   * @param ticker the ticker
   * @return this builder
   */
  public WorkerBuilder ticker(Ticker ticker) {
    this.ticker = Objects.requireNonNull(ticker, "ticker");
    return this;
  }

  /**
   * Where handler spans go. A job enqueued inside a span carries that span's W3C {@code
   * traceparent}; its handler then runs in a {@code CONSUMER} span {@code antrean process <type>}
   * whose parent (and link) is the producer's span, current while the handler runs, and marked as
   * an error when the handler throws. When not set, the global one ({@link
   * GlobalOpenTelemetry#getOrNoop()}) as it is when {@link #build()} runs: install the SDK first,
   * or tracing is a no-op.
   *
   * @param openTelemetry the OpenTelemetry instance
   * @return this builder
   */
  public WorkerBuilder openTelemetry(OpenTelemetry openTelemetry) {
    this.openTelemetry = Objects.requireNonNull(openTelemetry, "openTelemetry");
    return this;
  }

  /**
   * Validates the settings and creates the worker, not yet started.
   *
   * @return a new worker
   * @throws IllegalStateException if no coordinator or no handler was given, or a setting is out of
   *     range (the message names it)
   */
  public Worker build() {
    WorkerSettings settings = settings();
    if (channel != null) {
      return Worker.create(settings, channel.authority(), channel, false);
    }
    return Worker.create(settings, target.targets(), target.security(security).build(), true);
  }

  /**
   * The worker's settings, validated, with every default filled in.
   *
   * @throws IllegalStateException as {@link #build()}
   */
  WorkerSettings settings() {
    if (target == null && channel == null) {
      throw new IllegalStateException("no coordinator: call coordinator(target) or channel(c)");
    }
    if (handlers.isEmpty()) {
      throw new IllegalStateException("no handler registered: call handler(type, handler)");
    }
    int ahead = WorkerLimits.prefetch(concurrency, prefetch);
    Duration interval = WorkerLimits.heartbeatInterval(leaseTtl, heartbeatInterval);
    WorkerLimits.checkTimes(
        pollWait, shutdownGrace, rpcTimeout, pollBackoffInitial, pollBackoffMax);
    String id = workerId != null ? WorkerLimits.workerId(workerId) : defaultWorkerId();
    return new WorkerSettings(
        id,
        queue,
        concurrency,
        ahead,
        Map.copyOf(handlers),
        leaseTtl,
        interval,
        pollWait,
        shutdownGrace,
        rpcTimeout,
        pollBackoffInitial,
        pollBackoffMax,
        classifier,
        clock,
        ticker,
        openTelemetry != null ? openTelemetry : GlobalOpenTelemetry.getOrNoop());
  }

  /** {@code <hostname>-<pid>-<6 hex digits>}. */
  static String defaultWorkerId() {
    return defaultWorkerId(SelfDescription.hostname());
  }

  /**
   * {@code <hostname>-<pid>-<6 hex digits>}, the host name cut to {@value
   * WorkerLimits#MAX_DEFAULT_ID_HOST_CHARS} characters so the id stays within what a coordinator
   * takes.
   */
  static String defaultWorkerId(String hostname) {
    String host =
        hostname.length() <= WorkerLimits.MAX_DEFAULT_ID_HOST_CHARS
            ? hostname
            : hostname.substring(0, WorkerLimits.MAX_DEFAULT_ID_HOST_CHARS);
    return host
        + "-"
        + ProcessHandle.current().pid()
        + "-"
        + String.format("%06x", ThreadLocalRandom.current().nextInt(1 << 24));
  }

  private static String requireText(String value, String name) {
    Objects.requireNonNull(value, name);
    if (value.isBlank()) {
      throw new IllegalArgumentException(name + " must not be blank");
    }
    return value;
  }
}
