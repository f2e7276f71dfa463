package io.antrean.worker.testing;

import static io.antrean.worker.testing.JobTable.echoes;

import io.antrean.proto.v1.CompleteBatchRequest;
import io.antrean.proto.v1.CompleteBatchResponse;
import io.antrean.proto.v1.CompleteItem;
import io.antrean.proto.v1.CompleteOutcome;
import io.antrean.proto.v1.CompleteRequest;
import io.antrean.proto.v1.CompleteResponse;
import io.antrean.proto.v1.CompleteStatus;
import io.antrean.proto.v1.FailRequest;
import io.antrean.proto.v1.FailResponse;
import io.antrean.proto.v1.HeartbeatRequest;
import io.antrean.proto.v1.HeartbeatResponse;
import io.antrean.proto.v1.Job;
import io.antrean.proto.v1.JobState;
import io.antrean.proto.v1.LeaseRef;
import io.antrean.proto.v1.LeaseRequest;
import io.antrean.proto.v1.LeaseResponse;
import io.antrean.proto.v1.LeaseState;
import io.antrean.proto.v1.LeaseStatus;
import io.antrean.proto.v1.ReleaseRequest;
import io.antrean.proto.v1.ReleaseResponse;
import io.antrean.proto.v1.WorkRequest;
import io.antrean.proto.v1.WorkResponse;
import io.antrean.proto.v1.WorkerServiceGrpc;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.StreamObserver;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.LongFunction;

/**
 * A hand-written coordinator for worker tests: hands out queued jobs, records every call, and fails
 * or answers as the test tells it. Thread-safe.
 */
public final class FakeWorkerService extends WorkerServiceGrpc.WorkerServiceImplBase {
  /** Long polls are cut to this, so that tests never wait for a full server wait. */
  private static final long MAX_WAIT_MILLIS = 50;

  private final JobTable table;

  /** The most jobs leased and not yet answered at any moment, through either way of leasing. */
  public final AtomicInteger maxOutstanding;

  public final List<LeaseRequest> leases = new CopyOnWriteArrayList<>();
  public final List<Long> leaseNanos = new CopyOnWriteArrayList<>();
  public final List<Integer> outstandingAtLease = new CopyOnWriteArrayList<>();
  public final List<HeartbeatRequest> heartbeats = new CopyOnWriteArrayList<>();

  /**
   * Every completion received: each Complete call, and each item of each CompleteBatch call that
   * got past validation, UNIMPLEMENTED and the {@link #completeBatchGate} (as a CompleteRequest
   * with the batch's worker id). Failed attempts are listed too.
   */
  public final List<CompleteRequest> completes = new CopyOnWriteArrayList<>();

  /** The Complete calls alone. */
  public final List<CompleteRequest> unaryCompletes = new CopyOnWriteArrayList<>();

  /** Every CompleteBatch call, as it arrived, including those answered with an error. */
  public final List<CompleteBatchRequest> completeBatches = new CopyOnWriteArrayList<>();

  /** CompleteBatch calls refused with INVALID_ARGUMENT, which a correct worker never sends. */
  public final AtomicInteger invalidCompleteBatches = new AtomicInteger();

  public final List<FailRequest> fails = new CopyOnWriteArrayList<>();
  public final List<ReleaseRequest> releases = new CopyOnWriteArrayList<>();

  /**
   * When set, a Lease call that finds no job waits (at most 30 s) for it to open before it answers,
   * instead of the short poll, so a test can hold a Lease in flight.
   */
  public volatile CountDownLatch emptyLeaseGate;

  /** Lease calls still to fail with UNAVAILABLE. */
  public final AtomicInteger leaseFailures = new AtomicInteger();

  /** Complete and CompleteBatch calls still to fail as a whole, with {@link #completeError}. */
  public final AtomicInteger completeFailures = new AtomicInteger();

  public volatile Status completeError = Status.UNAVAILABLE;

  /** When set, what the failing Lease calls throw instead of UNAVAILABLE (with its trailers). */
  public volatile StatusRuntimeException leaseException;

  /** When set, what failing Complete and CompleteBatch calls throw instead of completeError. */
  public volatile StatusRuntimeException completeException;

  /** When each Complete and CompleteBatch call arrived ({@link System#nanoTime}). */
  public final List<Long> completeNanos = new CopyOnWriteArrayList<>();

  /**
   * False plays a coordinator older than CompleteBatch: the call is recorded in {@link
   * #completeBatches} and answered UNIMPLEMENTED.
   */
  public volatile boolean completeBatchImplemented = true;

  /**
   * Decides each completion by job id; COMPLETED by default. For Complete, LEASE_LOST becomes
   * FAILED_PRECONDITION and NOT_FOUND becomes NOT_FOUND.
   */
  public volatile LongFunction<CompleteStatus> completePolicy =
      jobId -> CompleteStatus.COMPLETE_STATUS_COMPLETED;

  /**
   * When set, each valid CompleteBatch call waits (at most 30 s) for it to open before it goes on,
   * so a test can hold a batch in flight.
   */
  public volatile CountDownLatch completeBatchGate;

  /**
   * False plays a coordinator older than {@code lease_next}: a CompleteBatch's lease_next is
   * ignored and its answer carries no leased jobs.
   */
  public volatile boolean leaseNextImplemented = true;

  /** The jobs leased through CompleteBatch's lease_next so far. */
  public final AtomicInteger leasedAfterComplete = new AtomicInteger();

  /** When set, every heartbeat fails with it. */
  public volatile Status heartbeatError;

  /** Heartbeats still to answer with {@code woken} set, as a coordinator woken by a cancel. */
  public final AtomicInteger wokenHeartbeats = new AtomicInteger();

  /** Decides each lease's heartbeat answer; EXTENDED by default. */
  public volatile Function<LeaseRef, LeaseStatus> heartbeatPolicy =
      ref -> LeaseStatus.LEASE_STATUS_EXTENDED;

  /** A fake whose job ids start at 1 and fencing tokens at 1001. */
  public FakeWorkerService() {
    this(0);
  }

  /**
   * A fake whose job ids and fencing tokens start {@code offset} higher than the default, so that
   * several fakes behind one channel never hand out the same lease.
   */
  public FakeWorkerService(long offset) {
    this.table = new JobTable(offset);
    this.maxOutstanding = table.maxOutstanding;
  }

  /** Queues a job of {@code type} on the first attempt; returns its id. */
  public long enqueue(String type, String payload) {
    return enqueue(type, payload, 1, "");
  }

  /** Queues a job with the given attempt count (after its lease) and idempotency key. */
  public long enqueue(String type, String payload, int attempts, String idempotencyKey) {
    return table.enqueue(type, payload, attempts, idempotencyKey);
  }

  /** Jobs leased and not yet completed, failed or released. */
  public int outstanding() {
    return table.outstanding();
  }

  /** A lease's jobs its worker withdrew the request for: pending again, as if never leased. */
  void giveBack(List<Job> jobs) {
    table.giveBack(jobs);
  }

  /**
   * True plays answers that cross the worker's cancel on the wire: a withdrawn lease keeps waiting,
   * up to 10 s whatever its wait, and its answer is sent all the same, jobs and all.
   */
  public volatile boolean answersCrossCancels;

  private static final long CROSSING_WAIT_MILLIS = 10_000;

  /** False plays a coordinator older than Work: the worker then sends Lease and CompleteBatch. */
  public volatile boolean workImplemented = true;

  @Override
  public StreamObserver<WorkRequest> work(StreamObserver<WorkResponse> answers) {
    if (!workImplemented) {
      return super.work(answers);
    }
    return new WorkOverCalls(this, answers);
  }

  @Override
  public void lease(LeaseRequest request, StreamObserver<LeaseResponse> answer) {
    leases.add(request);
    leaseNanos.add(System.nanoTime());
    outstandingAtLease.add(table.outstanding());
    if (leaseFailures.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
      StatusRuntimeException injected = leaseException;
      answer.onError(
          injected != null
              ? injected
              : Status.UNAVAILABLE.withDescription("injected").asRuntimeException());
      return;
    }
    List<Job> jobs = List.of();
    try {
      long waitMillis =
          answersCrossCancels
              // Held until a job comes, so that a withdrawn lease is answered with it.
              ? CROSSING_WAIT_MILLIS
              : Math.min(MAX_WAIT_MILLIS, request.getWait().getSeconds() * 1000);
      jobs = table.awaitQueued(Math.max(waitMillis, 10), Math.max(1, request.getMaxJobs()));
      if (jobs.isEmpty() && emptyLeaseGate != null) {
        emptyLeaseGate.await(30, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    LeaseResponse response =
        LeaseResponse.newBuilder().addAllJobs(table.lease(jobs, request.getWorkerId())).build();
    answer.onNext(response);
    answer.onCompleted();
  }

  /**
   * The lease id this fake gives the lease with this token. Every report must echo it: one that
   * does not is refused as a lost lease, as the coordinator would.
   */
  public static String leaseId(long fencingToken) {
    return JobTable.leaseId(fencingToken);
  }

  @Override
  public void heartbeat(HeartbeatRequest request, StreamObserver<HeartbeatResponse> answer) {
    heartbeats.add(request);
    Status error = heartbeatError;
    if (error != null) {
      answer.onError(error.asRuntimeException());
      return;
    }
    HeartbeatResponse.Builder response =
        HeartbeatResponse.newBuilder()
            .setWoken(wokenHeartbeats.getAndUpdate(n -> Math.max(0, n - 1)) > 0);
    for (LeaseRef ref : request.getLeasesList()) {
      response.addLeases(
          LeaseState.newBuilder()
              .setJobId(ref.getJobId())
              .setFencingToken(ref.getFencingToken())
              .setStatus(
                  echoes(ref.getFencingToken(), ref.getLeaseId())
                      ? heartbeatPolicy.apply(ref)
                      : LeaseStatus.LEASE_STATUS_LOST)
              .setExpiresAt(JobTable.leaseExpiry()));
    }
    answer.onNext(response.build());
    answer.onCompleted();
  }

  @Override
  public void complete(CompleteRequest request, StreamObserver<CompleteResponse> answer) {
    completes.add(request);
    unaryCompletes.add(request);
    completeNanos.add(System.nanoTime());
    if (completeFailures.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
      StatusRuntimeException injected = completeException;
      answer.onError(
          injected != null
              ? injected
              : completeError.withDescription("injected").asRuntimeException());
      return;
    }
    if (!echoes(request.getFencingToken(), request.getLeaseId())) {
      answer.onError(Status.FAILED_PRECONDITION.withDescription("LEASE_LOST").asException());
      return;
    }
    switch (completePolicy.apply(request.getJobId())) {
      case COMPLETE_STATUS_LEASE_LOST ->
          answer.onError(Status.FAILED_PRECONDITION.withDescription("LEASE_LOST").asException());
      case COMPLETE_STATUS_NOT_FOUND ->
          answer.onError(Status.NOT_FOUND.withDescription("no such job").asException());
      default -> {
        table.answered();
        answer.onNext(CompleteResponse.getDefaultInstance());
        answer.onCompleted();
      }
    }
  }

  @Override
  public void completeBatch(
      CompleteBatchRequest request, StreamObserver<CompleteBatchResponse> answer) {
    completeBatches.add(request);
    if (!completeBatchImplemented) {
      super.completeBatch(request, answer);
      return;
    }
    String invalid = invalidity(request);
    if (invalid != null) {
      invalidCompleteBatches.incrementAndGet();
      answer.onError(Status.INVALID_ARGUMENT.withDescription(invalid).asException());
      return;
    }
    awaitGate();
    for (CompleteItem item : request.getItemsList()) {
      completes.add(
          CompleteRequest.newBuilder()
              .setJobId(item.getJobId())
              .setFencingToken(item.getFencingToken())
              .setLeaseId(item.getLeaseId())
              .setWorkerId(request.getWorkerId())
              .setResult(item.getResult())
              .setResultContentType(item.getResultContentType())
              .build());
    }
    completeNanos.add(System.nanoTime());
    if (completeFailures.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
      StatusRuntimeException injected = completeException;
      answer.onError(
          injected != null
              ? injected
              : completeError.withDescription("injected").asRuntimeException());
      return;
    }
    CompleteBatchResponse.Builder response = CompleteBatchResponse.newBuilder();
    for (CompleteItem item : request.getItemsList()) {
      CompleteStatus status =
          echoes(item.getFencingToken(), item.getLeaseId())
              ? completePolicy.apply(item.getJobId())
              : CompleteStatus.COMPLETE_STATUS_LEASE_LOST;
      if (status == CompleteStatus.COMPLETE_STATUS_COMPLETED) {
        table.answered();
      }
      response.addOutcomes(
          CompleteOutcome.newBuilder().setJobId(item.getJobId()).setStatus(status));
    }
    if (leaseNextImplemented && request.hasLeaseNext()) {
      List<Job> jobs = table.takeQueued(Math.max(1, request.getLeaseNext().getMaxJobs()));
      response.addAllLeasedJobs(table.lease(jobs, request.getWorkerId()));
      leasedAfterComplete.addAndGet(jobs.size());
    }
    answer.onNext(response.build());
    answer.onCompleted();
  }

  /** Why the coordinator would refuse {@code request} as a whole, or null if it would not. */
  private static String invalidity(CompleteBatchRequest request) {
    if (request.getWorkerId().isEmpty()) {
      return "missing worker_id";
    }
    if (request.getItemsCount() < 1 || request.getItemsCount() > 1000) {
      return "items must number 1 to 1000: " + request.getItemsCount();
    }
    if (request.hasLeaseNext() && request.getLeaseNext().hasWait()) {
      LeaseRequest next = request.getLeaseNext();
      if (next.getWait().getSeconds() != 0 || next.getWait().getNanos() != 0) {
        return "lease_next.wait must be unset or zero";
      }
    }
    Set<Long> jobIds = new HashSet<>();
    for (CompleteItem item : request.getItemsList()) {
      if (!jobIds.add(item.getJobId())) {
        return "job " + item.getJobId() + " appears twice";
      }
    }
    return null;
  }

  private void awaitGate() {
    CountDownLatch gate = completeBatchGate;
    if (gate == null) {
      return;
    }
    try {
      gate.await(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public void fail(FailRequest request, StreamObserver<FailResponse> answer) {
    fails.add(request);
    if (!echoes(request.getFencingToken(), request.getLeaseId())) {
      answer.onError(Status.FAILED_PRECONDITION.withDescription("LEASE_LOST").asException());
      return;
    }
    table.answered();
    answer.onNext(FailResponse.newBuilder().setState(JobState.JOB_STATE_PENDING).build());
    answer.onCompleted();
  }

  @Override
  public void release(ReleaseRequest request, StreamObserver<ReleaseResponse> answer) {
    releases.add(request);
    if (!echoes(request.getFencingToken(), request.getLeaseId())) {
      answer.onError(Status.FAILED_PRECONDITION.withDescription("LEASE_LOST").asException());
      return;
    }
    table.answered();
    answer.onNext(ReleaseResponse.getDefaultInstance());
    answer.onCompleted();
  }
}
