package io.antrean.coordinator.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.antrean.coordinator.job.ErrorKind;
import io.antrean.coordinator.job.Failure;
import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.job.RetryPolicy;
import io.antrean.coordinator.job.TestJobRecords;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class JitteredBackoffTest {
  private static final Instant NOW = Instant.parse("2026-11-30T10:00:00Z");
  private static final RetryPolicy POLICY =
      new RetryPolicy(4, Duration.ofSeconds(1), 2.0, Duration.ofSeconds(30), 3);

  @Test
  void thousandDelaysForOneAttemptSpreadOverTheWholeRange() {
    JitteredBackoff backoff = new JitteredBackoff(new Random(42)::nextDouble);
    long capMillis = 4000; // third failed attempt: 1 s * 2^2
    int[] buckets = new int[10];
    long min = Long.MAX_VALUE;
    long max = 0;
    for (int i = 0; i < 1000; i++) {
      long ms = backoff.delay(POLICY, 3).toMillis();
      assertThat(ms).isBetween(0L, capMillis);
      buckets[(int) Math.min(9, ms * 10 / capMillis)]++;
      min = Math.min(min, ms);
      max = Math.max(max, ms);
    }
    assertThat(min).isLessThan(capMillis / 20);
    assertThat(max).isGreaterThan(capMillis * 19 / 20);
    for (int count : buckets) {
      assertThat(count).as("every tenth of the range is used").isBetween(50, 150);
    }
  }

  @Test
  void capGrowsExponentiallyAndStopsAtMaxBackoff() {
    assertThat(JitteredBackoff.cap(POLICY, 1)).isEqualTo(1e9);
    assertThat(JitteredBackoff.cap(POLICY, 2)).isEqualTo(2e9);
    assertThat(JitteredBackoff.cap(POLICY, 5)).isEqualTo(16e9);
    assertThat(JitteredBackoff.cap(POLICY, 6)).isEqualTo(30e9);
    assertThat(JitteredBackoff.cap(POLICY, 60)).isEqualTo(30e9);
  }

  @Test
  void retryableFailureWithAttemptsLeftRunsAgainWithinTheCap() {
    JitteredBackoff backoff = new JitteredBackoff(() -> 0.5);
    assertThat(backoff.nextRunAt(job(2, 0), retryable(null), NOW))
        .contains(NOW.plusSeconds(1)); // half of the 2 s cap after the second attempt
  }

  @Test
  void retryAfterWinsOverTheComputedDelay() {
    JitteredBackoff backoff = new JitteredBackoff(() -> 0.5);
    assertThat(backoff.nextRunAt(job(1, 0), retryable(Duration.ofSeconds(90)), NOW))
        .contains(NOW.plusSeconds(90));
  }

  @Test
  void permanentFailureIsDeadLettered() {
    JitteredBackoff backoff = new JitteredBackoff(() -> 0.5);
    Failure permanent = new Failure(ErrorKind.PERMANENT, "E", "bad payload", null, null);
    assertThat(backoff.nextRunAt(job(1, 0), permanent, NOW)).isEmpty();
  }

  @Test
  void lastHandlerAttemptIsDeadLettered() {
    JitteredBackoff backoff = new JitteredBackoff(() -> 0.5);
    assertThat(backoff.nextRunAt(job(4, 0), retryable(null), NOW)).isEmpty();
  }

  @Test
  void leaseExpiriesDoNotEatTheHandlerBudget() {
    JitteredBackoff backoff = new JitteredBackoff(() -> 0.5);
    // five leases, two of which expired: three handler attempts of four
    assertThat(backoff.nextRunAt(job(5, 2), retryable(null), NOW)).isPresent();
  }

  @Test
  void anyStoredPolicySaturatesAtOneYearInsteadOfOverflowing() {
    JitteredBackoff backoff = new JitteredBackoff(() -> 0.5);
    Duration huge = Duration.ofSeconds(10_000_000_000L); // 1e19 ns: toNanos() overflows
    Instant halfYear = NOW.plus(Duration.ofDays(365).dividedBy(2));
    for (RetryPolicy p :
        List.of(
            new RetryPolicy(5, huge, 2.0, huge, 3),
            new RetryPolicy(5, Duration.ofSeconds(1), 1e308, huge, 3),
            new RetryPolicy(5, Duration.ZERO, Double.POSITIVE_INFINITY, huge, 3),
            new RetryPolicy(5, Duration.ofSeconds(Long.MAX_VALUE), 2.0, huge, 3))) {
      assertThat(backoff.nextRunAt(job(p, 3, 0), retryable(null), NOW))
          .as("%s", p)
          .hasValueSatisfying(at -> assertThat(at).isBetween(NOW, halfYear));
    }
    assertThat(backoff.nextRunAt(job(POLICY, 1, 0), retryable(Duration.ofDays(100_000)), NOW))
        .contains(NOW.plus(Duration.ofDays(365)));
  }

  private static Failure retryable(Duration retryAfter) {
    return new Failure(ErrorKind.RETRYABLE, "java.io.IOException", "reset", null, retryAfter);
  }

  private static Job job(int attempts, int leaseExpiries) {
    return job(POLICY, attempts, leaseExpiries);
  }

  private static Job job(RetryPolicy policy, int attempts, int leaseExpiries) {
    return TestJobRecords.job(1, NOW).retryPolicy(policy).attempts(attempts, leaseExpiries).build();
  }
}
