package io.antrean.coordinator.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import io.antrean.coordinator.Coordinator;
import io.antrean.proto.v1.CompleteBatchRequest;
import io.antrean.proto.v1.CompleteBatchResponse;
import io.antrean.proto.v1.CompleteItem;
import io.antrean.proto.v1.CompleteOutcome;
import io.antrean.proto.v1.CompleteStatus;
import io.antrean.proto.v1.EnqueueRequest;
import io.antrean.proto.v1.Job;
import io.antrean.proto.v1.JobServiceGrpc;
import io.antrean.proto.v1.LeaseRequest;
import io.antrean.proto.v1.WorkerServiceGrpc;
import io.grpc.ManagedChannel;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A CompleteBatch of 8 items or more, a busy worker's, is written by the writer thread even in a
 * quiet moment, with or without a lease_next, so its statements, commit and fsync do not hold the
 * thread that reads the other workers' messages; a batch of a few jobs, as at a low rate, keeps the
 * quiet moment's write on that thread. Over Netty, against the SQLite writer's own count of writes
 * its callers ran.
 */
@Timeout(60)
class LargeCompleteBatchTest {
  private static final int LARGE = 8; // WorkerAnswers.AMONG_OTHERS_FROM

  @TempDir Path dir;

  private static CompleteBatchRequest completing(List<Job> jobs) {
    CompleteBatchRequest.Builder batch = CompleteBatchRequest.newBuilder().setWorkerId("w");
    for (Job job : jobs) {
      batch.addItems(
          CompleteItem.newBuilder()
              .setJobId(job.getId())
              .setFencingToken(job.getLease().getFencingToken())
              .setLeaseId(job.getLease().getLeaseId()));
    }
    return batch.build();
  }

  private static void assertCompleted(CompleteBatchResponse answer, int items) {
    assertThat(answer.getOutcomesList())
        .hasSize(items)
        .extracting(CompleteOutcome::getStatus)
        .containsOnly(CompleteStatus.COMPLETE_STATUS_COMPLETED);
  }

  @Test
  void aLargeBatchInAQuietMomentGoesToTheWriterThreadAndASmallOneStaysWithItsCaller()
      throws Exception {
    SqliteJobStore store = SqliteJobStore.open(dir, SqliteOptions.defaults());
    SqliteWriter writer = store.writer();
    try (Coordinator coordinator = QuietMoments.coordinator(store)) {
      ManagedChannel channel = QuietMoments.channelTo(coordinator);
      try {
        JobServiceGrpc.JobServiceBlockingStub jobs =
            JobServiceGrpc.newBlockingStub(channel).withDeadlineAfter(30, TimeUnit.SECONDS);
        WorkerServiceGrpc.WorkerServiceBlockingStub workers =
            WorkerServiceGrpc.newBlockingStub(channel).withDeadlineAfter(30, TimeUnit.SECONDS);
        // One small batch and two large ones leased; one job left for the last one's lease_next.
        int leasing = 1 + 2 * LARGE;
        for (int i = 0; i < leasing + 1; i++) {
          jobs.enqueue(
              EnqueueRequest.newBuilder()
                  .setType("t")
                  .setPayload(ByteString.copyFromUtf8("{}"))
                  .build());
        }
        List<Job> leased =
            workers
                .lease(
                    LeaseRequest.newBuilder()
                        .setWorkerId("w")
                        .setMaxJobs(leasing)
                        .setWait(com.google.protobuf.Duration.getDefaultInstance())
                        .build())
                .getJobsList();
        assertThat(leased).hasSize(leasing);

        // One job, in a quiet moment: written on the thread that read the call.
        QuietMoments.quietMoment();
        long byCallers = writer.committedByCallers();
        assertCompleted(workers.completeBatch(completing(leased.subList(0, 1))), 1);
        assertThat(writer.committedByCallers()).isEqualTo(byCallers + 1);

        // A large batch, in as quiet a moment: the writer thread's.
        QuietMoments.quietMoment();
        assertCompleted(workers.completeBatch(completing(leased.subList(1, 1 + LARGE))), LARGE);
        assertThat(writer.committedByCallers()).isEqualTo(byCallers + 1);

        // A large batch that leases the next job too, as a busy worker sends it: the same.
        QuietMoments.quietMoment();
        CompleteBatchResponse withNext =
            workers.completeBatch(
                completing(leased.subList(1 + LARGE, leasing)).toBuilder()
                    .setLeaseNext(LeaseRequest.newBuilder().setMaxJobs(1))
                    .build());
        assertCompleted(withNext, LARGE);
        assertThat(withNext.getLeasedJobsList()).hasSize(1);
        assertThat(writer.committedByCallers()).isEqualTo(byCallers + 1);
      } finally {
        channel.shutdownNow();
        assertThat(channel.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
      }
    }
  }
}
