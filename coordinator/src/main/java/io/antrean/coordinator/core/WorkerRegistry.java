package io.antrean.coordinator.core;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import javax.annotation.Nullable;

/**
 * The workers this coordinator has heard from, kept from their Lease, Heartbeat, Complete, Fail and
 * Release calls: what each says about itself, the leases it holds and when it was last seen. A
 * worker is {@link Liveness#LIVE} while a Lease call of it waits or within {@value
 * #LOST_AFTER_INTERVALS} heartbeat intervals of its last call, {@link Liveness#LOST} after that,
 * and forgotten after {@value #DROP_AFTER_INTERVALS} intervals ({@link #runOnce}).
 *
 * <p>In memory, per coordinator; time is a parameter of every method. Thread-safe: each worker's
 * entry has its own lock, so calls of different workers never wait on each other.
 */
public final class WorkerRegistry {
  /** A silent worker is shown as lost after this many heartbeat intervals. */
  public static final int LOST_AFTER_INTERVALS = 3;

  /** A silent worker is forgotten after this many heartbeat intervals. */
  public static final int DROP_AFTER_INTERVALS = 20;

  /** The heartbeat interval assumed for a worker that does not say its own. */
  public static final Duration DEFAULT_HEARTBEAT_INTERVAL = Duration.ofSeconds(10);

  /** Whether a worker is still calling. */
  public enum Liveness {
    LIVE,
    LOST
  }

  /**
   * One worker as of {@code now}.
   *
   * @param identity what it last said about itself; for a worker that said nothing, the queues and
   *     types of its Lease calls
   * @param jobsHeld leases it holds: its last heartbeat's, plus leases granted and minus jobs
   *     reported since
   * @param waitingLeaseCalls its Lease calls waiting for jobs now
   */
  public record WorkerView(
      String workerId,
      WorkerIdentity identity,
      Liveness liveness,
      int jobsHeld,
      Instant firstSeen,
      Instant lastSeen,
      int waitingLeaseCalls) {}

  private final Map<String, Entry> workers = new ConcurrentHashMap<>();

  /**
   * A Lease call began.
   *
   * @param identity what the worker sent about itself, or null
   * @param queue the queue it asks for
   * @param types the types it asks for
   */
  public void leaseStarted(
      String workerId,
      @Nullable WorkerIdentity identity,
      String queue,
      List<String> types,
      Instant now) {
    Entry e = entry(workerId, now);
    synchronized (e) {
      e.seen(identity, now);
      e.requestedQueues.add(queue);
      e.requestedTypes.addAll(types);
      e.waitingLeaseCalls++;
    }
  }

  /** A Lease call ended (answered, failed or cancelled) after granting {@code leased} leases. */
  public void leaseEnded(String workerId, int leased, Instant now) {
    Entry e = entry(workerId, now);
    synchronized (e) {
      e.seen(null, now);
      e.waitingLeaseCalls = Math.max(0, e.waitingLeaseCalls - 1);
      e.jobsHeld += leased;
    }
  }

  /** A Heartbeat was answered: the worker still holds {@code held} leases. */
  public void heartbeat(String workerId, @Nullable WorkerIdentity identity, int held, Instant now) {
    Entry e = entry(workerId, now);
    synchronized (e) {
      e.seen(identity, now);
      e.jobsHeld = held;
    }
  }

  /** The worker reported the outcome of {@code jobs} jobs (Complete, Fail, Release). */
  public void reported(String workerId, int jobs, Instant now) {
    Entry e = entry(workerId, now);
    synchronized (e) {
      e.seen(null, now);
      e.jobsHeld = Math.max(0, e.jobsHeld - jobs);
    }
  }

  /** Every worker not yet forgotten, ordered by id, as of {@code now}. */
  public List<WorkerView> list(Instant now) {
    List<WorkerView> views = new ArrayList<>();
    for (Map.Entry<String, Entry> w : workers.entrySet()) {
      Entry e = w.getValue();
      synchronized (e) {
        if (!e.dropped(now)) {
          views.add(e.view(w.getKey(), now));
        }
      }
    }
    views.sort(Comparator.comparing(WorkerView::workerId));
    return views;
  }

  /**
   * Forgets the workers silent for {@value #DROP_AFTER_INTERVALS} heartbeat intervals.
   *
   * @return how many were forgotten
   */
  public int runOnce(Instant now) {
    int dropped = 0;
    for (Map.Entry<String, Entry> w : workers.entrySet()) {
      Entry e = w.getValue();
      synchronized (e) {
        if (e.dropped(now) && workers.remove(w.getKey(), e)) {
          e.removed = true;
          dropped++;
        }
      }
    }
    return dropped;
  }

  private Entry entry(String workerId, Instant now) {
    while (true) {
      Entry e = workers.computeIfAbsent(workerId, id -> new Entry(now));
      synchronized (e) {
        if (!e.removed) {
          return e;
        }
      }
      // Forgotten between the lookup and the lock: look again, a new entry takes its place.
    }
  }

  private static final class Entry {
    private final Instant firstSeen;

    @GuardedBy("this")
    private final TreeSet<String> requestedQueues = new TreeSet<>();

    @GuardedBy("this")
    private final TreeSet<String> requestedTypes = new TreeSet<>();

    @GuardedBy("this")
    @Nullable
    private WorkerIdentity identity;

    @GuardedBy("this")
    private Instant lastSeen;

    @GuardedBy("this")
    private int jobsHeld;

    @GuardedBy("this")
    private int waitingLeaseCalls;

    @GuardedBy("this")
    private boolean removed;

    Entry(Instant now) {
      this.firstSeen = now;
      this.lastSeen = now;
    }

    @GuardedBy("this")
    void seen(@Nullable WorkerIdentity said, Instant now) {
      if (said != null) {
        identity = said;
      }
      if (now.isAfter(lastSeen)) {
        lastSeen = now;
      }
    }

    @GuardedBy("this")
    Duration interval() {
      Duration said = identity == null ? null : identity.heartbeatInterval();
      return said == null || said.isZero() || said.isNegative() ? DEFAULT_HEARTBEAT_INTERVAL : said;
    }

    @GuardedBy("this")
    boolean silentFor(int intervals, Instant now) {
      return waitingLeaseCalls == 0
          && Duration.between(lastSeen, now).compareTo(interval().multipliedBy(intervals)) > 0;
    }

    @GuardedBy("this")
    boolean dropped(Instant now) {
      return silentFor(DROP_AFTER_INTERVALS, now);
    }

    @GuardedBy("this")
    WorkerView view(String workerId, Instant now) {
      WorkerIdentity shown =
          identity != null
              ? identity
              : new WorkerIdentity(
                  "", "", List.copyOf(requestedQueues), List.copyOf(requestedTypes), 0, null);
      return new WorkerView(
          workerId,
          shown,
          silentFor(LOST_AFTER_INTERVALS, now) ? Liveness.LOST : Liveness.LIVE,
          jobsHeld,
          firstSeen,
          waitingLeaseCalls > 0 && now.isAfter(lastSeen) ? now : lastSeen,
          waitingLeaseCalls);
    }
  }
}
