package io.antrean.coordinator.grpc;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class ThrottledWarningTest {
  private final AtomicLong nanos = new AtomicLong(1_000);
  private final List<String> lines = new ArrayList<>();
  private final ThrottledWarning warning =
      new ThrottledWarning("bad things", Duration.ofMinutes(1), nanos::get, lines::add);

  @Test
  void theFirstOccurrenceIsReportedAtOnceAndTheRestOncePerIntervalWithTheirCount() {
    for (int i = 0; i < 10_000; i++) {
      warning.record("thing " + i);
    }
    assertThat(lines)
        .containsExactly(
            "1 bad things since the last report (1 in all); reported at most once per 60 s; latest:"
                + " thing 0");
    nanos.addAndGet(Duration.ofSeconds(59).toNanos());
    warning.record("late");
    assertThat(lines).hasSize(1);
    nanos.addAndGet(Duration.ofSeconds(1).toNanos());
    warning.record("due");
    assertThat(lines).hasSize(2);
    assertThat(lines.get(1))
        .startsWith("10001 bad things since the last report (10002 in all)")
        .endsWith("latest: due");
    assertThat(warning.total()).isEqualTo(10_002);
  }

  @Test
  void quietIntervalsReportNothing() {
    warning.record("one");
    nanos.addAndGet(Duration.ofHours(5).toNanos());
    assertThat(lines).hasSize(1);
    warning.record("two");
    assertThat(lines).hasSize(2);
    assertThat(lines.get(1)).startsWith("1 bad things since the last report (2 in all)");
  }
}
