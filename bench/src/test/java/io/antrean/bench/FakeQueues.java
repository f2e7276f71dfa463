package io.antrean.bench;

import com.google.protobuf.ByteString;
import com.google.protobuf.util.Timestamps;
import io.antrean.proto.v1.AdminServiceGrpc;
import io.antrean.proto.v1.CompleteBatchRequest;
import io.antrean.proto.v1.CompleteBatchResponse;
import io.antrean.proto.v1.CompleteItem;
import io.antrean.proto.v1.CompleteRequest;
import io.antrean.proto.v1.CompleteStatus;
import io.antrean.proto.v1.EnqueueRequest;
import io.antrean.proto.v1.Job;
import io.antrean.proto.v1.JobServiceGrpc;
import io.antrean.proto.v1.JobState;
import io.antrean.proto.v1.Lease;
import io.antrean.proto.v1.LeaseRequest;
import io.antrean.proto.v1.ListJobsRequest;
import io.antrean.proto.v1.ListJobsResponse;
import io.antrean.proto.v1.QueueStats;
import io.antrean.proto.v1.WorkerServiceGrpc;
import io.grpc.Context;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import javax.annotation.concurrent.GuardedBy;

/**
 * A coordinator in miniature for bench tests: Enqueue and EnqueueBatch really store jobs, Lease
 * hands out pending ones (long-polling until one arrives, in short slices so a cancelled call ends
 * at once; a Lease cancelled before its answer reached the worker gives its jobs back, as there is
 * no lease expiry here), Heartbeat extends held leases, Complete and CompleteBatch check the
 * fencing token and mark the job succeeded with its result, ListJobs lists succeeded jobs, GetStats
 * counts. Records what the bench did: Enqueues in flight at most, batch sizes, Lease sizes and
 * workers, completion calls. Thread-safe.
 */
final class FakeQueues {
  private static final long LEASE_SLICE_MILLIS = 20;

  private final Object lock = new Object();

  @GuardedBy("lock")
  private final Map<String, ArrayDeque<Job>> pending = new HashMap<>();

  @GuardedBy("lock")
  private final Map<Long, Job> running = new HashMap<>();

  @GuardedBy("lock")
  private final Map<String, Long> succeeded = new HashMap<>();

  /** Every job that succeeded, with its result, in the order they did. */
  @GuardedBy("lock")
  private final List<Job> done = new ArrayList<>();

  @GuardedBy("lock")
  private long nextId = 1;

  /** Queues paused with PauseQueue: their Lease calls wait as if they held no job. */
  @GuardedBy("lock")
  private final Set<String> paused = new HashSet<>();

  /** ListQueues calls answered. */
  final AtomicInteger listQueuesCalls = new AtomicInteger();

  /** GetStats calls answered: with every count, and of the unfinished jobs alone. */
  final AtomicInteger fullStatsCalls = new AtomicInteger();

  final AtomicInteger unfinishedStatsCalls = new AtomicInteger();

  /** Each PauseQueue and ResumeQueue, as "pause QUEUE" or "resume QUEUE, PENDING pending". */
  final List<String> queueControl = new CopyOnWriteArrayList<>();

  final AtomicInteger enqueuesInFlight = new AtomicInteger();
  // The most Enqueues (calls or Produce messages) unanswered at once, and every Enqueue.
  final AtomicInteger maxEnqueuesInFlight = new AtomicInteger();
  final AtomicInteger enqueueCalls = new AtomicInteger();
  final List<Integer> batchSizes = new CopyOnWriteArrayList<>();
  final List<Integer> leaseMaxJobs = new CopyOnWriteArrayList<>();
  final List<String> leaseWorkers = new CopyOnWriteArrayList<>();
  final List<LeaseRequest> leaseRequests = new CopyOnWriteArrayList<>();
  final AtomicInteger unaryCompletes = new AtomicInteger();
  final AtomicInteger listJobsCalls = new AtomicInteger();
  final AtomicInteger completeBatchCalls = new AtomicInteger();
  final List<Integer> completeBatchSizes = new CopyOnWriteArrayList<>();
  final Map<String, AtomicInteger> completeBatchesInFlight = new ConcurrentHashMap<>();
  // The most CompleteBatch calls one worker had in flight at once.
  final AtomicInteger maxCompleteBatchesInFlight = new AtomicInteger();

  /** How long ago the jobs stored from now on were created, as their created_at says. */
  volatile Duration createdAgo = Duration.ZERO;

  /** Checks each enqueued job; throw a {@link StatusRuntimeException} to refuse it. */
  volatile UnaryOperator<EnqueueRequest> admission = request -> request;

  /** When set, jobs succeed the moment they are stored, as if external workers ran them. */
  volatile boolean externalWorkers;

  /** When set, every Complete is refused as if the lease had been lost. */
  volatile boolean loseLeases;

  /** When set, CompleteBatch answers UNIMPLEMENTED, like a coordinator that predates it. */
  volatile boolean completeBatchUnimplemented;

  /** How long each CompleteBatch takes to be answered, so that completions pile up behind it. */
  volatile long completeBatchMillis;

  /** How long a Lease that found jobs takes to answer, as if the network were slow. */
  volatile long leaseAnswerMillis;

  /** How long each unary Enqueue takes to be answered, so that concurrent calls overlap. */
  volatile long enqueueMillis;

  /** Answers slow calls later, as a slow server would, without holding the call's thread. */
  private final ScheduledExecutorService slowAnswers =
      Executors.newSingleThreadScheduledExecutor(
          runnable -> {
            Thread thread = new Thread(runnable, "fake-queues-slow-answers");
            thread.setDaemon(true);
            return thread;
          });

  /** Runs {@code answer} now, or after {@code millis} on the slow-answer thread. */
  void answerAfter(long millis, Runnable answer) {
    if (millis <= 0) {
      answer.run();
    } else {
      slowAnswers.schedule(answer, millis, TimeUnit.MILLISECONDS);
    }
  }

  /** Stops answering slow calls. */
  void close() {
    slowAnswers.shutdownNow();
  }

  /** The queue's counts, as GetStats reports them. */
  QueueStats stats(String queue) {
    synchronized (lock) {
      ArrayDeque<Job> waiting = pending.get(queue);
      long runningHere = running.values().stream().filter(j -> j.getQueue().equals(queue)).count();
      return QueueStats.newBuilder()
          .setQueue(queue)
          .setPending(waiting == null ? 0 : waiting.size())
          .setRunning(runningHere)
          .setSucceeded(succeeded.getOrDefault(queue, 0L))
          .build();
    }
  }

  /**
   * One ListJobs page of succeeded jobs of {@code queue}, created at or after created_after when
   * set; the page token is the offset. Other filters than queue, state SUCCEEDED and created_after
   * are not supported.
   */
  ListJobsResponse listSucceeded(ListJobsRequest request) {
    listJobsCalls.incrementAndGet();
    if (request.getState() != JobState.JOB_STATE_SUCCEEDED) {
      throw Status.UNIMPLEMENTED
          .withDescription("the fake lists succeeded jobs only")
          .asRuntimeException();
    }
    synchronized (lock) {
      List<Job> matching =
          done.stream()
              .filter(job -> job.getQueue().equals(request.getQueue()))
              .filter(
                  job ->
                      !request.hasCreatedAfter()
                          || Timestamps.compare(job.getCreatedAt(), request.getCreatedAfter()) >= 0)
              .toList();
      int from = request.getPageToken().isEmpty() ? 0 : Integer.parseInt(request.getPageToken());
      int to = Math.min(matching.size(), from + request.getPageSize());
      return ListJobsResponse.newBuilder()
          .addAllJobs(matching.subList(from, to))
          .setNextPageToken(to < matching.size() ? Integer.toString(to) : "")
          .build();
    }
  }

  /** Every queue that ever held a job. */
  List<String> queues() {
    synchronized (lock) {
      List<String> names = new ArrayList<>(pending.keySet());
      succeeded.keySet().stream().filter(q -> !names.contains(q)).forEach(names::add);
      return names;
    }
  }

  /** Stores one job as Enqueue does, after {@link #admission}; returns it. */
  Job store(EnqueueRequest request) {
    EnqueueRequest admitted = admission.apply(request);
    synchronized (lock) {
      Job job =
          Job.newBuilder()
              .setId(nextId++)
              .setQueue(admitted.getQueue())
              .setType(admitted.getType())
              .setPayload(admitted.getPayload())
              .setState(JobState.JOB_STATE_PENDING)
              .setCreatedAt(
                  Timestamps.fromMillis(System.currentTimeMillis() - createdAgo.toMillis()))
              .build();
      if (externalWorkers) {
        succeeded.merge(job.getQueue(), 1L, Long::sum);
        done.add(job.toBuilder().setState(JobState.JOB_STATE_SUCCEEDED).build());
      } else {
        pending.computeIfAbsent(job.getQueue(), q -> new ArrayDeque<>()).add(job);
        lock.notifyAll();
      }
      return job;
    }
  }

  List<Job> leaseJobs(LeaseRequest request) throws InterruptedException {
    long deadline = System.nanoTime() + request.getWait().getSeconds() * 1_000_000_000L;
    synchronized (lock) {
      ArrayDeque<Job> waiting =
          pending.computeIfAbsent(request.getQueue(), q -> new ArrayDeque<>());
      while ((waiting.isEmpty() || paused.contains(request.getQueue()))
          && System.nanoTime() < deadline
          && !Context.current().isCancelled()) {
        lock.wait(LEASE_SLICE_MILLIS);
      }
      List<Job> leased = new ArrayList<>();
      // Woken by a new job after the call was cancelled: leave the job for a live worker.
      while (!Context.current().isCancelled()
          && !waiting.isEmpty()
          && !paused.contains(request.getQueue())
          && leased.size() < Math.max(1, request.getMaxJobs())) {
        Job next = waiting.poll();
        Job job =
            next.toBuilder()
                .setState(JobState.JOB_STATE_RUNNING)
                .setLease(
                    Lease.newBuilder()
                        .setWorkerId(request.getWorkerId())
                        .setFencingToken(next.getId() + 1000))
                .build();
        running.put(job.getId(), job);
        leased.add(job);
      }
      return leased;
    }
  }

  /**
   * Puts jobs leased to a Lease call that was cancelled before its answer reached the worker back
   * at the head of their queue, those still running under that lease.
   */
  void giveBack(List<Job> jobs) {
    synchronized (lock) {
      for (int i = jobs.size() - 1; i >= 0; i--) {
        Job job = jobs.get(i);
        Job held = running.get(job.getId());
        if (held != null && held.getLease().getFencingToken() == job.getLease().getFencingToken()) {
          running.remove(job.getId());
          pending
              .get(job.getQueue())
              .addFirst(job.toBuilder().setState(JobState.JOB_STATE_PENDING).clearLease().build());
        }
      }
      lock.notifyAll();
    }
  }

  void completeJob(CompleteRequest request) {
    CompleteStatus status =
        complete(request.getJobId(), request.getFencingToken(), request.getResult());
    if (status == CompleteStatus.COMPLETE_STATUS_NOT_FOUND) {
      throw Status.NOT_FOUND.withDescription("no job " + request.getJobId()).asRuntimeException();
    }
    if (status != CompleteStatus.COMPLETE_STATUS_COMPLETED) {
      throw Status.FAILED_PRECONDITION.withDescription("lease lost").asRuntimeException();
    }
  }

  CompleteBatchResponse judgeBatch(CompleteBatchRequest request) {
    CompleteBatchResponse.Builder response = CompleteBatchResponse.newBuilder();
    for (CompleteItem item : request.getItemsList()) {
      response
          .addOutcomesBuilder()
          .setJobId(item.getJobId())
          .setStatus(complete(item.getJobId(), item.getFencingToken(), item.getResult()));
    }
    return response.build();
  }

  private CompleteStatus complete(long jobId, long fencingToken, ByteString result) {
    synchronized (lock) {
      Job job = running.get(jobId);
      if (job == null && (jobId < 1 || jobId >= nextId)) {
        return CompleteStatus.COMPLETE_STATUS_NOT_FOUND;
      }
      if (loseLeases || job == null || job.getLease().getFencingToken() != fencingToken) {
        return CompleteStatus.COMPLETE_STATUS_LEASE_LOST;
      }
      running.remove(jobId);
      succeeded.merge(job.getQueue(), 1L, Long::sum);
      done.add(job.toBuilder().setState(JobState.JOB_STATE_SUCCEEDED).setResult(result).build());
      return CompleteStatus.COMPLETE_STATUS_COMPLETED;
    }
  }

  /** The fake's JobService: Enqueue and EnqueueBatch (also on a Produce stream), and GetStats. */
  JobServiceGrpc.JobServiceImplBase jobService() {
    return new FakeJobService(this);
  }

  /** The fake's AdminService: ListQueues, PauseQueue and ResumeQueue. */
  AdminServiceGrpc.AdminServiceImplBase adminService() {
    return new FakeAdmin(this);
  }

  /** Every queue that ever held a job or was paused, by name, with whether it is paused now. */
  SortedMap<String, Boolean> pauseStates() {
    synchronized (lock) {
      SortedMap<String, Boolean> states = new TreeMap<>();
      pending.keySet().forEach(name -> states.put(name, paused.contains(name)));
      paused.forEach(name -> states.put(name, true));
      return states;
    }
  }

  /** Pauses or resumes {@code queue}, as PauseQueue and ResumeQueue do. */
  void setPaused(String queue, boolean pause) {
    synchronized (lock) {
      if (pause) {
        paused.add(queue);
        queueControl.add("pause " + queue);
      } else {
        paused.remove(queue);
        ArrayDeque<Job> waiting = pending.get(queue);
        queueControl.add(
            "resume " + queue + ", " + (waiting == null ? 0 : waiting.size()) + " pending");
        lock.notifyAll();
      }
    }
  }

  /** The fake's WorkerService: Lease, Heartbeat, Complete and CompleteBatch. */
  WorkerServiceGrpc.WorkerServiceImplBase workerService() {
    return new FakeWorkerService(this);
  }

  /** Whether job {@code jobId} runs under {@code fencingToken}, as a heartbeat asks. */
  boolean holds(long jobId, long fencingToken) {
    synchronized (lock) {
      Job job = running.get(jobId);
      return job != null && job.getLease().getFencingToken() == fencingToken;
    }
  }
}
