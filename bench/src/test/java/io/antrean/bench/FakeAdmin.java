package io.antrean.bench;

import io.antrean.proto.v1.AdminServiceGrpc;
import io.antrean.proto.v1.ListQueuesRequest;
import io.antrean.proto.v1.ListQueuesResponse;
import io.antrean.proto.v1.PauseQueueRequest;
import io.antrean.proto.v1.PauseQueueResponse;
import io.antrean.proto.v1.ResumeQueueRequest;
import io.antrean.proto.v1.ResumeQueueResponse;
import io.grpc.stub.StreamObserver;

/**
 * {@link FakeQueues}' AdminService: ListQueues (names and pause states only), PauseQueue and
 * ResumeQueue; every other admin call answers UNIMPLEMENTED.
 */
final class FakeAdmin extends AdminServiceGrpc.AdminServiceImplBase {
  private final FakeQueues queues;

  FakeAdmin(FakeQueues queues) {
    this.queues = queues;
  }

  @Override
  public void listQueues(ListQueuesRequest request, StreamObserver<ListQueuesResponse> observer) {
    queues.listQueuesCalls.incrementAndGet();
    ListQueuesResponse.Builder response = ListQueuesResponse.newBuilder();
    queues
        .pauseStates()
        .forEach((name, paused) -> response.addQueuesBuilder().setName(name).setPaused(paused));
    observer.onNext(response.build());
    observer.onCompleted();
  }

  @Override
  public void pauseQueue(PauseQueueRequest request, StreamObserver<PauseQueueResponse> observer) {
    queues.setPaused(request.getQueue(), true);
    observer.onNext(PauseQueueResponse.getDefaultInstance());
    observer.onCompleted();
  }

  @Override
  public void resumeQueue(
      ResumeQueueRequest request, StreamObserver<ResumeQueueResponse> observer) {
    queues.setPaused(request.getQueue(), false);
    observer.onNext(ResumeQueueResponse.getDefaultInstance());
    observer.onCompleted();
  }
}
