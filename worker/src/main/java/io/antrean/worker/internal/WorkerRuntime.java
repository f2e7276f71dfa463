package io.antrean.worker.internal;

import io.antrean.proto.v1.Job;
import io.antrean.proto.v1.JobServiceGrpc;
import io.antrean.proto.v1.LeaseRequest;
import io.antrean.proto.v1.WorkerServiceGrpc;
import io.antrean.worker.CancellationReason;
import io.grpc.ManagedChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Wires the poll loop, the handler threads, the lease keeper, the outcome reporter and the
 * completion queue together and runs the shutdown sequence. Internal: use {@link
 * io.antrean.worker.Worker}; this class is public only so that the API package can reach it, and it
 * may change at any time.
 *
 * <p>Thread-safe.
 */
public final class WorkerRuntime {
  private static final Logger log = LoggerFactory.getLogger(WorkerRuntime.class);
  // How long termination waits for answers still on their way, and for their jobs' releases.
  private static final Duration HAND_BACK_WAIT = Duration.ofSeconds(2);

  private enum State {
    NEW,
    RUNNING,
    STOPPING,
    TERMINATED
  }

  private final WorkerSettings settings;
  private final String coordinator;
  private final ManagedChannel channel;
  private final DependencyReader dependencies;
  private final boolean ownsChannel;
  private final WorkStreamClient work;
  private final LeaseTable leases = new LeaseTable();
  private final SlotPool slots;
  private final Prefetch prefetch;
  private final OutcomeReporter reporter;
  private final AsideReleases asideReleases;
  private final JobSettler settler;
  private final CompletionQueue completions;
  private final JobRunner runner;
  private final ThreadPoolExecutor handlerThreads;
  private final ScheduledThreadPoolExecutor keeperThread;
  private final LeaseKeeper keeper;
  private final LeasePoller poller;
  private final AtomicReference<State> state = new AtomicReference<>(State.NEW);
  private final ShutdownSequence shutdownSequence;
  private final CountDownLatch terminated = new CountDownLatch(1);

  /**
   * Builds a runtime that talks to the coordinator over {@code channel}; nothing runs before {@link
   * #start()}.
   *
   * @param settings validated settings
   * @param coordinator how to name the coordinator in logs
   * @param channel the channel to the coordinator
   * @param ownsChannel whether termination shuts the channel down
   */
  public WorkerRuntime(
      WorkerSettings settings, String coordinator, ManagedChannel channel, boolean ownsChannel) {
    this.settings = settings;
    this.coordinator = coordinator;
    this.channel = channel;
    this.ownsChannel = ownsChannel;
    this.slots = new SlotPool(settings.concurrency());
    this.prefetch = new Prefetch(settings.prefetch(), slots);
    WorkerServiceGrpc.WorkerServiceBlockingStub blockingStub =
        WorkerServiceGrpc.newBlockingStub(channel);
    this.keeperThread = new ScheduledThreadPoolExecutor(1, new WorkerThreads("heartbeat"));
    // Each Lease on the Work stream has a deadline here, nearly always cancelled by its answer.
    keeperThread.setRemoveOnCancelPolicy(true);
    this.reporter =
        new OutcomeReporter(
            blockingStub, settings.workerId(), settings.ticker(), settings.rpcTimeout());
    this.asideReleases = new AsideReleases(reporter, settings.ticker(), localTtlNanos());
    this.work =
        new WorkStreamClient(
            WorkerServiceGrpc.newStub(channel), keeperThread, asideReleases::handBack);
    this.settler = new JobSettler(leases, slots);
    this.dependencies =
        new DependencyReader(JobServiceGrpc.newBlockingStub(channel), settings.rpcTimeout());
    this.completions =
        new CompletionQueue(
            new CompleteBatchSender(
                work, settings.workerId(), settings.ticker(), settings.rpcTimeout(), reporter),
            reporter,
            settler,
            new SlotRefill(
                leaseTemplate(settings), () -> state.get() == State.RUNNING, this::dispatch, slots),
            prefetch,
            CompletionQueue.LINGER);
    this.runner =
        new JobRunner(
            settings.handlers(),
            settings.classifier(),
            reporter,
            completions,
            settler,
            new HandlerTracing(settings.openTelemetry()),
            settings.ticker(),
            prefetch);
    this.handlerThreads =
        new ThreadPoolExecutor(
            settings.concurrency(),
            settings.concurrency(),
            0,
            TimeUnit.MILLISECONDS,
            // Wakes a waiting thread only when none is already on its way, not one per job.
            new WakeOneQueue<>(),
            new WorkerThreads("handler"));
    this.keeper =
        new LeaseKeeper(
            WorkerServiceGrpc.newStub(channel),
            settings.workerId(),
            SelfDescription.of(settings),
            settings.leaseTtl(),
            settings.heartbeatInterval(),
            settings.ticker(),
            leases,
            keeperThread);
    this.poller =
        new LeasePoller(
            work,
            leaseTemplate(settings),
            slots,
            this::dispatch,
            settings.ticker(),
            new Backoff(settings.pollBackoffInitial(), settings.pollBackoffMax()),
            new WorkerThreads("poller"));
    this.shutdownSequence =
        new ShutdownSequence(
            settings.workerId(),
            poller,
            this::releaseWaiting,
            leases,
            reporter,
            settings.shutdownGrace());
  }

  private static LeaseRequest leaseTemplate(WorkerSettings settings) {
    return LeaseRequest.newBuilder()
        .setWorkerId(settings.workerId())
        .setQueue(settings.queue())
        .addAllTypes(new TreeSet<>(settings.handlers().keySet()))
        .setLeaseTtl(ProtoDurations.of(settings.leaseTtl()))
        .setWait(ProtoDurations.of(settings.pollWait()))
        .setWorker(SelfDescription.of(settings))
        .build();
  }

  /** Starts leasing. Throws {@link IllegalStateException} if started or shut down before. */
  public void start() {
    if (!state.compareAndSet(State.NEW, State.RUNNING)) {
      throw new IllegalStateException("worker already started or shut down: " + state.get());
    }
    long tickMillis = keeperTickMillis(settings.heartbeatInterval(), settings.leaseTtl());
    keeperThread.scheduleWithFixedDelay(
        WorkerThreads.guarded(() -> keeper.runOnce(settings.ticker().nanos())),
        tickMillis,
        tickMillis,
        TimeUnit.MILLISECONDS);
    completions.start();
    // Threads are made now, not by the first dispatches on the transport thread.
    handlerThreads.prestartAllCoreThreads();
    poller.start();
    log.info(
        "worker started: id {}, coordinator {}, queue {}, concurrency {}, prefetch up to {}, types"
            + " {}",
        settings.workerId(),
        coordinator,
        settings.queue(),
        settings.concurrency(),
        settings.prefetch(),
        new TreeSet<>(settings.handlers().keySet()));
  }

  /**
   * How often the lease keeper looks at its leases: a quarter of the heartbeat interval, at most a
   * second and never more than a tenth of the lease TTL (so a local deadline is noticed well before
   * the coordinator's expiry), at least 5 ms. The profile of a busy worker found the keeper's old
   * 100 ms tick costing about 13 us of CPU per job at 264 jobs/s, for checks that only need to
   * happen once per heartbeat.
   */
  static long keeperTickMillis(Duration heartbeatInterval, Duration leaseTtl) {
    long quarterInterval = heartbeatInterval.toMillis() / 4;
    long tenthTtl = leaseTtl.toMillis() / 10;
    return Math.max(5, Math.min(Math.min(1_000, tenthTtl), quarterInterval));
  }

  /** Begins the graceful shutdown sequence on its own thread; returns at once. Idempotent. */
  public void shutdown() {
    if (state.compareAndSet(State.NEW, State.TERMINATED)) {
      terminate();
    } else if (state.compareAndSet(State.RUNNING, State.STOPPING)) {
      // No Lease from now on, not only once the drain thread gets going: one sent in between and
      // withdrawn by the drain while answered would leave its jobs leased until they expire.
      poller.stop();
      Thread drainer =
          new WorkerThreads("shutdown").newThread(WorkerThreads.guarded(this::drainAndTerminate));
      drainer.start();
    }
  }

  /** Like {@link #shutdown()}, but without the grace period. Idempotent. */
  public void shutdownNow() {
    shutdownSequence.skipGrace();
    shutdown();
  }

  /**
   * Waits until the worker has terminated.
   *
   * @param timeout how long to wait at most
   * @return true if it terminated within {@code timeout}
   * @throws InterruptedException if interrupted while waiting
   */
  public boolean awaitTermination(Duration timeout) throws InterruptedException {
    return terminated.await(timeout.toNanos(), TimeUnit.NANOSECONDS);
  }

  /**
   * Whether the shutdown sequence has finished.
   *
   * @return true once terminated
   */
  public boolean isTerminated() {
    return terminated.getCount() == 0;
  }

  /**
   * How many leases the worker holds right now.
   *
   * @return running jobs, jobs leased ahead that wait for a handler thread, and jobs whose outcome
   *     is being reported
   */
  public int heldLeases() {
    return leases.size();
  }

  /** Hands a leased job to a handler thread; runs on the thread that read the Lease answer. */
  private void dispatch(Job job, long receivedNanos) {
    HeldLease lease = new HeldLease(job, receivedNanos + localTtlNanos());
    LeasedJobContext context =
        new LeasedJobContext(
            lease, settings.workerId(), settings.clock(), settings.ticker(), dependencies);
    leases.add(lease);
    if (state.get() != State.RUNNING) {
      // Leased while shutdown began: hand it straight back, not behind the jobs still running.
      lease.stop(CancellationReason.SHUTDOWN);
      releaseAside(lease, true);
      return;
    }
    try {
      handlerThreads.execute(
          () -> {
            if (state.get() != State.RUNNING) {
              // Waited for a thread while shutdown began: released, not run.
              lease.stop(CancellationReason.SHUTDOWN);
            }
            runner.run(lease, context);
          });
    } catch (RejectedExecutionException e) {
      // The worker terminated meanwhile.
      releaseAside(lease, false);
    }
  }

  /**
   * Releases a job no handler will run on a thread of its own (Release is a blocking call, and this
   * thread read a Lease or CompleteBatch answer), then settles it.
   */
  private void releaseAside(HeldLease lease, boolean retry) {
    if (!lease.claimOutcome()) {
      settler.settle(lease);
      return;
    }
    Runnable release =
        () -> {
          try {
            reporter.release(lease, "shutdown", retry);
          } finally {
            settler.settle(lease);
          }
        };
    asideReleases.run(release);
  }

  /**
   * The local lease length of a new lease. Counted from when the Lease answer arrived, so it is
   * shortened by a margin for the time the answer spent on the wire.
   */
  private long localTtlNanos() {
    long ttl = settings.leaseTtl().toNanos();
    return ttl - Math.min(ttl / 10, Duration.ofSeconds(2).toNanos());
  }

  /**
   * Releases, on the calling thread, the jobs leased ahead that still wait for a handler thread
   * (shutdown has begun, so each is stopped before it could start); for the shutdown sequence.
   */
  private void releaseWaiting() {
    List<Runnable> waiting = new ArrayList<>();
    handlerThreads.getQueue().drainTo(waiting);
    waiting.forEach(Runnable::run);
  }

  private void drainAndTerminate() {
    try {
      shutdownSequence.drain();
    } finally {
      terminate();
    }
  }

  private void terminate() {
    state.set(State.TERMINATED);
    reporter.abandon();
    completions.stop();
    work.close();
    asideReleases.await(work, HAND_BACK_WAIT);
    handlerThreads.shutdownNow();
    keeperThread.shutdownNow();
    if (ownsChannel) {
      closeChannel();
    }
    terminated.countDown();
    log.info("worker {} stopped", settings.workerId());
  }

  private void closeChannel() {
    channel.shutdown();
    try {
      if (!channel.awaitTermination(2, TimeUnit.SECONDS)) {
        channel.shutdownNow();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      channel.shutdownNow();
    }
  }
}
