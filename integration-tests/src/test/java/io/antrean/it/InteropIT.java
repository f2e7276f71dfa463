package io.antrean.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import io.antrean.client.AntreanClient;
import io.antrean.client.GrpcAntreanClient;
import io.antrean.it.ScriptProcesses.Script;
import io.antrean.proto.v1.Attempt;
import io.antrean.proto.v1.AttemptOutcome;
import io.antrean.proto.v1.CompleteRequest;
import io.antrean.proto.v1.ErrorKind;
import io.antrean.proto.v1.Job;
import io.antrean.proto.v1.JobServiceGrpc;
import io.antrean.proto.v1.JobState;
import io.antrean.proto.v1.LeaseRequest;
import io.antrean.proto.v1.WorkerServiceGrpc;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The protocol spoken by other languages: the Python and Node examples of {@code examples/} against
 * a real coordinator and real Java workers, each as its own process. Skipped (not passed) where
 * Debian's python3-grpcio or the Node example's dependencies are not installed.
 */
@Timeout(180)
class InteropIT {
  private static final Duration EXIT = Duration.ofSeconds(60);
  private static final Pattern ENQUEUED = Pattern.compile("enqueued job (\\d+)");

  @RegisterExtension final Cluster cluster = new Cluster();
  @RegisterExtension final ScriptProcesses scripts = new ScriptProcesses();
  @TempDir Path dir;

  @BeforeEach
  void setUp(TestInfo info) throws Exception {
    String name = info.getTestMethod().orElseThrow().getName();
    cluster.setUp(dir, name);
    scripts.setUp(name);
  }

  @Test
  void aPythonProducersJobIsRunByAJavaWorker() throws Exception {
    ScriptProcesses.assumePython();
    cluster.startCoordinator();
    cluster.startWorker("java-worker");

    Script producer =
        scripts.python(
            "py-producer",
            "producer.py",
            "--target",
            cluster.target(),
            "--type",
            "email.send",
            "--payload",
            "{\"to\":\"ada@example.com\"}",
            "--wait");
    assertThat(producer.awaitExit(EXIT)).as(producer.logText()).isZero();

    long id = enqueuedId(producer);
    assertThat(producer.logText()).contains("job " + id + " ended JOB_STATE_SUCCEEDED");
    Job job = Jobs.get(cluster.jobs(), id);
    assertThat(job.getState()).isEqualTo(JobState.JOB_STATE_SUCCEEDED);
    assertThat(job.getIdempotencyKey()).as("the producer keys every job").isNotEmpty();

    Script rejected =
        scripts.python(
            "py-producer-rejected", "producer.py", "--target", cluster.target(), "--type", "");
    assertThat(rejected.awaitExit(EXIT)).as(rejected.logText()).isEqualTo(2);
    assertThat(rejected.logText())
        .as("the BadRequest field violation, decoded from grpc-status-details-bin")
        .contains("enqueue failed: INVALID_ARGUMENT")
        .contains("\n  type: job type is required");
    assertThat(job.getHistoryList())
        .extracting(a -> a.getWorkerId() + ":" + a.getOutcome())
        .containsExactly("java-worker:" + AttemptOutcome.ATTEMPT_OUTCOME_SUCCEEDED);
  }

  @Test
  void aJavaProducersJobsAreRunByAPythonWorkerWhoseErrorPathDeadLettersABadOne() throws Exception {
    ScriptProcesses.assumePython();
    cluster.startCoordinator();
    long good;
    long bad;
    try (AntreanClient client = GrpcAntreanClient.forTarget(cluster.target()).build()) {
      good = client.enqueue("email.send", "{\"to\":\"ada@example.com\"}").getJob().getId();
      bad = client.enqueue("email.send", "{\"subject\":\"no recipient\"}").getJob().getId();
    }

    Script worker =
        scripts.python(
            "py-worker",
            "worker.py",
            "--target",
            cluster.target(),
            "--worker-id",
            "py-worker",
            "--lease-ttl",
            "3",
            "--shutdown-grace",
            "1");
    JobServiceGrpc.JobServiceBlockingStub jobs = cluster.jobs();
    Job done = Jobs.awaitState(jobs, good, JobState.JOB_STATE_SUCCEEDED, Duration.ofSeconds(60));
    assertThat(done.getResult().toStringUtf8()).contains("messageId");
    assertThat(done.getHistory(0).getWorkerId()).isEqualTo("py-worker");

    Job dead = Jobs.awaitState(jobs, bad, JobState.JOB_STATE_FAILED, Duration.ofSeconds(60));
    assertThat(dead.getAttempts()).as("a permanent error is not retried").isEqualTo(1);
    Attempt failed = dead.getHistory(dead.getHistoryCount() - 1);
    assertThat(failed.getOutcome()).isEqualTo(AttemptOutcome.ATTEMPT_OUTCOME_FAILED_PERMANENT);
    assertThat(failed.getErrorKind()).isEqualTo(ErrorKind.ERROR_KIND_PERMANENT);
    assertThat(failed.getErrorType()).isEqualTo("ValueError");
    assertThat(failed.getErrorMessage()).contains("\"to\"");
    assertThat(failed.getStackTrace()).contains("Traceback");
    worker.awaitLog("job " + bad + " failed (ValueError): now dead-lettered", EXIT);

    // SIGTERM while a long job runs: the worker releases it (no handler attempt spent).
    long slow = Jobs.enqueue(jobs, "sleep", "{\"ms\":120000}");
    Jobs.awaitProgress(jobs, slow, Duration.ofSeconds(30));
    worker.signal("TERM");
    assertThat(worker.awaitExit(EXIT)).isZero();
    Job released = Jobs.get(jobs, slow);
    assertThat(released.getState()).isEqualTo(JobState.JOB_STATE_PENDING);
    assertThat(released.getAttempts()).as("attempts counts the lease taken").isEqualTo(1);
    assertThat(released.getHistoryList())
        .extracting(Attempt::getOutcome)
        .containsExactly(AttemptOutcome.ATTEMPT_OUTCOME_RELEASED);
  }

  @Test
  void aNodeWorkerTakesOverTheJobOfAJavaWorkerKilledWithKill9() throws Exception {
    ScriptProcesses.assumeNode();
    cluster.startCoordinator();
    JvmProcess javaWorker = cluster.startWorker("java-worker", "--lease-ttl", "2s");
    JobServiceGrpc.JobServiceBlockingStub jobs = cluster.jobs();
    long id = Jobs.enqueue(jobs, "sleep", "{\"ms\":4000}");
    Jobs.awaitState(jobs, id, JobState.JOB_STATE_RUNNING, Duration.ofSeconds(60));

    javaWorker.kill9();
    Script node =
        scripts.node(
            "node-worker",
            "worker.js",
            "--target",
            cluster.target(),
            "--worker-id",
            "node-worker",
            // Long enough that its own lease never expires on a busy machine (see the history).
            "--lease-ttl",
            "30",
            "--shutdown-grace",
            "1");

    Job done = Jobs.awaitState(jobs, id, JobState.JOB_STATE_SUCCEEDED, Duration.ofSeconds(60));
    assertThat(done.getResult().toStringUtf8()).isEqualTo("{\"sleptMs\":4000}");
    assertThat(done.getHistoryList())
        .extracting(a -> a.getWorkerId() + ":" + a.getOutcome())
        .containsExactly(
            "java-worker:" + AttemptOutcome.ATTEMPT_OUTCOME_LEASE_EXPIRED,
            "node-worker:" + AttemptOutcome.ATTEMPT_OUTCOME_SUCCEEDED);
    node.awaitLog("job " + id + " completed", EXIT);

    // SIGTERM while a long job runs: the worker releases it (no handler attempt spent).
    long slow = Jobs.enqueue(jobs, "sleep", "{\"ms\":120000}");
    Jobs.awaitProgress(jobs, slow, Duration.ofSeconds(30));
    node.signal("TERM");
    assertThat(node.awaitExit(EXIT)).isZero();
    Job released = Jobs.get(jobs, slow);
    assertThat(released.getState()).isEqualTo(JobState.JOB_STATE_PENDING);
    assertThat(released.getAttempts()).as("attempts counts the lease taken").isEqualTo(1);
    assertThat(released.getHistoryList())
        .extracting(a -> a.getWorkerId() + ":" + a.getOutcome())
        .containsExactly("node-worker:" + AttemptOutcome.ATTEMPT_OUTCOME_RELEASED);

    Script rejected =
        scripts.node(
            "node-producer-rejected", "producer.js", "--target", cluster.target(), "--type", "");
    assertThat(rejected.awaitExit(EXIT)).as(rejected.logText()).isEqualTo(2);
    assertThat(rejected.logText())
        .as("the BadRequest field violation, decoded from grpc-status-details-bin")
        .contains("enqueue failed: INVALID_ARGUMENT")
        .contains("\n  type: job type is required");
  }

  @Test
  void aStaleCompleteFromAPythonWorkerIsRejectedWithLeaseLost() throws Exception {
    ScriptProcesses.assumePython();
    cluster.startCoordinator();
    JobServiceGrpc.JobServiceBlockingStub jobs = cluster.jobs();
    long id = Jobs.enqueue(jobs, "sleep", "{\"ms\":4000}");
    Script worker =
        scripts.python(
            "py-worker",
            "worker.py",
            "--target",
            cluster.target(),
            "--worker-id",
            "py-worker",
            "--lease-ttl",
            "2",
            // One slot: holding the job, it has no Lease in flight that could take the job back.
            "--concurrency",
            "1");
    Job running = Jobs.awaitProgress(jobs, id, Duration.ofSeconds(60));
    long handlerDoneNanos = System.nanoTime() + TimeUnit.SECONDS.toNanos(4);
    long staleToken = running.getLease().getFencingToken();

    // Freeze the worker mid-job: no heartbeats, so its lease expires and another worker takes it.
    worker.signal("STOP");
    Jobs.awaitState(jobs, id, JobState.JOB_STATE_PENDING, Duration.ofSeconds(30));
    WorkerServiceGrpc.WorkerServiceBlockingStub workers =
        cluster.workerStub().withDeadlineAfter(30, TimeUnit.SECONDS);
    List<Job> taken =
        workers
            .lease(
                LeaseRequest.newBuilder()
                    .setWorkerId("java-taker")
                    .addTypes("sleep")
                    .setLeaseTtl(com.google.protobuf.Duration.newBuilder().setSeconds(120))
                    .setWait(com.google.protobuf.Duration.newBuilder().setSeconds(10))
                    .build())
            .getJobsList();
    assertThat(taken).extracting(Job::getId).containsExactly(id);
    long currentToken = taken.get(0).getLease().getFencingToken();
    assertThat(currentToken).isGreaterThan(staleToken);

    // The handler's 4 s must run out while the worker is stopped, so that, thawed, it reports at
    // once.
    org.awaitility.Awaitility.await("the stopped worker's handler time has run out")
        .atMost(Duration.ofSeconds(10))
        .pollInterval(Duration.ofMillis(50))
        .until(() -> System.nanoTime() - handlerDoneNanos > 0);
    // Thawed, the worker finds its handler done and reports it with the token it holds.
    worker.signal("CONT");
    worker.awaitLog(
        "job " + id + ": Complete rejected, dropping the job: FAILED_PRECONDITION LEASE_LOST",
        EXIT);
    Job after = Jobs.get(jobs, id);
    assertThat(after.getState()).isEqualTo(JobState.JOB_STATE_RUNNING);
    assertThat(after.getLease().getWorkerId()).isEqualTo("java-taker");
    assertThat(after.getHistoryList())
        .extracting(a -> a.getWorkerId() + ":" + a.getOutcome() + ":" + a.getFencingToken())
        .contains(
            "py-worker:"
                + AttemptOutcome.ATTEMPT_OUTCOME_STALE_COMPLETION_REJECTED
                + ":"
                + staleToken);

    workers.complete(
        CompleteRequest.newBuilder()
            .setJobId(id)
            .setFencingToken(currentToken)
            .setLeaseId(taken.get(0).getLease().getLeaseId())
            .setWorkerId("java-taker")
            .setResult(ByteString.copyFromUtf8("{}"))
            .build());
    assertThat(Jobs.get(jobs, id).getState()).isEqualTo(JobState.JOB_STATE_SUCCEEDED);
  }

  private static long enqueuedId(Script producer) {
    Matcher m = ENQUEUED.matcher(producer.logText());
    if (!m.find()) {
      throw new AssertionError("producer printed no job id\n" + producer.logText());
    }
    return Long.parseLong(m.group(1));
  }
}
