package io.antrean.coordinator.grpc;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.util.concurrent.ListenableFuture;
import com.google.protobuf.ByteString;
import com.google.protobuf.Duration;
import io.antrean.proto.v1.AdminServiceGrpc;
import io.antrean.proto.v1.CompleteRequest;
import io.antrean.proto.v1.EnqueueRequest;
import io.antrean.proto.v1.GetJobRequest;
import io.antrean.proto.v1.Job;
import io.antrean.proto.v1.JobServiceGrpc;
import io.antrean.proto.v1.LeaseRequest;
import io.antrean.proto.v1.LeaseResponse;
import io.antrean.proto.v1.ListQueuesRequest;
import io.antrean.proto.v1.QueueInfo;
import io.antrean.proto.v1.QueueLimits;
import io.antrean.proto.v1.RateLimit;
import io.antrean.proto.v1.SetQueueLimitsRequest;
import io.antrean.proto.v1.WorkerServiceGrpc;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Concurrency limits over gRPC, in process, on a SQLite store. */
@Timeout(30)
class QueueLimitsTest {
  @TempDir Path dir;
  private InProcessCoordinator server;
  private JobServiceGrpc.JobServiceBlockingStub jobs;
  private AdminServiceGrpc.AdminServiceBlockingStub admin;

  @BeforeEach
  void start() throws Exception {
    server = InProcessCoordinator.start(dir, InProcessCoordinator.Calls.DIRECT, "email.send");
    jobs = server.jobs();
    admin = server.admin();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private long enqueue(String concurrencyKey) {
    return jobs.enqueue(
            EnqueueRequest.newBuilder()
                .setType("email.send")
                .setPayload(ByteString.copyFromUtf8("{}"))
                .setConcurrencyKey(concurrencyKey)
                .build())
        .getJob()
        .getId();
  }

  private static LeaseRequest lease(String worker, long waitSeconds) {
    return LeaseRequest.newBuilder()
        .setWorkerId(worker)
        .setMaxJobs(10)
        .setWait(Duration.newBuilder().setSeconds(waitSeconds))
        .build();
  }

  private QueueInfo setLimits(String queue, int maxRunning, int perKey) {
    return admin
        .setQueueLimits(
            SetQueueLimitsRequest.newBuilder()
                .setQueue(queue)
                .setMaxRunning(maxRunning)
                .setMaxRunningPerKey(perKey)
                .build())
        .getQueue();
  }

  @Test
  void limitsAreSetListedAndCleared() {
    QueueInfo set = setLimits("tenants", 20, 2);

    assertThat(set.getLimits())
        .isEqualTo(QueueLimits.newBuilder().setMaxRunning(20).setMaxRunningPerKey(2).build());
    assertThat(admin.listQueues(ListQueuesRequest.getDefaultInstance()).getQueuesList())
        .singleElement()
        .satisfies(q -> assertThat(q.getLimits().getMaxRunningPerKey()).isEqualTo(2));

    QueueInfo cleared = setLimits("tenants", 0, 0);
    assertThat(cleared.hasLimits()).isFalse();
    assertThat(admin.listQueues(ListQueuesRequest.getDefaultInstance()).getQueuesList()).isEmpty();
  }

  @Test
  void theConcurrencyKeyIsStoredAndShownByGetJob() {
    long id = enqueue("customer-7");

    Job job = jobs.getJob(GetJobRequest.newBuilder().setId(id).build()).getJob();

    assertThat(job.getConcurrencyKey()).isEqualTo("customer-7");
  }

  @Test
  void aLeaseWaitingOnAnEmptyRateBucketIsAnsweredWhenTheNextTokenIsIn() throws Exception {
    // No backup sweep within the test: only the token's own wake-up can answer the wait.
    server.close();
    server =
        InProcessCoordinator.start(
            dir, InProcessCoordinator.Calls.DIRECT, java.time.Duration.ofMinutes(10), "email.send");
    jobs = server.jobs();
    admin = server.admin();
    admin.setQueueLimits(
        SetQueueLimitsRequest.newBuilder()
            .setQueue("default")
            .setRate(
                RateLimit.newBuilder()
                    .setStarts(1)
                    .setInterval(Duration.newBuilder().setSeconds(1)))
            .build());
    long first = enqueue("");
    long second = enqueue("");
    assertThat(server.workers().lease(lease("w1", 0)).getJobsList())
        .extracting(Job::getId)
        .containsExactly(first);

    ListenableFuture<LeaseResponse> waiting =
        WorkerServiceGrpc.newFutureStub(server.channel)
            .withDeadlineAfter(25, TimeUnit.SECONDS)
            .lease(lease("w2", 20));

    assertThat(waiting.get(15, TimeUnit.SECONDS).getJobsList())
        .as("answered when the bucket has its next token, about 1 s later, not at the 20 s end")
        .extracting(Job::getId)
        .containsExactly(second);
  }

  @Test
  void aBusyKeysNextJobWaitsAndACompletionHandsItToAWaitingLease() throws Exception {
    setLimits("default", 0, 1);
    long first = enqueue("a");
    long second = enqueue("a");
    LeaseResponse leased = server.workers().lease(lease("w1", 0));
    assertThat(leased.getJobsList()).extracting(Job::getId).containsExactly(first);
    ListenableFuture<LeaseResponse> waiting =
        WorkerServiceGrpc.newFutureStub(server.channel)
            .withDeadlineAfter(25, TimeUnit.SECONDS)
            .lease(lease("w2", 20));
    assertThat(jobs.getJob(GetJobRequest.newBuilder().setId(second).build()).getJob().getAttempts())
        .as("held back without spending an attempt")
        .isZero();

    Job running = leased.getJobs(0);
    assertThat(running.getLease().getLeaseId()).as("a limited lease has a lease id").hasSize(32);
    server
        .workers()
        .complete(
            CompleteRequest.newBuilder()
                .setJobId(first)
                .setFencingToken(running.getLease().getFencingToken())
                .setLeaseId(running.getLease().getLeaseId())
                .setWorkerId("w1")
                .build());

    assertThat(waiting.get(5, TimeUnit.SECONDS).getJobsList())
        .extracting(Job::getId)
        .containsExactly(second);
  }

  @Test
  void negativeLimitsAndABadQueueAreInvalidArgumentWithTheirFields() throws Exception {
    assertThat(ViolatedFields.of(() -> setLimits("default", -1, -2)))
        .containsExactly("max_running", "max_running_per_key");
    assertThat(ViolatedFields.of(() -> setLimits("no spaces", 1, 1))).containsExactly("queue");
  }

  @Test
  void rateLimitsAreSetAndShownAndBadOnesNameTheirFields() throws Exception {
    RateLimit tenPerSecond =
        RateLimit.newBuilder()
            .setStarts(10)
            .setInterval(Duration.newBuilder().setSeconds(1))
            .build();
    QueueInfo set =
        admin
            .setQueueLimits(
                SetQueueLimitsRequest.newBuilder()
                    .setQueue("default")
                    .setRate(tenPerSecond)
                    .setRatePerKey(tenPerSecond)
                    .build())
            .getQueue();
    assertThat(set.getLimits().getRate()).isEqualTo(tenPerSecond);
    assertThat(set.getLimits().getRatePerKey()).isEqualTo(tenPerSecond);

    assertThat(
            ViolatedFields.of(
                () ->
                    admin.setQueueLimits(
                        SetQueueLimitsRequest.newBuilder()
                            .setQueue("default")
                            .setRate(RateLimit.newBuilder().setStarts(0))
                            .setRatePerKey(
                                RateLimit.newBuilder()
                                    .setStarts(1)
                                    .setInterval(Duration.newBuilder().setSeconds(2 * 86_400)))
                            .build())))
        .containsExactly("rate.starts", "rate.interval", "rate_per_key.interval");
  }

  @Test
  void aTooLongConcurrencyKeyIsInvalidArgument() throws Exception {
    assertThat(ViolatedFields.of(() -> enqueue("k".repeat(257))))
        .containsExactly("concurrency_key");
  }
}
