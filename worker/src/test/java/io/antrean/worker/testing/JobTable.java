package io.antrean.worker.testing;

import com.google.protobuf.ByteString;
import com.google.protobuf.Timestamp;
import io.antrean.proto.v1.Job;
import io.antrean.proto.v1.JobState;
import io.antrean.proto.v1.Lease;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The thread-safe job table of a {@link FakeWorkerService}: the jobs queued, the leases granted on
 * them, and how many are leased and not yet answered.
 */
final class JobTable {
  private final BlockingQueue<Job> pending = new LinkedBlockingQueue<>();
  private final AtomicLong ids;
  private final AtomicLong tokens;
  private final AtomicInteger outstanding = new AtomicInteger();

  /** The most jobs leased and not yet answered at any moment. */
  final AtomicInteger maxOutstanding = new AtomicInteger();

  /**
   * A table whose job ids start at {@code offset + 1} and fencing tokens at {@code offset + 1001}.
   */
  JobTable(long offset) {
    this.ids = new AtomicLong(offset);
    this.tokens = new AtomicLong(1000 + offset);
  }

  /** Queues a job with the given attempt count (after its lease) and idempotency key. */
  long enqueue(String type, String payload, int attempts, String idempotencyKey) {
    long id = ids.incrementAndGet();
    pending.add(
        Job.newBuilder()
            .setId(id)
            .setQueue("default")
            .setType(type)
            .setPayload(ByteString.copyFrom(payload, StandardCharsets.UTF_8))
            .setContentType("application/json")
            .setAttempts(attempts)
            .setIdempotencyKey(idempotencyKey)
            .setState(JobState.JOB_STATE_RUNNING)
            .build());
    return id;
  }

  /**
   * Waits up to {@code waitMillis} for a queued job, then takes it and up to {@code maxJobs - 1}
   * more; none if none came.
   */
  List<Job> awaitQueued(long waitMillis, int maxJobs) throws InterruptedException {
    List<Job> jobs = new ArrayList<>();
    Job first = pending.poll(waitMillis, TimeUnit.MILLISECONDS);
    if (first != null) {
      jobs.add(first);
      pending.drainTo(jobs, maxJobs - 1);
    }
    return jobs;
  }

  /** Takes up to {@code maxJobs} queued jobs, without waiting. */
  List<Job> takeQueued(int maxJobs) {
    List<Job> jobs = new ArrayList<>();
    pending.drainTo(jobs, maxJobs);
    return jobs;
  }

  /** Leases taken jobs to {@code workerId}, each under a fresh fencing token, and counts them. */
  List<Job> lease(List<Job> jobs, String workerId) {
    List<Job> leased = new ArrayList<>();
    for (Job job : jobs) {
      leased.add(withLease(job, workerId));
    }
    maxOutstanding.accumulateAndGet(outstanding.addAndGet(jobs.size()), Math::max);
    return leased;
  }

  private Job withLease(Job job, String workerId) {
    long token = tokens.incrementAndGet();
    return job.toBuilder()
        .setLease(
            Lease.newBuilder()
                .setWorkerId(workerId)
                .setFencingToken(token)
                .setLeaseId(leaseId(token))
                .setExpiresAt(leaseExpiry()))
        .build();
  }

  /** One leased job was completed, failed or released. */
  void answered() {
    outstanding.decrementAndGet();
  }

  /** A lease's jobs its worker withdrew the request for: pending again, as if never leased. */
  void giveBack(List<Job> jobs) {
    jobs.forEach(job -> pending.add(job.toBuilder().clearLease().build()));
    outstanding.addAndGet(-jobs.size());
  }

  /** Jobs leased and not yet completed, failed or released. */
  int outstanding() {
    return outstanding.get();
  }

  /** The lease id of the lease with this fencing token. */
  static String leaseId(long fencingToken) {
    return String.format("%032x", fencingToken);
  }

  /** Whether {@code leaseId} is the lease id of the lease with this fencing token. */
  static boolean echoes(long fencingToken, String leaseId) {
    return leaseId(fencingToken).equals(leaseId);
  }

  /** When a lease granted or extended now expires: in 30 s. */
  static Timestamp leaseExpiry() {
    Instant at = Instant.now().plusSeconds(30);
    return Timestamp.newBuilder().setSeconds(at.getEpochSecond()).setNanos(at.getNano()).build();
  }
}
