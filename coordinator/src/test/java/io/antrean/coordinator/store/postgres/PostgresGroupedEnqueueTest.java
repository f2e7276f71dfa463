package io.antrean.coordinator.store.postgres;

import static io.antrean.coordinator.store.TestJobs.T0;
import static io.antrean.coordinator.store.TestJobs.job;
import static org.assertj.core.api.Assertions.assertThat;

import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.job.JobState;
import io.antrean.coordinator.store.Concurrently;
import io.antrean.coordinator.store.EnqueueResult;
import io.antrean.coordinator.store.StoreFutures;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Unary Enqueues arriving at once on PostgreSQL are written in groups ({@link GroupedInserts}):
 * whichever group a job lands in, its call gets its own job back, stored once, created at its own
 * instant, and the other coordinators hear of its queue.
 */
@Timeout(60)
class PostgresGroupedEnqueueTest {
  @RegisterExtension static final TestPostgres postgres = new TestPostgres();
  private static final int THREADS = 32;
  private static final int PER_THREAD = 40;

  private PostgresJobStore store;

  @BeforeEach
  void open() {
    store = PostgresJobStore.open(postgres.freshSchema());
  }

  @AfterEach
  void close() {
    store.close();
  }

  @Test
  void concurrentUnaryEnqueuesEachGetTheirOwnJobStoredOnce() throws Exception {
    AtomicInteger next = new AtomicInteger();
    Map<Long, Integer> numberById = new ConcurrentHashMap<>();
    Concurrently.run(
        THREADS,
        () -> {
          for (int i = 0; i < PER_THREAD; i++) {
            int n = next.getAndIncrement();
            Instant now = T0.plusMillis(n);
            List<EnqueueResult> results =
                n % 2 == 0
                    ? store.enqueue(List.of(numbered(n)), now)
                    : StoreFutures.join(store.enqueueAsync(List.of(numbered(n)), now));
            assertThat(results).hasSize(1);
            Job stored = results.get(0).job();
            assertThat(results.get(0).deduplicated()).isFalse();
            assertThat(payloadNumber(stored)).isEqualTo(n);
            assertThat(stored.createdAt()).isEqualTo(now);
            assertThat(numberById.put(stored.id(), n))
                .as("id %d given twice", stored.id())
                .isNull();
          }
        });

    int total = THREADS * PER_THREAD;
    assertThat(numberById).hasSize(total);
    for (Map.Entry<Long, Integer> entry : numberById.entrySet()) {
      Job read = store.get(entry.getKey()).orElseThrow();
      assertThat(payloadNumber(read)).isEqualTo(entry.getValue());
      assertThat(read.createdAt()).isEqualTo(T0.plusMillis(entry.getValue()));
      assertThat(read.state()).isEqualTo(JobState.PENDING);
    }
    assertThat(store.stats("grouped", T0.plusSeconds(60)).get(0).pending()).isEqualTo(total);
  }

  private static io.antrean.coordinator.job.NewJob numbered(int n) {
    return job("t").queue("grouped").payload("{\"n\":" + n + "}").build();
  }

  private static int payloadNumber(Job job) {
    String json = new String(job.payload(), StandardCharsets.UTF_8);
    return Integer.parseInt(json.replaceAll("\\D", ""));
  }
}
