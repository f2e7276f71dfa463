package io.antrean.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.antrean.proto.v1.Dependency;
import io.antrean.proto.v1.EnqueueBatchResponse;
import io.antrean.proto.v1.EnqueueRequest;
import io.antrean.proto.v1.EnqueueResponse;
import io.antrean.proto.v1.GetJobRequest;
import io.antrean.proto.v1.GetJobResponse;
import io.antrean.proto.v1.GetStatsRequest;
import io.antrean.proto.v1.GetStatsResponse;
import io.antrean.proto.v1.Job;
import io.antrean.proto.v1.JobState;
import io.antrean.proto.v1.ListDependenciesRequest;
import io.antrean.proto.v1.ListDependenciesResponse;
import io.antrean.proto.v1.ListJobsRequest;
import io.antrean.proto.v1.ListJobsResponse;
import io.antrean.proto.v1.QueueStats;
import io.grpc.Deadline;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class GrpcAntreanClientTest {
  private final FakeJobService service = new FakeJobService();
  private InProcessCoordinator coordinator;

  @BeforeEach
  void start() {
    coordinator = InProcessCoordinator.start(service);
  }

  @AfterEach
  void stop() throws InterruptedException {
    coordinator.close();
  }

  @Test
  void enqueueSendsTheRequestAndReturnsTheResponse() {
    service.enqueue =
        r ->
            EnqueueResponse.newBuilder()
                .setJob(FakeJobService.jobFor(42, r))
                .setDeduplicated(true)
                .build();
    EnqueueRequest request =
        EnqueueRequest.newBuilder().setType("email.send").setQueue("mail").build();

    EnqueueResponse response = coordinator.client(Duration.ofSeconds(5)).enqueue(request);

    assertThat(response.getJob().getId()).isEqualTo(42);
    assertThat(response.getDeduplicated()).isTrue();
    assertThat(service.requestsOf(EnqueueRequest.class)).containsExactly(request);
  }

  @Test
  void enqueueOfTypeAndJsonSendsUtf8JsonToTheDefaultQueue() {
    coordinator.client(Duration.ofSeconds(5)).enqueue("email.send", "{\"to\":\"åda\"}");

    EnqueueRequest sent = service.requestsOf(EnqueueRequest.class).get(0);
    assertThat(sent.getType()).isEqualTo("email.send");
    assertThat(sent.getQueue()).isEmpty();
    assertThat(sent.getContentType()).isEqualTo("application/json");
    assertThat(sent.getPayload().toString(StandardCharsets.UTF_8)).isEqualTo("{\"to\":\"åda\"}");
  }

  @Test
  void enqueueBatchOfSpecsSendsThemInOrder() {
    AntreanClient client = coordinator.client(Duration.ofSeconds(5));

    EnqueueBatchResponse response =
        client.enqueueBatch(
            List.of(JobSpec.builder("a").build(), JobSpec.builder("b").priority(3).build()));

    assertThat(response.getResultsList())
        .extracting(r -> r.getJob().getType())
        .containsExactly("a", "b");
    assertThat(
            service
                .requestsOf(io.antrean.proto.v1.EnqueueBatchRequest.class)
                .get(0)
                .getJobs(1)
                .getPriority())
        .isEqualTo(3);
  }

  @Test
  void listDependenciesAsksForTheIdAndUnwrapsTheList() {
    Dependency part =
        Dependency.newBuilder().setId(3).setState(JobState.JOB_STATE_SUCCEEDED).build();
    service.listDependencies =
        r -> ListDependenciesResponse.newBuilder().addDependencies(part).build();

    assertThat(coordinator.client(Duration.ofSeconds(5)).listDependencies(9)).containsExactly(part);
    assertThat(service.requestsOf(ListDependenciesRequest.class))
        .extracting(ListDependenciesRequest::getId)
        .containsExactly(9L);
  }

  @Test
  void getJobAsksForTheIdAndUnwrapsTheJob() {
    Job job = Job.newBuilder().setId(9).setState(JobState.JOB_STATE_RUNNING).build();
    service.getJob = r -> GetJobResponse.newBuilder().setJob(job).build();

    assertThat(coordinator.client(Duration.ofSeconds(5)).getJob(9)).isEqualTo(job);
    assertThat(service.requestsOf(GetJobRequest.class).get(0).getId()).isEqualTo(9);
  }

  @Test
  void listJobsPassesTheRequestThrough() {
    ListJobsResponse page =
        ListJobsResponse.newBuilder()
            .addJobs(Job.newBuilder().setId(3))
            .setNextPageToken("t2")
            .build();
    service.listJobs = r -> page;
    ListJobsRequest request =
        ListJobsRequest.newBuilder()
            .setQueue("q")
            .setState(JobState.JOB_STATE_FAILED)
            .setPageSize(5)
            .build();

    assertThat(coordinator.client(Duration.ofSeconds(5)).listJobs(request)).isEqualTo(page);
    assertThat(service.requestsOf(ListJobsRequest.class)).containsExactly(request);
  }

  @Test
  void getStatsOfNullAsksForEveryQueueAndOfANameForThatQueue() {
    GetStatsResponse stats =
        GetStatsResponse.newBuilder()
            .addQueues(QueueStats.newBuilder().setQueue("q").setPending(4))
            .build();
    service.getStats = r -> stats;
    AntreanClient client = coordinator.client(Duration.ofSeconds(5));

    assertThat(client.getStats(null)).isEqualTo(stats);
    client.getStats("mail");
    assertThat(client.getUnfinishedStats("mail")).isEqualTo(stats);
    client.getUnfinishedStats(null);

    assertThat(service.requestsOf(GetStatsRequest.class))
        .extracting(r -> r.getQueue() + (r.getUnfinishedOnly() ? " unfinished" : ""))
        .containsExactly("", "mail", "mail unfinished", " unfinished");
  }

  /** Enqueues go on the Produce stream, where the client keeps their deadline itself. */
  @Test
  void everyCallCarriesTheDefaultDeadline() {
    service.getJob = r -> GetJobResponse.getDefaultInstance();
    service.cancelJob = r -> io.antrean.proto.v1.CancelJobResponse.getDefaultInstance();
    AntreanClient client = GrpcAntreanClient.forChannel(coordinator.channel()).build();

    callEveryRpc(client);

    assertThat(service.deadlines)
        .hasSize(4)
        .allSatisfy(d -> assertRemaining(d, Duration.ofSeconds(10)));
  }

  @Test
  void builderTimeoutAndWithTimeoutChangeTheDeadline() {
    service.getJob = r -> GetJobResponse.getDefaultInstance();
    AntreanClient client = coordinator.client(Duration.ofSeconds(3));

    client.getJob(1);
    client.withTimeout(Duration.ofMillis(1500)).getJob(1);
    client.getJob(1);

    assertRemaining(service.deadlines.get(0), Duration.ofSeconds(3));
    assertRemaining(service.deadlines.get(1), Duration.ofMillis(1500));
    assertRemaining(service.deadlines.get(2), Duration.ofSeconds(3));
  }

  @Test
  void aServerSlowerThanTheDeadlineFailsAsRetryableDeadlineExceeded() throws InterruptedException {
    CountDownLatch release = new CountDownLatch(1);
    service.getJob =
        r -> {
          release.await(5, TimeUnit.SECONDS);
          return GetJobResponse.getDefaultInstance();
        };
    AntreanClient client = coordinator.client(Duration.ofMillis(100));
    try {
      UnavailableException e =
          catchThrowableOfType(UnavailableException.class, () -> client.getJob(1));

      assertThat(e.isDeadlineExceeded()).isTrue();
      assertThat(e.isRetryable()).isTrue();
    } finally {
      release.countDown();
    }
  }

  @Test
  void closingAClientThatBorrowedTheChannelLeavesItOpen() {
    service.getStats = r -> GetStatsResponse.getDefaultInstance();
    GrpcAntreanClient client = coordinator.client(Duration.ofSeconds(5));

    client.close();

    assertThat(coordinator.channel().isShutdown()).isFalse();
    assertThat(coordinator.client(Duration.ofSeconds(5)).getStats(null)).isNotNull();
  }

  @Test
  void nonPositiveTimeoutsAndBlankTargetsAreRejected() {
    assertThatThrownBy(() -> GrpcAntreanClient.forTarget(" "))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(
            () -> GrpcAntreanClient.forChannel(coordinator.channel()).timeout(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(
            () -> coordinator.client(Duration.ofSeconds(1)).withTimeout(Duration.ofMillis(-1)))
        .isInstanceOf(IllegalArgumentException.class);
  }

  private static void callEveryRpc(AntreanClient client) {
    client.enqueue("t", "{}");
    client.enqueueBatch(
        List.of(JobSpec.builder("t").payload(new byte[] {1}, "application/octet-stream").build()));
    client.getJob(1);
    client.listJobs(ListJobsRequest.getDefaultInstance());
    client.cancelJob(1);
    client.getStats(null);
  }

  private static void assertRemaining(Deadline deadline, Duration timeout) {
    assertThat(deadline).isNotNull();
    long remainingMillis = deadline.timeRemaining(TimeUnit.MILLISECONDS);
    assertThat(remainingMillis)
        .isLessThanOrEqualTo(timeout.toMillis())
        .isGreaterThan(timeout.toMillis() - 1000);
  }
}
