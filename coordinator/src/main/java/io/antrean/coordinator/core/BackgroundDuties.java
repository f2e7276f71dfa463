package io.antrean.coordinator.core;

import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Drives the periodic duties on real time: a thread that fires lease timers as they come due, and
 * the backup sweep at a fixed interval. The duties themselves are plain {@code runOnce(now)}
 * classes, so tests call them directly with a fake clock instead of starting this.
 */
public final class BackgroundDuties implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(BackgroundDuties.class);
  private static final long MAX_TIMER_WAIT_MILLIS = 1000;

  private final LeaseExpiryDuty expiry;
  private final BackupSweep sweep;
  private final RetentionSweep retention;
  private final DeadLetterMonitor monitor;
  private final Clock clock;
  private final Thread timerThread;
  private final ScheduledFuture<?> sweepTask;
  private final ScheduledFuture<?> retentionTask;
  private volatile boolean running = true;

  /**
   * @param sweepInterval how often the backup sweep (and the dead-letter monitor's re-arm) runs
   * @param retentionInterval how often the retention sweep runs
   */
  public BackgroundDuties(
      LeaseExpiryDuty expiry,
      BackupSweep sweep,
      RetentionSweep retention,
      DeadLetterMonitor monitor,
      Clock clock,
      ScheduledExecutorService scheduler,
      Duration sweepInterval,
      Duration retentionInterval) {
    this.expiry = expiry;
    this.sweep = sweep;
    this.retention = retention;
    this.monitor = monitor;
    this.clock = clock;
    this.timerThread = new Thread(this::fireTimers, "antrean-lease-timers");
    timerThread.setDaemon(true);
    timerThread.start();
    long periodMillis = Math.max(1, sweepInterval.toMillis());
    this.sweepTask =
        scheduler.scheduleWithFixedDelay(
            this::sweepOnce, periodMillis, periodMillis, TimeUnit.MILLISECONDS);
    long retentionMillis = Math.max(1, retentionInterval.toMillis());
    this.retentionTask =
        scheduler.scheduleWithFixedDelay(
            this::retainOnce, retentionMillis, retentionMillis, TimeUnit.MILLISECONDS);
  }

  private void retainOnce() {
    try {
      retention.runOnce(clock.instant());
    } catch (RuntimeException e) {
      log.warn("retention sweep failed; it runs again in the next interval", e);
    }
  }

  private void fireTimers() {
    while (running) {
      try {
        expiry.runOnce(clock.instant());
        expiry.awaitNext(MAX_TIMER_WAIT_MILLIS, clock.instant());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      } catch (RuntimeException e) {
        log.error("lease timer step failed; the sweep remains as backup", e);
      }
    }
  }

  private void sweepOnce() {
    try {
      monitor.runOnce(clock.instant());
      int taken = sweep.runOnce(clock.instant());
      if (taken > 0) {
        log.info("backup sweep took back {} expired leases", taken);
      }
    } catch (RuntimeException e) {
      log.warn("backup sweep failed; it runs again in the next interval", e);
    }
  }

  @Override
  public void close() {
    running = false;
    sweepTask.cancel(false);
    retentionTask.cancel(false);
    timerThread.interrupt();
    try {
      timerThread.join(5000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
