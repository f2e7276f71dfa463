package io.antrean.coordinator.core;

import io.antrean.benchmarks.ForkedJvm;
import io.antrean.coordinator.job.NewJob;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
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
 * Validating one producer command into a storable job ({@link EnqueueValidator#toNewJob}): the name
 * rules (two regular expressions), the declared-type check, the size limits, the run time and the
 * retry policy looked up by type and queue and merged with the producer's overrides.
 *
 * <p>Why it matters: every Enqueue, and every job of an EnqueueBatch, pays this on the request
 * thread before the store is asked. It should stay a small fraction of a store write (tens of
 * microseconds with group commit); a regression here, say a pattern compiled per call or a policy
 * lookup that grew linear, would tax every job that enters the system.
 *
 * <p>Two commands: a plain one (defaults everywhere) and one that uses every optional field (an
 * idempotency key, a delay, a retry override), against a coordinator configured with declared types
 * and per-type and per-queue retry policies.
 *
 * <p>Lives in the validator's package because the validator is package-private.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsPrepend = ForkedJvm.QUIET_LOGS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 2)
@State(Scope.Benchmark)
public class EnqueueValidatorBenchmark {
  private static final int DECLARED_TYPES = 20;

  // Not final, so the JIT cannot fold the inputs into constants.
  private EnqueueValidator validator;
  private EnqueueCommand plain;
  private EnqueueCommand everyField;
  private Instant now;

  /** A validator configured like a coordinator with a job-types file. */
  @Setup
  public void setUp() {
    Set<String> types = new HashSet<>();
    Map<String, RetryOverride> byType = new HashMap<>();
    for (int i = 0; i < DECLARED_TYPES; i++) {
      types.add("billing.invoice-" + i);
      if (i % 2 == 0) {
        byType.put(
            "billing.invoice-" + i,
            new RetryOverride(8, Duration.ofSeconds(2), 2.0, Duration.ofMinutes(10), 3));
      }
    }
    Map<String, RetryOverride> byQueue =
        Map.of(
            "billing", new RetryOverride(3, Duration.ofMillis(500), 3.0, Duration.ofMinutes(1), 2));
    validator = new EnqueueValidator(Settings.defaults().withJobTypes(types, byType, byQueue));
    byte[] payload = new byte[100];
    plain = EnqueueCommand.of("billing", "billing.invoice-7", payload);
    everyField =
        new EnqueueCommand(
            "billing",
            "billing.invoice-4",
            payload,
            "application/json",
            5,
            null,
            Duration.ofSeconds(30),
            "invoice-2026-000123",
            new RetryOverride(4, Duration.ofSeconds(1), null, Duration.ofMinutes(5), null),
            "");
    now = Instant.now();
  }

  @Benchmark
  public NewJob plainCommand() {
    return validator.toNewJob(plain, now);
  }

  @Benchmark
  public NewJob commandWithEveryField() {
    return validator.toNewJob(everyField, now);
  }
}
