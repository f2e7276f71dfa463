package io.antrean.coordinator.store.postgres;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends {@code NOTIFY antrean_jobs_ready, '<queue>'} for changes that have committed, from one
 * daemon thread, in transactions of its own (or, when no other coordinator listens, hands the
 * queues to this process's own subscribers: the {@link Sender} decides).
 *
 * <p>Why not inside the change's own transaction: PostgreSQL serializes the commits of every
 * transaction that has notified (it holds a database-wide lock from before the commit record is
 * written until after it is flushed, to keep the notification queue in commit order), so concurrent
 * Enqueues that each notified could not share a WAL flush: 50 concurrent inserts that notified
 * committed about a quarter as fast as the same inserts without (measured with pgbench on
 * PostgreSQL 15). Here the changes commit without notifying and share flushes; the queues they made
 * ready are gathered while a send is under way and go out together in the next one, committed
 * without waiting for the disk (a notification is a hint, not a record).
 *
 * <p>A notification is therefore sent a moment after its change committed, never before, and never
 * for a change that rolled back. One that is lost (the sender fails, or the process dies between
 * the commit and the send) costs the other coordinators' waiting workers at most one backup sweep,
 * as a dropped listener connection does. This process's own waiting calls are woken in-process and
 * do not wait for it. Thread-safe.
 */
final class JobsReadyAnnouncer implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(JobsReadyAnnouncer.class);
  private static final long CLOSE_WAIT_MILLIS = TimeUnit.SECONDS.toMillis(5);

  /** Sends one round of notifications; the queues are distinct. */
  interface Sender {
    void send(List<String> queues);
  }

  private final Sender sender;
  private final Thread thread;
  private final LinkedHashSet<String> pending = new LinkedHashSet<>();
  private boolean closed;
  // Only the announcer's thread uses it.
  private final OutageLog outages =
      new OutageLog(
          log, "announcing ready jobs to other coordinators", "their backup sweep will find them");

  JobsReadyAnnouncer(Sender sender) {
    this.sender = sender;
    this.thread = new Thread(this::run, "antrean-postgres-jobs-announcer");
    thread.setDaemon(true);
    thread.start();
  }

  /** Queues whose jobs a committed change may have made ready; returns at once. */
  void announce(Collection<String> queues) {
    if (queues.isEmpty()) {
      return;
    }
    synchronized (this) {
      if (closed) {
        return;
      }
      boolean idle = pending.isEmpty();
      pending.addAll(queues);
      if (idle) {
        // The thread waits only while nothing is pending.
        notifyAll();
      }
    }
  }

  private void run() {
    List<String> round;
    while ((round = nextRound()) != null) {
      try {
        sender.send(round);
        outages.worked();
      } catch (RuntimeException e) {
        // The backup sweep wakes what was not announced.
        outages.failed(e);
      }
    }
    log.debug("announcer of ready jobs stopped");
  }

  /** The queues gathered since the last round; null once closed with nothing left to send. */
  private synchronized List<String> nextRound() {
    while (pending.isEmpty() && !closed) {
      try {
        wait();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return null;
      }
    }
    if (pending.isEmpty()) {
      return null;
    }
    List<String> round = new ArrayList<>(pending);
    pending.clear();
    return round;
  }

  /**
   * Sends what is pending, then stops the thread (waiting a few seconds at most). Later
   * announcements are dropped. Idempotent.
   */
  @Override
  public void close() {
    synchronized (this) {
      closed = true;
      notifyAll();
    }
    try {
      thread.join(CLOSE_WAIT_MILLIS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
