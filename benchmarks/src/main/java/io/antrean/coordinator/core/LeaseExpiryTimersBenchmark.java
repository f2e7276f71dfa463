package io.antrean.coordinator.core;

import io.antrean.benchmarks.ForkedJvm;
import io.antrean.coordinator.store.LeaseRef;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The lease expiry timers at steady state: each operation grants one lease ({@link
 * LeaseExpiryTimers#track(LeaseRef, Instant)}) and lets the clock move on so that exactly one older
 * lease falls due ({@link LeaseExpiryTimers#takeDue}), so {@value #DEFAULT_LEASES} leases stay live
 * throughout. Time is a counter, not the wall clock.
 *
 * <p>Why it matters: every leased job passes through {@code track} on the Lease call's thread, and
 * the expiry thread calls {@code takeDue} under the same lock, so the cost of the heap and the maps
 * behind that lock bounds how fast leases can be granted. It should stay well under a microsecond
 * and grow only with the logarithm of the leases held.
 *
 * <p>Lives in the timers' package because they are package-private.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsPrepend = ForkedJvm.QUIET_LOGS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 2)
@State(Scope.Benchmark)
public class LeaseExpiryTimersBenchmark {
  static final int DEFAULT_LEASES = 10_000;
  private static final long STEP_MICROS = 1_000;

  /** Leases held at steady state. */
  @Param({"10000"})
  public int leases;

  private LeaseExpiryTimers timers;
  private Instant start;
  private long tick;
  private long nextJobId;

  /** {@code leases} live leases, expiring one per tick from the next tick on. */
  @Setup
  public void setUp() {
    timers = new LeaseExpiryTimers();
    start = Instant.now();
    for (int i = 1; i <= leases; i++) {
      timers.track(new LeaseRef(i, 1, at(i)), start);
    }
    tick = 0;
    nextJobId = leases + 1L;
  }

  @Benchmark
  public List<LeaseRef> trackOneAndTakeOneDue() {
    tick++;
    Instant now = at(tick);
    timers.track(new LeaseRef(nextJobId++, 1, at(tick + leases)), now);
    return timers.takeDue(now);
  }

  private Instant at(long ticks) {
    return start.plusNanos(ticks * STEP_MICROS * 1_000);
  }
}
