package io.antrean.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.util.Timestamps;
import io.antrean.proto.v1.Attempt;
import io.antrean.proto.v1.Dependency;
import io.antrean.proto.v1.DependencyFailure;
import io.antrean.proto.v1.EnqueueRequest;
import io.antrean.proto.v1.Job;
import io.antrean.proto.v1.JobState;
import io.antrean.proto.v1.ListDependenciesRequest;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Fan-out and fan-in across two coordinator processes on one PostgreSQL and two worker processes:
 * parts enqueued through one coordinator, the jobs that wait for them through the other; each
 * waiting job runs once, after all its parts, and reads their results. A part that fails
 * dead-letters its dependent, and that cancels the dependent's own dependent.
 */
@Timeout(300)
class DependenciesIT {
  private static final Duration WAIT = Duration.ofSeconds(120);
  private static final int PARTS = 12;
  private static final int PER_MERGE = 4;

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

  private static EnqueueRequest part(String type, String json) {
    return Jobs.request(type, json).toBuilder().setQueue("parts").build();
  }

  @Test
  void waitingJobsRunOnceAfterTheirPartsAndAFailedPartDeadLettersItsDependent() throws Exception {
    Cluster.Peer a = coordinator("coordinator-a");
    Cluster.Peer b = coordinator("coordinator-b");
    String both = a.target() + "," + b.target();
    for (String queue : List.of("parts", "merges")) {
      cluster.startWorkerOn(both, "worker-" + queue, "--queue", queue, "--concurrency", "8");
    }

    List<Long> parts = new ArrayList<>();
    for (int i = 0; i < PARTS; i++) {
      parts.add(
          cluster
              .jobs(a)
              .enqueue(part("report.build", "{\"pages\":2,\"msPerPage\":" + (20 + 10 * i) + "}"))
              .getJob()
              .getId());
    }
    List<Long> merges = new ArrayList<>();
    for (int m = 0; m < PARTS / PER_MERGE; m++) {
      Job merge =
          cluster
              .jobs(b)
              .enqueue(
                  Jobs.request("bench.noop", "{}").toBuilder()
                      .setQueue("merges")
                      .addAllDependsOn(parts.subList(m * PER_MERGE, (m + 1) * PER_MERGE))
                      .build())
              .getJob();
      merges.add(merge.getId());
    }
    long bad = cluster.jobs(a).enqueue(part("email.send", "{\"subject\":\"x\"}")).getJob().getId();
    long deadLettered =
        cluster
            .jobs(b)
            .enqueue(
                Jobs.request("bench.noop", "{}").toBuilder()
                    .setQueue("merges")
                    .addDependsOn(parts.get(0))
                    .addDependsOn(bad)
                    .setOnDependencyFailure(DependencyFailure.DEPENDENCY_FAILURE_DEAD_LETTER)
                    .build())
            .getJob()
            .getId();
    long cancelled =
        cluster
            .jobs(a)
            .enqueue(
                Jobs.request("bench.noop", "{}").toBuilder()
                    .setQueue("merges")
                    .addDependsOn(deadLettered)
                    .build())
            .getJob()
            .getId();

    for (int m = 0; m < merges.size(); m++) {
      List<Long> itsParts = parts.subList(m * PER_MERGE, (m + 1) * PER_MERGE);
      Job merge =
          Jobs.awaitState(cluster.jobs(a), merges.get(m), JobState.JOB_STATE_SUCCEEDED, WAIT);
      assertThat(merge.getHistoryList())
          .as("merge %d ran once", merge.getId())
          .singleElement()
          .satisfies(
              run -> {
                long started = Timestamps.toMicros(run.getLeasedAt());
                for (long partId : itsParts) {
                  Job partJob = Jobs.get(cluster.jobs(b), partId);
                  assertThat(started)
                      .as("merge %d started after part %d finished", merge.getId(), partId)
                      .isGreaterThanOrEqualTo(Timestamps.toMicros(partJob.getFinishedAt()));
                }
              });
      List<Dependency> read =
          cluster
              .jobs(b)
              .listDependencies(ListDependenciesRequest.newBuilder().setId(merge.getId()).build())
              .getDependenciesList();
      assertThat(read).extracting(Dependency::getId).containsExactlyElementsOf(itsParts);
      assertThat(read)
          .allSatisfy(
              d -> {
                assertThat(d.getState()).isEqualTo(JobState.JOB_STATE_SUCCEEDED);
                assertThat(d.getResult().toStringUtf8()).isEqualTo("{\"pages\":2}");
              });
    }

    Jobs.awaitState(cluster.jobs(a), bad, JobState.JOB_STATE_FAILED, WAIT);
    Job dead = Jobs.awaitState(cluster.jobs(b), deadLettered, JobState.JOB_STATE_FAILED, WAIT);
    assertThat(dead.getLastError()).isEqualTo("DEPENDENCY_FAILED: job " + bad + " ended FAILED");
    assertThat(dead.getHistoryList()).extracting(Attempt::getWorkerId).isEmpty();
    assertThat(
            Jobs.awaitState(cluster.jobs(a), cancelled, JobState.JOB_STATE_CANCELLED, WAIT)
                .getAttempts())
        .isZero();
  }
}
