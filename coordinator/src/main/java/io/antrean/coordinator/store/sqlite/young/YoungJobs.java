package io.antrean.coordinator.store.sqlite.young;

import io.antrean.coordinator.job.JobState;
import io.antrean.coordinator.job.NewJob;
import io.antrean.coordinator.store.sqlite.young.YoungChange.Created;
import io.antrean.coordinator.store.sqlite.young.YoungChange.Extended;
import io.antrean.coordinator.store.sqlite.young.YoungChange.Leased;
import io.antrean.coordinator.store.sqlite.young.YoungChange.Succeeded;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;
import javax.annotation.Nullable;

/**
 * The young jobs (stored since the last fold) as the writer's transaction sees them, and the
 * changes that made them, for the {@link YoungJobLog}. A young job is PENDING, or RUNNING under its
 * first lease, or SUCCEEDED by that lease's holder ({@link YoungAttempt}); every other change to a
 * job is made on its row after a fold.
 *
 * <p>It follows the writer's group commit: {@link #beginGroup}, then for each operation a {@link
 * #mark} it can {@link #rollbackTo} (its savepoint), then {@link #commitGroup}, which hands over
 * the group's changes for the log, or {@link #abandonGroup}, which undoes them all. A change is
 * kept only with the group that made it, and its record reaches the log only then.
 *
 * <p>Not thread-safe: only the thread that holds the writer's connection touches it.
 */
public final class YoungJobs {
  /** The pick order of a queue's pending jobs: priority first, then run time, then id. */
  public static final Comparator<YoungJob> PICK_ORDER =
      Comparator.comparingInt((YoungJob j) -> -j.job().priority())
          .thenComparing(j -> asStored(j.job().runAt()))
          .thenComparingLong(YoungJob::id);

  /** The most payload or result bytes a job may have and be young (or go on young). */
  public static final int MAX_BYTES_PER_JOB = 1 << 20;

  /** The longest text a young job's record holds (its encoding takes at most 65,535 bytes). */
  public static final int MAX_TEXT_CHARS = 16_384;

  /** The fencing token of a job's first lease, as the jobs' table counts tokens from 0. */
  public static final long FIRST_TOKEN = 1;

  private final NavigableMap<Long, YoungJob> jobs = new TreeMap<>();
  private final YoungQueues queues = new YoungQueues();
  private final YoungGroup group = new YoungGroup();
  private long lastId;
  // The payloads' and results' bytes the young jobs hold.
  private long bytes;

  /**
   * A young job: what it was enqueued with, its id, when it was stored and last changed, and its
   * attempt once leased.
   */
  public record YoungJob(
      long id, NewJob job, Instant createdAt, Instant updatedAt, @Nullable YoungAttempt attempt) {

    /** PENDING, RUNNING or SUCCEEDED. */
    public JobState state() {
      if (attempt == null) {
        return JobState.PENDING;
      }
      return attempt.succeeded() ? JobState.SUCCEEDED : JobState.RUNNING;
    }

    private YoungJob with(Instant now, YoungAttempt changed) {
      return new YoungJob(id, job, createdAt, now, changed);
    }
  }

  /** Starts a group; every change until {@link #commitGroup} or {@link #abandonGroup} is in it. */
  public void beginGroup() {
    group.begin();
  }

  /** Where the operation starting now begins, for {@link #rollbackTo}. */
  public int mark() {
    return group.mark();
  }

  /** Undoes every change made since {@code mark}, as its savepoint's rollback does. */
  public void rollbackTo(int mark) {
    group.rollbackTo(mark);
  }

  /**
   * Keeps the group's changes; returns those made after its last fold, in order.
   *
   * @return the changes the log must hold before the group's answers go out
   */
  public List<YoungChange> commitGroup() {
    return group.commit();
  }

  /**
   * {@link #commitGroup}, which returns the changes' records, to append to the log before the
   * group's answers go out.
   */
  public List<LoggedChange> commitGroupRecords() {
    return group.commitRecords();
  }

  /** Undoes every change of the open group, if any: its transaction did not commit. */
  public void abandonGroup() {
    group.abandon();
  }

  /** Stores a new job as young and pending. */
  public YoungJob create(long id, NewJob job, Instant now) {
    requireGroup();
    if (jobs.containsKey(id)) {
      throw new IllegalStateException("job " + id + " is already young");
    }
    YoungJob young = new YoungJob(id, job, now, now, null);
    keep(young);
    lastId = Math.max(lastId, id);
    record(new Created(id, job, now), () -> forget(id));
    return young;
  }

  /** Replays a change read back from the log at start-up, outside any group. */
  public void replay(YoungChange change) {
    if (group.isOpen()) {
      throw new IllegalStateException("replay inside a group");
    }
    group.beginReplay();
    if (change instanceof Created c) {
      create(c.jobId(), c.job(), c.now());
    } else if (change instanceof Leased l) {
      if (l.attempt() != 1 || l.fencingToken() != FIRST_TOKEN) {
        throw new IllegalStateException("young jobs: a lease other than the first, " + change);
      }
      lease(l.jobId(), l.workerId(), l.leaseIdSha256(), l.expiresAt(), l.now());
    } else if (change instanceof Extended e) {
      extend(e.jobId(), e.fencingToken(), e.expiresAt(), e.progress(), e.now());
    } else if (change instanceof Succeeded s) {
      succeed(s.jobId(), s.fencingToken(), s.result(), s.resultContentType(), s.now());
    }
    group.endReplay();
  }

  /**
   * Leases a young PENDING job to {@code workerId}: its first attempt, under {@link #FIRST_TOKEN}.
   *
   * @throws IllegalStateException if the job is not young and PENDING
   */
  public YoungJob lease(
      long id, String workerId, byte[] leaseIdSha256, Instant expiresAt, Instant now) {
    YoungJob before = inState(id, JobState.PENDING);
    YoungAttempt attempt =
        new YoungAttempt(
            workerId, FIRST_TOKEN, leaseIdSha256, now, expiresAt, null, null, null, null);
    YoungJob leased = before.with(now, attempt);
    keep(leased);
    record(
        new Leased(id, 1, workerId, FIRST_TOKEN, leaseIdSha256, expiresAt, now),
        () -> keep(before));
    return leased;
  }

  /**
   * Extends the lease of a young RUNNING job held with {@code fencingToken}.
   *
   * @throws IllegalStateException if the job is not young and RUNNING under that token
   */
  public YoungJob extend(
      long id, long fencingToken, Instant expiresAt, @Nullable String progress, Instant now) {
    YoungJob before = heldWith(id, fencingToken);
    YoungJob extended = before.with(now, before.attempt().extended(expiresAt, progress));
    keep(extended);
    record(new Extended(id, fencingToken, expiresAt, progress, now), () -> keep(before));
    return extended;
  }

  /**
   * Completes a young RUNNING job held with {@code fencingToken}.
   *
   * @throws IllegalStateException if the job is not young and RUNNING under that token
   */
  public YoungJob succeed(
      long id,
      long fencingToken,
      @Nullable byte[] result,
      @Nullable String resultContentType,
      Instant now) {
    YoungJob before = heldWith(id, fencingToken);
    YoungJob done = before.with(now, before.attempt().succeeded(now, result, resultContentType));
    keep(done);
    record(new Succeeded(id, fencingToken, result, resultContentType, now), () -> keep(before));
    return done;
  }

  /** Whether a young job's lease ran out by {@code now}: only the rows' expiry can take it back. */
  public boolean anyLeaseRunOutBy(Instant now) {
    Instant due = asStored(now);
    for (YoungJob job : jobs.values()) {
      if (job.state() == JobState.RUNNING && !asStored(job.attempt().expiresAt()).isAfter(due)) {
        return true;
      }
    }
    return false;
  }

  /** The young job with this id, or null if it is not young. */
  @Nullable
  public YoungJob find(long id) {
    return jobs.get(id);
  }

  /** Every young job, oldest id first, for a fold. */
  public List<YoungJob> all() {
    return List.copyOf(jobs.values());
  }

  /**
   * A queue's pending young jobs a lease may take now, in pick order: due by {@code now}, of one of
   * {@code types} (any type when empty), at most {@code atMost}.
   */
  public List<YoungJob> due(String queue, Set<String> types, Instant now, int atMost) {
    List<YoungJob> head = new ArrayList<>();
    for (YoungJob j : queues.pending(queue)) {
      if (head.size() == atMost) {
        break;
      }
      if (!asStored(j.job().runAt()).isAfter(asStored(now))
          && (types.isEmpty() || types.contains(j.job().type()))) {
        head.add(j);
      }
    }
    return head;
  }

  /**
   * The largest id a young job has had, 0 before the first: not lowered when a job is undone or
   * folded, since ids only go forward.
   */
  public long lastId() {
    return lastId;
  }

  /** How many jobs are young. */
  public int size() {
    return jobs.size();
  }

  /** The bytes of the young jobs' payloads and results, which memory holds until a fold. */
  public long bytes() {
    return bytes;
  }

  /** Whether there is no young job. */
  public boolean isEmpty() {
    return jobs.isEmpty();
  }

  /**
   * Forgets every young job once a fold has written them all into the database, within the group of
   * the fold: if the group does not commit, they are young again.
   */
  public void folded() {
    requireGroup();
    List<YoungJob> before = all();
    jobs.clear();
    queues.clear();
    bytes = 0;
    group.folded(() -> before.forEach(this::keep));
  }

  /**
   * Forgets these young jobs, the oldest ({@link #oldestBeyond}), once a fold has written them into
   * the database, within the group of the fold: if the group does not commit, they are young again.
   * Unlike {@link #folded()}, the group's changes before it still go to the log.
   */
  public void folded(List<YoungJob> oldest) {
    requireGroup();
    for (YoungJob j : oldest) {
      forget(j.id());
    }
    group.foldedSome(() -> oldest.forEach(this::keep));
  }

  /**
   * The oldest young jobs (by id) to fold so that at most {@code jobs} young jobs, holding at most
   * {@code bytes} of payloads and results, stay young; none if that already holds.
   */
  public List<YoungJob> oldestBeyond(int jobs, long bytes) {
    List<YoungJob> oldest = new ArrayList<>();
    int left = size();
    long bytesLeft = this.bytes;
    for (YoungJob j : this.jobs.values()) {
      if (left <= jobs && bytesLeft <= bytes) {
        break;
      }
      oldest.add(j);
      left--;
      bytesLeft -= bytesOf(j);
    }
    return oldest;
  }

  /** The oldest young jobs (by id), up to {@code lastId}, at most {@code atMost} of them. */
  public List<YoungJob> oldestThrough(long lastId, int atMost) {
    return jobs.headMap(lastId, true).values().stream().limit(atMost).toList();
  }

  /** The queues that have young jobs. */
  public Set<String> queues() {
    return queues.names();
  }

  /** How many young jobs the queue has in {@code state}. */
  public int count(String queue, JobState state) {
    return queues.count(queue, state);
  }

  /** The queue's pending young jobs in pick order, due or not, without a copy. */
  public Iterable<YoungJob> pendingIn(String queue) {
    return queues.pending(queue);
  }

  /**
   * Whether a change with {@code bytes} of payload or result and these texts may be made on a young
   * job: if not, it is made on the job's row, after a fold.
   */
  public static boolean fits(int bytes, @Nullable String... texts) {
    if (bytes > MAX_BYTES_PER_JOB) {
      return false;
    }
    for (String text : texts) {
      if (text != null && text.length() > MAX_TEXT_CHARS) {
        return false;
      }
    }
    return true;
  }

  /** A time as the stores keep it, to the microsecond, for the same order as theirs. */
  public static Instant asStored(Instant time) {
    return time.truncatedTo(ChronoUnit.MICROS);
  }

  private YoungJob inState(long id, JobState state) {
    requireGroup();
    YoungJob job = jobs.get(id);
    if (job == null || job.state() != state) {
      throw new IllegalStateException(
          "job " + id + " is not young and " + state + (job == null ? "" : ": " + job.state()));
    }
    return job;
  }

  private YoungJob heldWith(long id, long fencingToken) {
    YoungJob job = inState(id, JobState.RUNNING);
    if (job.attempt().fencingToken() != fencingToken) {
      throw new IllegalStateException("job " + id + " is not held with token " + fencingToken);
    }
    return job;
  }

  /** Keeps the job as it is now, in place of what it was. */
  private void keep(YoungJob job) {
    YoungJob before = jobs.put(job.id(), job);
    if (before != null) {
      queues.remove(before);
    }
    queues.add(job);
    bytes += bytesOf(job) - (before == null ? 0 : bytesOf(before));
  }

  private void forget(long id) {
    YoungJob before = jobs.remove(id);
    if (before != null) {
      queues.remove(before);
      bytes -= bytesOf(before);
    }
  }

  private static long bytesOf(YoungJob job) {
    byte[] result = job.attempt() == null ? null : job.attempt().result();
    return job.job().payloadSize() + (result == null ? 0 : result.length);
  }

  private void record(YoungChange change, Runnable undoIt) {
    group.record(change, undoIt);
  }

  private void requireGroup() {
    group.requireOpen();
  }
}
