package io.antrean.benchmarks;

import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.job.NewJob;
import io.antrean.coordinator.job.RetryPolicy;
import io.antrean.coordinator.store.Completion;
import io.antrean.coordinator.store.CompletionOutcome;
import io.antrean.coordinator.store.EnqueueResult;
import io.antrean.coordinator.store.JobStore;
import io.antrean.coordinator.store.LeaseClaim;
import io.antrean.coordinator.store.LeaseSpec;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * The calls the store benchmarks make, the same for every {@link JobStore}: producers' jobs of a
 * realistic size into one queue, one worker leasing and completing them. Times are read from the
 * system clock per call, as the coordinator does before it calls a store.
 *
 * <p>Stateless and thread-safe.
 */
public final class StoreWorkload {
  /** The one queue every store benchmark uses. */
  public static final String QUEUE = "bench";

  /** About a small JSON document, the size the store sizing notes in TOOLCHAIN.md assume. */
  public static final int PAYLOAD_BYTES = 100;

  /** The most jobs one enqueue call stores (the coordinator's default maxBatchSize). */
  public static final int MAX_BATCH = 1000;

  private static final String TYPE = "bench.noop";
  private static final String WORKER = "bench-worker";
  private static final Duration LEASE_TTL = Duration.ofMinutes(10);
  private static final byte[] PAYLOAD = payload();
  private static final byte[] RESULT = "{\"ok\":true}".getBytes(StandardCharsets.UTF_8);

  private StoreWorkload() {}

  /** Stores {@code count} new jobs in one call (one transaction). */
  public static List<EnqueueResult> enqueue(JobStore store, int count) {
    Instant now = Instant.now();
    List<NewJob> jobs = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      jobs.add(newJob(now));
    }
    return store.enqueue(jobs, now);
  }

  /**
   * Stores {@code count} pending jobs in batches of {@value #MAX_BATCH}, for a benchmark's setup.
   */
  public static void fill(JobStore store, int count) {
    for (int left = count; left > 0; left -= MAX_BATCH) {
      enqueue(store, Math.min(left, MAX_BATCH));
    }
  }

  /** Leases up to {@code maxJobs} ready jobs of {@link #QUEUE} for one worker. */
  public static List<Job> lease(JobStore store, int maxJobs) {
    Instant now = Instant.now();
    return store.lease(new LeaseSpec(WORKER, QUEUE, Set.of(), maxJobs, now.plus(LEASE_TTL)), now);
  }

  /** Completes the jobs one call after another, as one worker thread reporting its results. */
  public static void completeEach(JobStore store, List<Job> leased) {
    for (Job job : leased) {
      store.complete(
          job.id(), LeaseClaim.of(job), WORKER, RESULT, "application/json", Instant.now());
    }
  }

  /** Completes the jobs in one call, as a worker reporting a batch through CompleteBatch. */
  public static List<CompletionOutcome> completeAll(JobStore store, List<Job> leased) {
    List<Completion> completions = new ArrayList<>(leased.size());
    for (Job job : leased) {
      completions.add(new Completion(job.id(), LeaseClaim.of(job), RESULT, "application/json"));
    }
    return store.completeAll(WORKER, completions, Instant.now());
  }

  /** One job of the workload, not yet stored. */
  public static NewJob newJob(Instant now) {
    return new NewJob(
        QUEUE,
        TYPE,
        PAYLOAD,
        "application/json",
        0,
        now,
        null,
        null,
        RetryPolicy.DEFAULT,
        null,
        null,
        null);
  }

  private static byte[] payload() {
    byte[] bytes = new byte[PAYLOAD_BYTES];
    Arrays.fill(bytes, (byte) 'x');
    bytes[0] = '"';
    bytes[PAYLOAD_BYTES - 1] = '"';
    return bytes;
  }
}
