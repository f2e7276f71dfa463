package io.antrean.coordinator.grpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.google.protobuf.Any;
import com.google.protobuf.ByteString;
import com.google.rpc.ErrorInfo;
import io.antrean.proto.v1.CancelJobRequest;
import io.antrean.proto.v1.EnqueueRequest;
import io.antrean.proto.v1.JobServiceGrpc;
import io.antrean.proto.v1.JobState;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.protobuf.StatusProto;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** CancelJob over an in-process channel. */
@Timeout(30)
class CancelJobTest {
  @TempDir Path dir;
  private InProcessCoordinator server;
  private JobServiceGrpc.JobServiceBlockingStub jobs;

  @BeforeEach
  void start() throws Exception {
    server = InProcessCoordinator.start(dir, InProcessCoordinator.Calls.DIRECT, "email.send");
    jobs = server.jobs();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private long enqueue() {
    return jobs.enqueue(
            EnqueueRequest.newBuilder()
                .setType("email.send")
                .setPayload(ByteString.copyFromUtf8("{}"))
                .build())
        .getJob()
        .getId();
  }

  private static String reason(StatusRuntimeException e) throws Exception {
    for (Any any : StatusProto.fromThrowable(e).getDetailsList()) {
      if (any.is(ErrorInfo.class)) {
        return any.unpack(ErrorInfo.class).getReason();
      }
    }
    throw new AssertionError("no ErrorInfo in " + e);
  }

  @Test
  void cancellingACancelledJobAgainIsFailedPreconditionJobFinished() throws Exception {
    long id = enqueue();
    CancelJobRequest cancel = CancelJobRequest.newBuilder().setId(id).build();
    assertThat(jobs.cancelJob(cancel).getJob().getState()).isEqualTo(JobState.JOB_STATE_CANCELLED);

    StatusRuntimeException again =
        catchThrowableOfType(StatusRuntimeException.class, () -> jobs.cancelJob(cancel));

    assertThat(again.getStatus().getCode()).isEqualTo(Status.Code.FAILED_PRECONDITION);
    assertThat(reason(again)).isEqualTo("JOB_FINISHED");
  }
}
