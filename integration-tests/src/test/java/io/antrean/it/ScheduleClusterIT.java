package io.antrean.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import io.antrean.proto.v1.CreateScheduleRequest;
import io.antrean.proto.v1.EnqueueRequest;
import io.antrean.proto.v1.GetScheduleRequest;
import io.antrean.proto.v1.Job;
import io.antrean.proto.v1.ListJobsRequest;
import io.antrean.proto.v1.ListJobsResponse;
import io.antrean.proto.v1.MisfirePolicy;
import io.antrean.proto.v1.PauseScheduleRequest;
import io.antrean.proto.v1.Schedule;
import io.antrean.proto.v1.ScheduleDefinition;
import io.antrean.proto.v1.ScheduleServiceGrpc;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** A durable schedule on three coordinator processes sharing one PostgreSQL, through a kill -9. */
@Timeout(240)
class ScheduleClusterIT {
  private static final String QUEUE = "ticks";

  @RegisterExtension static final SharedPostgres POSTGRES = new SharedPostgres();
  @RegisterExtension final Cluster cluster = new Cluster();
  @TempDir Path dir;
  private SharedPostgres.Database db;

  @BeforeEach
  void setUp(TestInfo info) throws Exception {
    cluster.setUp(dir, info.getTestMethod().orElseThrow().getName());
    db = POSTGRES.newDatabase();
  }

  private Cluster.Peer coordinator(String name) throws Exception {
    return cluster.startPostgresPeer(name, db);
  }

  private ScheduleServiceGrpc.ScheduleServiceBlockingStub schedules(Cluster.Peer peer) {
    return ScheduleServiceGrpc.newBlockingStub(cluster.peerChannel(peer))
        .withDeadlineAfter(30, TimeUnit.SECONDS);
  }

  @Test
  void everySecondForThirtySecondsThroughAKillNineEnqueuesEachDueTimeExactlyOnce()
      throws Exception {
    Cluster.Peer a = coordinator("coordinator-a");
    Cluster.Peer b = coordinator("coordinator-b");
    Cluster.Peer c = coordinator("coordinator-c");
    Schedule created =
        schedules(a)
            .createSchedule(
                CreateScheduleRequest.newBuilder()
                    .setSchedule(
                        ScheduleDefinition.newBuilder()
                            .setName("every-second")
                            .setCron("* * * * * *")
                            .setMisfirePolicy(MisfirePolicy.MISFIRE_POLICY_RUN_ALL)
                            .setTemplate(
                                EnqueueRequest.newBuilder()
                                    .setQueue(QUEUE)
                                    .setType("tick")
                                    .setPayload(ByteString.copyFrom("{}", StandardCharsets.UTF_8))))
                    .build())
            .getSchedule();
    Instant first = instant(created.getNextFireAt());
    assertThat(created.getUpcomingCount()).isEqualTo(5);

    Awaitility.await("ten due times fired")
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(200))
        .until(() -> dueTimes(c).size() >= 10);
    b.process().kill9();
    System.out.printf("killed coordinator-b after %d fires%n", dueTimes(c).size());
    Awaitility.await("thirty due times fired")
        .atMost(Duration.ofSeconds(90))
        .pollInterval(Duration.ofMillis(200))
        .until(() -> dueTimes(c).size() >= 30);
    schedules(a).pauseSchedule(PauseScheduleRequest.newBuilder().setName("every-second").build());
    Schedule paused =
        schedules(c)
            .getSchedule(GetScheduleRequest.newBuilder().setName("every-second").build())
            .getSchedule();

    TreeMap<Instant, List<Long>> fired = dueTimes(a);
    Instant last = instant(paused.getLastFireAt());
    assertThat(fired.firstKey()).isEqualTo(first);
    assertThat(fired.lastKey()).isEqualTo(last);
    List<Instant> expected = new ArrayList<>();
    for (Instant t = first; !t.isAfter(last); t = t.plusSeconds(1)) {
      expected.add(t);
    }
    assertThat(fired.keySet())
        .as("one job per whole second, no gap")
        .containsExactlyElementsOf(expected);
    fired.forEach((due, ids) -> assertThat(ids).as("jobs for the due time %s", due).hasSize(1));
    assertThat(paused.getFires()).isEqualTo(expected.size());
    assertThat(paused.getMisses()).isZero();
  }

  /** Every job of the queue by its due time (its run time), read from the jobs themselves. */
  private TreeMap<Instant, List<Long>> dueTimes(Cluster.Peer peer) {
    TreeMap<Instant, List<Long>> byDue = new TreeMap<>();
    String page = "";
    do {
      ListJobsResponse response =
          cluster
              .jobs(peer)
              .listJobs(
                  ListJobsRequest.newBuilder()
                      .setQueue(QUEUE)
                      .setPageSize(1000)
                      .setPageToken(page)
                      .build());
      for (Job job : response.getJobsList()) {
        Instant due = instant(job.getRunAt());
        assertThat(job.getIdempotencyKey()).isEqualTo("schedule:every-second:" + due);
        byDue.computeIfAbsent(due, k -> new ArrayList<>()).add(job.getId());
      }
      page = response.getNextPageToken();
    } while (!page.isEmpty());
    return byDue;
  }

  private static Instant instant(com.google.protobuf.Timestamp t) {
    return Instant.ofEpochSecond(t.getSeconds(), t.getNanos());
  }
}
