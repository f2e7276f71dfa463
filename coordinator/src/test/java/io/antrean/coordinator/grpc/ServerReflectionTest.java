package io.antrean.coordinator.grpc;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import io.grpc.ManagedChannel;
import io.grpc.reflection.v1.ServerReflectionGrpc;
import io.grpc.reflection.v1.ServerReflectionRequest;
import io.grpc.reflection.v1.ServerReflectionResponse;
import io.grpc.reflection.v1.ServiceResponse;
import io.grpc.stub.StreamObserver;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Server reflection answers both protocol versions: tools such as grpcurl and many language clients
 * still ask {@code grpc.reflection.v1alpha}, newer ones ask {@code grpc.reflection.v1}.
 */
@Timeout(30)
class ServerReflectionTest {
  private static final List<String> OUR_SERVICES =
      List.of(
          "antrean.v1.JobService",
          "antrean.v1.WorkerService",
          "antrean.v1.AdminService",
          "antrean.v1.ScheduleService",
          "grpc.health.v1.Health");

  @TempDir Path dir;
  private InProcessCoordinator server;

  @BeforeEach
  void start() throws Exception {
    server = InProcessCoordinator.start(dir, InProcessCoordinator.Calls.ON_EXECUTORS);
  }

  @AfterEach
  void stop() {
    server.close();
  }

  @Test
  void reflectionV1ListsTheServicesAndServesTheirFiles() throws Exception {
    ServerReflectionResponse list =
        askV1(ServerReflectionRequest.newBuilder().setListServices("*").build());
    assertThat(list.getListServicesResponse().getServiceList())
        .extracting(ServiceResponse::getName)
        .contains(OUR_SERVICES.toArray(String[]::new))
        .contains(
            "grpc.reflection.v1.ServerReflection", "grpc.reflection.v1alpha.ServerReflection");

    ServerReflectionResponse files =
        askV1(
            ServerReflectionRequest.newBuilder()
                .setFileContainingSymbol("antrean.v1.WorkerService")
                .build());
    assertThat(fileNames(files.getFileDescriptorResponse().getFileDescriptorProtoList()))
        .contains("antrean/v1/worker_service.proto");
  }

  @Test
  void reflectionV1alphaListsTheServicesAndServesTheirFiles() throws Exception {
    io.grpc.reflection.v1alpha.ServerReflectionResponse list =
        askV1alpha(
            io.grpc.reflection.v1alpha.ServerReflectionRequest.newBuilder()
                .setListServices("*")
                .build());
    assertThat(list.hasErrorResponse()).as("v1alpha error: %s", list.getErrorResponse()).isFalse();
    assertThat(list.getListServicesResponse().getServiceList())
        .extracting(io.grpc.reflection.v1alpha.ServiceResponse::getName)
        .contains(OUR_SERVICES.toArray(String[]::new));

    io.grpc.reflection.v1alpha.ServerReflectionResponse files =
        askV1alpha(
            io.grpc.reflection.v1alpha.ServerReflectionRequest.newBuilder()
                .setFileContainingSymbol("antrean.v1.JobService")
                .build());
    assertThat(fileNames(files.getFileDescriptorResponse().getFileDescriptorProtoList()))
        .contains("antrean/v1/job_service.proto");
  }

  private ServerReflectionResponse askV1(ServerReflectionRequest request) throws Exception {
    return ask(
        request,
        observer -> ServerReflectionGrpc.newStub(channel()).serverReflectionInfo(observer));
  }

  private io.grpc.reflection.v1alpha.ServerReflectionResponse askV1alpha(
      io.grpc.reflection.v1alpha.ServerReflectionRequest request) throws Exception {
    return ask(
        request,
        observer ->
            io.grpc.reflection.v1alpha.ServerReflectionGrpc.newStub(channel())
                .serverReflectionInfo(observer));
  }

  private ManagedChannel channel() {
    return server.channel;
  }

  /** Sends one request on a reflection stream and returns the one answer. */
  private static <Q, A> A ask(Q request, Function<StreamObserver<A>, StreamObserver<Q>> open)
      throws Exception {
    FirstAnswer<A> answer = new FirstAnswer<>();
    StreamObserver<Q> requests = open.apply(answer);
    requests.onNext(request);
    try {
      return answer.get();
    } finally {
      requests.onCompleted();
    }
  }

  private static List<String> fileNames(List<ByteString> files) throws Exception {
    List<String> names = new ArrayList<>();
    for (ByteString file : files) {
      names.add(FileDescriptorProto.parseFrom(file).getName());
    }
    return names;
  }
}
