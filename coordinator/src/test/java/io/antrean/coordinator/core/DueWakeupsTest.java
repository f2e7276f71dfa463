package io.antrean.coordinator.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** When a delayed job's or a retry's wake-up runs, by the clock that leases read. */
class DueWakeupsTest {
  private static final Instant T0 = Instant.parse("2026-12-03T18:00:00Z");

  private final MutableClock clock = new MutableClock(T0);
  private final RecordingScheduler scheduler = new RecordingScheduler();
  private final List<String> woken = new ArrayList<>();
  private final DueWakeups wakeups = new DueWakeups(woken::add, scheduler, clock);

  @AfterEach
  void stopScheduler() {
    scheduler.shutdownNow();
  }

  @Test
  void aWakeupIsTimedToTheEndOfItsWindowToTheNanosecond() {
    clock.advance(Duration.ofNanos(400_000));
    wakeups.wakeAt("q", T0.plus(Duration.ofNanos(9_999_000)));

    // The window ends at T0 + 10 ms: 9.6 ms from now, not 9 (a delay cut to whole milliseconds
    // fired before the job was due, and the lease it caused found nothing).
    assertThat(scheduler.delaysNanos()).containsExactly(9_600_000L);
    assertThat(woken).isEmpty();
  }

  @Test
  void aTimerThatFiresBeforeTheClockReachesItsTimeWaitsTheRest() {
    wakeups.wakeAt("q", T0.plusMillis(5));
    clock.advance(Duration.ofNanos(9_500_000));

    scheduler.runNext();

    assertThat(woken).isEmpty();
    assertThat(scheduler.delaysNanos()).containsExactly(10_000_000L, 500_000L);

    clock.advance(Duration.ofNanos(500_000));
    scheduler.runNext();

    assertThat(woken).containsExactly("q");
  }

  @Test
  void wakeupsOfOneQueueInOneWindowShareATimerAndTheNextWindowGetsItsOwn() {
    wakeups.wakeAt("q", T0.plusMillis(1));
    wakeups.wakeAt("q", T0.plusMillis(9));
    wakeups.wakeAt("other", T0.plusMillis(9));
    wakeups.wakeAt("q", T0.plusMillis(10));

    assertThat(scheduler.delaysNanos()).containsExactly(10_000_000L, 10_000_000L, 20_000_000L);
  }

  @Test
  void aFarWakeupLooksAtTheClockAgainAfterTheLongestStep() {
    wakeups.wakeAt("q", T0.plus(Duration.ofDays(3)));
    assertThat(scheduler.delaysNanos()).containsExactly(DueWakeups.MAX_STEP.toNanos());

    clock.advance(DueWakeups.MAX_STEP);
    scheduler.runNext();

    assertThat(woken).isEmpty();
    assertThat(scheduler.delaysNanos()).hasSize(2);
  }

  @Test
  void aWakeupAlreadyDueRunsAtOnceWhenItsTimerFires() {
    clock.advance(Duration.ofSeconds(1));
    wakeups.wakeAt("q", T0);

    assertThat(scheduler.delaysNanos()).containsExactly(0L);
    scheduler.runNext();
    assertThat(woken).containsExactly("q");
  }

  /** Records each timer instead of running it; the test runs them, in order, by hand. */
  private static final class RecordingScheduler extends ScheduledThreadPoolExecutor {
    private final List<Runnable> tasks = new ArrayList<>();
    private final List<Long> delays = new ArrayList<>();
    private int next;

    RecordingScheduler() {
      super(1);
    }

    @Override
    public synchronized ScheduledFuture<?> schedule(Runnable task, long delay, TimeUnit unit) {
      tasks.add(task);
      delays.add(unit.toNanos(delay));
      return null;
    }

    synchronized List<Long> delaysNanos() {
      return List.copyOf(delays);
    }

    void runNext() {
      Runnable task;
      synchronized (this) {
        task = tasks.get(next++);
      }
      task.run();
    }
  }
}
