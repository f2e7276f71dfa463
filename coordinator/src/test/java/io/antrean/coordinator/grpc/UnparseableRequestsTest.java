package io.antrean.coordinator.grpc;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.google.protobuf.ByteString;
import io.antrean.proto.v1.EnqueueRequest;
import io.antrean.proto.v1.GetJobRequest;
import io.antrean.proto.v1.JobServiceGrpc;
import io.antrean.proto.v1.WorkerServiceGrpc;
import io.grpc.CallOptions;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.reflection.v1.ServerReflectionGrpc;
import io.grpc.reflection.v1.ServerReflectionRequest;
import io.grpc.reflection.v1.ServerReflectionResponse;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.StreamObserver;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * Issue F2 defect 4: a request whose bytes are not the method's message is INVALID_ARGUMENT, with
 * no stack trace per request in the log (gRPC's own SEVERE line) and one throttled warning line.
 */
@Timeout(60)
class UnparseableRequestsTest {
  /** EnqueueRequest field 2 (type, a string) holding the byte 0xff, which is not UTF-8. */
  static final byte[] BAD_ENQUEUE = {0x12, 0x01, (byte) 0xff};

  static final MethodDescriptor.Marshaller<byte[]> BYTES =
      new MethodDescriptor.Marshaller<>() {
        @Override
        public InputStream stream(byte[] value) {
          return new ByteArrayInputStream(value);
        }

        @Override
        public byte[] parse(InputStream stream) {
          try {
            return stream.readAllBytes();
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        }
      };

  @TempDir Path dir;
  private InProcessCoordinator server;
  private final List<LogRecord> grpcLog = new CopyOnWriteArrayList<>();
  private final Handler grpcHandler =
      new Handler() {
        @Override
        public void publish(LogRecord r) {
          grpcLog.add(r);
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
      };
  private final ListAppender<ILoggingEvent> ourLog = new ListAppender<>();

  @BeforeEach
  void start() throws Exception {
    java.util.logging.Logger.getLogger("io.grpc").addHandler(grpcHandler);
    ourLog.start();
    ((Logger) LoggerFactory.getLogger(UnparseableRequests.class)).addAppender(ourLog);
    server = InProcessCoordinator.start(dir, InProcessCoordinator.Calls.ON_EXECUTORS, "x");
  }

  @AfterEach
  void stop() {
    server.close();
    java.util.logging.Logger.getLogger("io.grpc").removeHandler(grpcHandler);
    ((Logger) LoggerFactory.getLogger(UnparseableRequests.class)).detachAppender(ourLog);
  }

  static <Q, R> MethodDescriptor<byte[], byte[]> raw(MethodDescriptor<Q, R> method) {
    return method.toBuilder(BYTES, BYTES).build();
  }

  private Status.Code sendRaw(MethodDescriptor<?, ?> method, byte[] body) {
    try {
      ClientCalls.blockingUnaryCall(
          server.channel,
          raw(method),
          CallOptions.DEFAULT.withDeadlineAfter(10, TimeUnit.SECONDS),
          body);
      return Status.Code.OK;
    } catch (StatusRuntimeException e) {
      return e.getStatus().getCode();
    }
  }

  @Test
  void anUnparseableRequestIsInvalidArgumentAndLogsNoStackTrace() {
    for (int i = 0; i < 200; i++) {
      assertThat(sendRaw(JobServiceGrpc.getEnqueueMethod(), BAD_ENQUEUE))
          .isEqualTo(Status.Code.INVALID_ARGUMENT);
      assertThat(sendRaw(WorkerServiceGrpc.getLeaseMethod(), new byte[] {(byte) 0xff}))
          .isEqualTo(Status.Code.INVALID_ARGUMENT);
    }
    assertThat(grpcLog).noneMatch(r -> r.getLevel().intValue() >= Level.WARNING.intValue());
    assertThat(ourLog.list).hasSize(1);
    assertThat(ourLog.list.get(0).getThrowableProxy()).isNull();
    assertThat(ourLog.list.get(0).getFormattedMessage()).startsWith("1 unparseable gRPC requests");
  }

  @Test
  void theServiceStillServesWellFormedRequestsAndReflection() throws Exception {
    assertThat(sendRaw(JobServiceGrpc.getEnqueueMethod(), BAD_ENQUEUE))
        .isEqualTo(Status.Code.INVALID_ARGUMENT);
    long id =
        server
            .jobs()
            .enqueue(
                EnqueueRequest.newBuilder()
                    .setType("x")
                    .setPayload(ByteString.copyFromUtf8("{}"))
                    .build())
            .getJob()
            .getId();
    assertThat(
            server.jobs().getJob(GetJobRequest.newBuilder().setId(id).build()).getJob().getType())
        .isEqualTo("x");
    CountDownLatch done = new CountDownLatch(1);
    List<ServerReflectionResponse> answers = new CopyOnWriteArrayList<>();
    StreamObserver<ServerReflectionRequest> requests =
        ServerReflectionGrpc.newStub(server.channel)
            .serverReflectionInfo(
                new StreamObserver<>() {
                  @Override
                  public void onNext(ServerReflectionResponse r) {
                    answers.add(r);
                  }

                  @Override
                  public void onError(Throwable t) {
                    done.countDown();
                  }

                  @Override
                  public void onCompleted() {
                    done.countDown();
                  }
                });
    requests.onNext(
        ServerReflectionRequest.newBuilder()
            .setFileContainingSymbol("antrean.v1.JobService")
            .build());
    requests.onCompleted();
    assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
    assertThat(answers).hasSize(1);
    assertThat(answers.get(0).hasFileDescriptorResponse()).isTrue();
  }
}
