package io.antrean.coordinator.core;

import io.antrean.benchmarks.ForkedJvm;
import io.antrean.coordinator.job.ErrorKind;
import io.antrean.coordinator.job.Failure;
import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.job.JobState;
import io.antrean.coordinator.job.LeaseInfo;
import io.antrean.coordinator.job.RetryPolicy;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Planning the next run of a failed job ({@link JitteredBackoff#nextRunAt}): the capped exponential
 * ({@code Math.pow}) times a uniform random number, added to now. The random source is the one the
 * coordinator wires in, {@link ThreadLocalRandom}.
 *
 * <p>Why it matters: the stores call the planner inside the write that records the failure (for
 * SQLite, on the single writer thread, inside a group commit), so its cost is paid while every
 * other caller of that group waits. It must stay in the tens of nanoseconds.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsPrepend = ForkedJvm.QUIET_LOGS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 2)
@State(Scope.Benchmark)
public class JitteredBackoffBenchmark {
  private JitteredBackoff backoff;
  private Job runningJob;
  private Failure failure;
  private Instant now;

  /** A job on its third handler attempt under the default policy, failing retryably. */
  @Setup
  public void setUp() {
    backoff = new JitteredBackoff(() -> ThreadLocalRandom.current().nextDouble());
    now = Instant.now();
    runningJob =
        new Job(
            42,
            "default",
            "bench.noop",
            new byte[100],
            "application/json",
            0,
            now.minusSeconds(10),
            null,
            RetryPolicy.DEFAULT,
            3,
            0,
            0,
            JobState.RUNNING,
            null,
            null,
            "java.io.IOException: connection reset",
            now.minusSeconds(60),
            now.minusSeconds(10),
            null,
            new LeaseInfo("bench-worker", 3, now.plusSeconds(20), null),
            null,
            false,
            List.of(),
            0,
            null,
            null);
    failure = new Failure(ErrorKind.RETRYABLE, "java.io.IOException", "timeout", null, null);
  }

  @Benchmark
  public Optional<Instant> nextRunAtAfterRetryableFailure() {
    return backoff.nextRunAt(runningJob, failure, now);
  }
}
