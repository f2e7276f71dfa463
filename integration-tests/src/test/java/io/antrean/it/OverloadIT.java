package io.antrean.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import com.google.rpc.ErrorInfo;
import com.google.rpc.RetryInfo;
import io.antrean.proto.v1.EnqueueBatchRequest;
import io.antrean.proto.v1.EnqueueBatchResponse;
import io.antrean.proto.v1.EnqueueRequest;
import io.antrean.proto.v1.EnqueueResponse;
import io.antrean.proto.v1.GetJobRequest;
import io.antrean.proto.v1.GetStatsRequest;
import io.antrean.proto.v1.JobServiceGrpc;
import io.antrean.proto.v1.QueueStats;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.protobuf.StatusProto;
import io.grpc.stub.StreamObserver;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Overload (issue 11, defect 6): a flood of EnqueueBatch calls from several producers' connections
 * against a coordinator with a small heap (the cluster's -Xmx256m, {@value #CALLS_LIMIT} calls in
 * flight at most, the default bytes limit) is answered RESOURCE_EXHAUSTED for what it cannot take,
 * while the process stays up without an OutOfMemoryError, /healthz keeps answering (every probe 200
 * within 5 s, the median within 100 ms), and every job of every call answered OK is stored.
 * Bounded: a fixed number of calls, a fixed number in flight, a seeded choice of jobs to read back.
 */
@Timeout(240)
class OverloadIT {
  private static final int CALLS = 2_000;
  private static final int CLIENT_IN_FLIGHT = 600;

  /**
   * Producers' connections the calls are spread over, so that all 600 calls are open at once (one
   * connection holds 256 at most): more than the calls limit, which is what makes the refusals
   * certain. Over one connection, calls of 100 jobs of 2 KiB held about 1.6 times the default bytes
   * limit at most, and a coordinator that stored them as fast as they came refused none (seen once
   * in CI).
   *
   * <p>The calls are of 100 jobs of 512 bytes (about 55 KB each): four connections of calls of 100
   * jobs of 2 KiB (about 205 KB each) once exhausted this JVM's direct memory (the transport's
   * buffers, 256 MB) in a loaded full build, a limit of the defaults that docs/limits.md states,
   * not what this test checks.
   */
  private static final int CONNECTIONS = 4;

  /**
   * The coordinator's calls in flight at most: a fraction of the 600 open calls, so that refusals
   * are certain however fast the store is. At the default (512), a SQLite store that writes a
   * batch's rows in multi-row inserts kept up with the flood and refused none in a full build.
   */
  private static final int CALLS_LIMIT = 128;

  private static final int JOBS_PER_CALL = 100;
  private static final int PAYLOAD_BYTES = 512;
  private static final String QUEUE = "flood";
  private static final long HEALTH_LIMIT_MILLIS = 100;

  @RegisterExtension final Cluster cluster = new Cluster();
  @TempDir Path dir;

  @BeforeEach
  void setUp(TestInfo info) throws Exception {
    cluster.setUp(dir, info.getTestMethod().orElseThrow().getName());
  }

  /** The results of the flood, filled by the calls' callbacks. */
  private static final class Flood {
    final Set<Long> storedIds = ConcurrentHashMap.newKeySet();
    final AtomicInteger ok = new AtomicInteger();
    final AtomicInteger exhausted = new AtomicInteger();
    final Map<String, Integer> others = new ConcurrentHashMap<>();
    final AtomicInteger missingHint = new AtomicInteger();
  }

  @Test
  void aFloodOfBatchesIsPartlyRefusedWhileTheCoordinatorStaysUpAndKeepsWhatItAcknowledged()
      throws Exception {
    JvmProcess coordinator =
        cluster.startCoordinator("--max-in-flight-calls", String.valueOf(CALLS_LIMIT));
    HealthSampler health = new HealthSampler(cluster.httpBase());
    assertThat(health.sampleOnce()).as("warm-up probe").isEqualTo(200);
    Thread sampler = new Thread(health, "healthz-sampler");
    sampler.start();

    List<ManagedChannel> connections = new ArrayList<>();
    for (int i = 0; i < CONNECTIONS; i++) {
      connections.add(cluster.channel());
    }
    Flood flood = flood(connections);

    health.stop.set(true);
    sampler.join(10_000);
    List<Long> sorted = new ArrayList<>(health.millis);
    Collections.sort(sorted);
    System.out.printf(
        "OverloadIT: /healthz ms p50 %d p90 %d p99 %d, over %d ms: %d; slowest %s%n",
        sorted.get(sorted.size() / 2),
        sorted.get(sorted.size() * 9 / 10),
        sorted.get(sorted.size() * 99 / 100),
        HEALTH_LIMIT_MILLIS,
        sorted.stream().filter(m -> m >= HEALTH_LIMIT_MILLIS).count(),
        sorted.subList(Math.max(0, sorted.size() - 10), sorted.size()));
    System.out.printf(
        "OverloadIT: %d calls OK (%d jobs), %d RESOURCE_EXHAUSTED, others %s; /healthz %d samples,"
            + " max %d ms, failures %d%n",
        flood.ok.get(),
        flood.storedIds.size(),
        flood.exhausted.get(),
        flood.others,
        health.samples.get(),
        health.maxMillis.get(),
        health.failures.get());

    assertThat(coordinator.isAlive()).as("coordinator alive").isTrue();
    assertThat(coordinator.logText()).doesNotContain("OutOfMemoryError");
    assertThat(flood.others).as("calls answered neither OK nor RESOURCE_EXHAUSTED").isEmpty();
    assertThat(flood.exhausted.get()).as("refused calls").isPositive();
    assertThat(flood.missingHint.get()).as("refusals without OVERLOADED and RetryInfo").isZero();
    assertThat(flood.ok.get()).as("accepted calls").isPositive();
    assertThat(flood.ok.get() + flood.exhausted.get()).isEqualTo(CALLS);
    assertThat(health.failures.get()).as("/healthz probes that failed").isZero();
    assertThat(health.samples.get()).isGreaterThan(10);

    // Every acknowledged job is stored, and nothing of a refused call is.
    JobServiceGrpc.JobServiceBlockingStub jobs = cluster.jobs();
    QueueStats stats =
        jobs.getStats(GetStatsRequest.newBuilder().setQueue(QUEUE).build()).getQueues(0);
    assertThat(stats.getPending()).isEqualTo((long) flood.ok.get() * JOBS_PER_CALL);
    assertThat(flood.storedIds).hasSize(flood.ok.get() * JOBS_PER_CALL);
    List<Long> ids = new ArrayList<>(flood.storedIds);
    Random random = new Random(11);
    for (int i = 0; i < 200; i++) {
      long id = ids.get(random.nextInt(ids.size()));
      assertThat(jobs.getJob(GetJobRequest.newBuilder().setId(id).build()).getJob().getQueue())
          .isEqualTo(QUEUE);
    }
    // Every probe was answered 200 within its 5 s timeout (on main, stalled requests left it
    // unanswered for over 10 s). The slowest probe is printed, not asserted: on a machine shared by
    // other builds it measures how long the coordinator's threads wait for a CPU. The median must
    // still be under the limit.
    assertThat(sorted.get(sorted.size() / 2))
        .as("median /healthz in ms")
        .isLessThan(HEALTH_LIMIT_MILLIS);
  }

  private static Flood flood(List<ManagedChannel> connections) throws InterruptedException {
    EnqueueBatchRequest.Builder batch = EnqueueBatchRequest.newBuilder();
    ByteString payload = ByteString.copyFrom(new byte[PAYLOAD_BYTES]);
    for (int i = 0; i < JOBS_PER_CALL; i++) {
      batch.addJobs(
          EnqueueRequest.newBuilder().setType("flood.job").setQueue(QUEUE).setPayload(payload));
    }
    EnqueueBatchRequest request = batch.build();
    List<JobServiceGrpc.JobServiceStub> stubs = new ArrayList<>();
    for (ManagedChannel connection : connections) {
      stubs.add(JobServiceGrpc.newStub(connection));
    }
    Flood flood = new Flood();
    Semaphore inFlight = new Semaphore(CLIENT_IN_FLIGHT);
    CountDownLatch done = new CountDownLatch(CALLS);
    for (int i = 0; i < CALLS; i++) {
      inFlight.acquire();
      stubs
          .get(i % stubs.size())
          .withDeadlineAfter(120, TimeUnit.SECONDS)
          .enqueueBatch(
              request,
              new StreamObserver<>() {
                @Override
                public void onNext(EnqueueBatchResponse response) {
                  for (EnqueueResponse r : response.getResultsList()) {
                    flood.storedIds.add(r.getJob().getId());
                  }
                  flood.ok.incrementAndGet();
                }

                @Override
                public void onError(Throwable t) {
                  Status status = Status.fromThrowable(t);
                  if (status.getCode() == Status.Code.RESOURCE_EXHAUSTED) {
                    flood.exhausted.incrementAndGet();
                    if (!carriesOverloadHint(t)) {
                      flood.missingHint.incrementAndGet();
                    }
                  } else {
                    flood.others.merge(status.getCode().name(), 1, Integer::sum);
                  }
                  finish();
                }

                @Override
                public void onCompleted() {
                  finish();
                }

                private void finish() {
                  inFlight.release();
                  done.countDown();
                }
              });
    }
    assertThat(done.await(150, TimeUnit.SECONDS)).as("every call answered").isTrue();
    return flood;
  }

  private static boolean carriesOverloadHint(Throwable t) {
    com.google.rpc.Status status = StatusProto.fromThrowable(t);
    if (status == null) {
      return false;
    }
    boolean reason = false;
    boolean retry = false;
    for (com.google.protobuf.Any any : status.getDetailsList()) {
      try {
        if (any.is(ErrorInfo.class)) {
          reason = "OVERLOADED".equals(any.unpack(ErrorInfo.class).getReason());
        } else if (any.is(RetryInfo.class)) {
          retry = any.unpack(RetryInfo.class).hasRetryDelay();
        }
      } catch (com.google.protobuf.InvalidProtocolBufferException e) {
        return false;
      }
    }
    return reason && retry;
  }

  /** Asks /healthz every 50 ms until stopped; keeps the slowest answer and the failures. */
  private static final class HealthSampler implements Runnable {
    final AtomicBoolean stop = new AtomicBoolean();
    final AtomicLong maxMillis = new AtomicLong();
    final List<Long> millis = new CopyOnWriteArrayList<>();
    final AtomicInteger samples = new AtomicInteger();
    final AtomicInteger failures = new AtomicInteger();
    private final HttpClient http = HttpClient.newHttpClient();
    private final URI uri;

    HealthSampler(String base) {
      this.uri = URI.create(base + "/healthz");
    }

    int sampleOnce() throws Exception {
      return http.send(
              HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(5)).build(),
              HttpResponse.BodyHandlers.ofString())
          .statusCode();
    }

    @Override
    public void run() {
      while (!stop.get()) {
        long start = System.nanoTime();
        try {
          if (sampleOnce() != 200) {
            failures.incrementAndGet();
          }
        } catch (Exception e) {
          failures.incrementAndGet();
        }
        long took = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        maxMillis.accumulateAndGet(took, Math::max);
        millis.add(took);
        samples.incrementAndGet();
        try {
          TimeUnit.MILLISECONDS.sleep(50);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
      }
    }
  }
}
