package io.antrean.worker.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.antrean.worker.CancellationReason;
import io.antrean.worker.testing.FakeTicker;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class LeasedJobContextTest {
  private static final Instant NOW = Instant.parse("2026-11-30T10:00:00Z");
  private final FakeTicker ticker = new FakeTicker();
  private final Clock clock = Clock.fixed(NOW, ZoneOffset.UTC);

  private LeasedJobContext context(long id, long token, int attempts, String key) {
    HeldLease lease =
        new HeldLease(Jobs.leased(id, token, attempts, key), ticker.nanos() + 30_000_000_000L);
    return new LeasedJobContext(lease, "w-1", clock, ticker, null);
  }

  @Test
  void idempotencyKeyIsTheSameOnEveryAttemptOfAJob() {
    LeasedJobContext first = context(42, 100, 1, "");
    LeasedJobContext retry = context(42, 171, 2, "");

    assertThat(first.idempotencyKey()).isEqualTo("antrean-job-42");
    assertThat(retry.idempotencyKey()).isEqualTo(first.idempotencyKey());
    assertThat(retry.fencingToken()).isNotEqualTo(first.fencingToken());
  }

  @Test
  void idempotencyKeyIsTheProducersKeyWhenThereIsOne() {
    assertThat(context(42, 100, 3, "order-7-receipt").idempotencyKey())
        .isEqualTo("order-7-receipt");
  }

  @Test
  void exposesTheJob() {
    LeasedJobContext ctx = context(42, 100, 2, "");

    assertThat(ctx.jobId()).isEqualTo(42);
    assertThat(ctx.queue()).isEqualTo("default");
    assertThat(ctx.type()).isEqualTo("t");
    assertThat(ctx.attempt()).isEqualTo(2);
    assertThat(ctx.workerId()).isEqualTo("w-1");
    assertThat(ctx.payloadUtf8()).isEqualTo("{\"x\":\"\u00e9\"}");
    assertThat(ctx.payload()).isEqualTo("{\"x\":\"\u00e9\"}".getBytes(StandardCharsets.UTF_8));
    assertThat(ctx.contentType()).isEqualTo("application/json");
    assertThat(ctx.resultContentType()).isEqualTo("application/json");
  }

  @Test
  void payloadIsACopy() {
    LeasedJobContext ctx = context(42, 100, 1, "");
    ctx.payload()[0] = 'X';

    assertThat(ctx.payloadUtf8()).startsWith("{");
  }

  @Test
  void leaseDeadlineFollowsTheTicker() {
    LeasedJobContext ctx = context(42, 100, 1, "");
    ticker.advance(Duration.ofSeconds(10));

    assertThat(ctx.leaseTimeRemaining()).isEqualTo(Duration.ofSeconds(20));
    assertThat(ctx.leaseDeadline()).isEqualTo(NOW.plusSeconds(20));
  }

  @Test
  void progressIsCutTo1KiB() {
    HeldLease lease = new HeldLease(Jobs.leased(1, 1), 0);
    LeasedJobContext ctx = new LeasedJobContext(lease, "w", clock, ticker, null);

    ctx.progress("page 1/3");
    assertThat(lease.progress()).isEqualTo("page 1/3");
    ctx.progress("x".repeat(5000));
    assertThat(lease.progress()).hasSize(1024);
  }

  @Test
  void cancellationIsVisibleAndObservable() {
    HeldLease lease = new HeldLease(Jobs.leased(1, 1), 0);
    LeasedJobContext ctx = new LeasedJobContext(lease, "w", clock, ticker, null);
    AtomicInteger callbacks = new AtomicInteger();
    ctx.onCancel(callbacks::incrementAndGet);
    assertThat(ctx.isCancelled()).isFalse();
    assertThat(ctx.cancellationReason()).isEmpty();

    lease.stop(CancellationReason.CANCEL_REQUESTED);

    assertThat(ctx.isCancelled()).isTrue();
    assertThat(ctx.cancellationReason()).contains(CancellationReason.CANCEL_REQUESTED);
    assertThat(callbacks).hasValue(1);
  }
}
