package io.antrean.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import io.antrean.proto.v1.AttemptOutcome;
import io.antrean.proto.v1.EnqueueBatchRequest;
import io.antrean.proto.v1.EnqueueRequest;
import io.antrean.proto.v1.GetJobRequest;
import io.antrean.proto.v1.GetStatsRequest;
import io.antrean.proto.v1.Job;
import io.antrean.proto.v1.JobServiceGrpc;
import io.antrean.proto.v1.JobState;
import io.antrean.proto.v1.QueueStats;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.awaitility.Awaitility;

/** Small helpers over the raw JobService stub, so tests read as what they check. */
final class Jobs {
  private Jobs() {}

  static EnqueueRequest request(String type, String json) {
    return EnqueueRequest.newBuilder()
        .setType(type)
        .setPayload(ByteString.copyFrom(json, StandardCharsets.UTF_8))
        .build();
  }

  static long enqueue(JobServiceGrpc.JobServiceBlockingStub stub, String type, String json) {
    return stub.enqueue(request(type, json)).getJob().getId();
  }

  /** Enqueues n jobs in batches of 250; returns their ids. */
  static List<Long> enqueueMany(
      JobServiceGrpc.JobServiceBlockingStub stub, int n, String type, String json) {
    List<Long> ids = new ArrayList<>(n);
    for (int start = 0; start < n; start += 250) {
      EnqueueBatchRequest.Builder b = EnqueueBatchRequest.newBuilder();
      for (int i = start; i < Math.min(n, start + 250); i++) {
        b.addJobs(request(type, json));
      }
      stub.enqueueBatch(b.build()).getResultsList().forEach(r -> ids.add(r.getJob().getId()));
    }
    return ids;
  }

  static Job get(JobServiceGrpc.JobServiceBlockingStub stub, long id) {
    return stub.getJob(GetJobRequest.newBuilder().setId(id).build()).getJob();
  }

  /** Waits (bounded) until the job is in the state, and returns it. */
  static Job awaitState(
      JobServiceGrpc.JobServiceBlockingStub stub, long id, JobState state, Duration atMost) {
    return Awaitility.await("job " + id + " " + state)
        .atMost(atMost)
        .pollInterval(Duration.ofMillis(100))
        .until(() -> get(stub, id), j -> j.getState() == state);
  }

  /**
   * Waits (bounded) until the job's handler is demonstrably running on a worker: the worker sent a
   * progress note with a heartbeat. Being RUNNING only says the coordinator granted a lease; the
   * answer may still be on its way to the worker.
   */
  static Job awaitProgress(JobServiceGrpc.JobServiceBlockingStub stub, long id, Duration atMost) {
    return Awaitility.await("job " + id + " reports progress")
        .atMost(atMost)
        .pollInterval(Duration.ofMillis(100))
        .until(() -> get(stub, id), j -> !j.getProgress().isEmpty());
  }

  static long count(Job job, AttemptOutcome outcome) {
    return job.getHistoryList().stream().filter(a -> a.getOutcome() == outcome).count();
  }

  /** The default queue's SUCCEEDED jobs, from GetStats. */
  static long succeeded(JobServiceGrpc.JobServiceBlockingStub stub) {
    return stub
        .getStats(GetStatsRequest.newBuilder().setQueue("default").build())
        .getQueuesList()
        .stream()
        .mapToLong(QueueStats::getSucceeded)
        .sum();
  }

  /** Each job SUCCEEDED, with one accepted completion in its history: none ran to its end twice. */
  static void assertEachSucceededOnce(JobServiceGrpc.JobServiceBlockingStub stub, List<Long> ids) {
    for (long id : ids) {
      Job job = get(stub, id);
      assertThat(job.getState()).as("job %d", id).isEqualTo(JobState.JOB_STATE_SUCCEEDED);
      assertThat(count(job, AttemptOutcome.ATTEMPT_OUTCOME_SUCCEEDED))
          .as("accepted completions of job %d", id)
          .isEqualTo(1);
    }
  }
}
