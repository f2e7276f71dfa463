package io.antrean.client;

import com.google.protobuf.Timestamp;
import io.antrean.proto.v1.AdminServiceGrpc;
import io.antrean.proto.v1.GetDeadLetterRequest;
import io.antrean.proto.v1.GetDeadLetterResponse;
import io.antrean.proto.v1.ListDeadLettersRequest;
import io.antrean.proto.v1.ListDeadLettersResponse;
import io.antrean.proto.v1.ListQueuesRequest;
import io.antrean.proto.v1.ListQueuesResponse;
import io.antrean.proto.v1.ListWorkersRequest;
import io.antrean.proto.v1.ListWorkersResponse;
import io.antrean.proto.v1.PauseQueueRequest;
import io.antrean.proto.v1.PauseQueueResponse;
import io.antrean.proto.v1.PurgeDeadLettersRequest;
import io.antrean.proto.v1.PurgeDeadLettersResponse;
import io.antrean.proto.v1.QueueInfo;
import io.antrean.proto.v1.QueueLimits;
import io.antrean.proto.v1.RedriveDeadLettersRequest;
import io.antrean.proto.v1.RedriveDeadLettersResponse;
import io.antrean.proto.v1.ResumeQueueRequest;
import io.antrean.proto.v1.ResumeQueueResponse;
import io.antrean.proto.v1.SetQueueLimitsRequest;
import io.antrean.proto.v1.SetQueueLimitsResponse;
import io.grpc.Deadline;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A scriptable AdminService for tests, shaped like {@link FakeJobService}: each RPC answers with
 * its handler (which may throw a {@code StatusRuntimeException}), and every request and deadline is
 * recorded. By default the queue is empty: lists are empty, Get is NOT_FOUND, redrive skips every
 * id it is given, purge deletes nothing; there are no queues, and pause (at {@link #PAUSED_AT}) and
 * resume answer with the named queue in the new state and zero counts.
 */
public class FakeAdminService extends AdminServiceGrpc.AdminServiceImplBase {
  /** When the default PauseQueue handler says a queue was paused: 2027-01-15T08:00:00Z. */
  public static final Timestamp PAUSED_AT =
      Timestamp.newBuilder().setSeconds(1_800_000_000L).build();

  public volatile FakeJobService.Handler<ListDeadLettersRequest, ListDeadLettersResponse>
      listDeadLetters = r -> ListDeadLettersResponse.getDefaultInstance();
  public volatile FakeJobService.Handler<GetDeadLetterRequest, GetDeadLetterResponse>
      getDeadLetter =
          r -> {
            throw Status.NOT_FOUND
                .withDescription("job " + r.getId() + " not found")
                .asRuntimeException();
          };
  public volatile FakeJobService.Handler<RedriveDeadLettersRequest, RedriveDeadLettersResponse>
      redriveDeadLetters =
          r -> RedriveDeadLettersResponse.newBuilder().addAllSkippedIds(r.getIdsList()).build();
  public volatile FakeJobService.Handler<PurgeDeadLettersRequest, PurgeDeadLettersResponse>
      purgeDeadLetters = r -> PurgeDeadLettersResponse.getDefaultInstance();
  public volatile FakeJobService.Handler<ListWorkersRequest, ListWorkersResponse> listWorkers =
      r -> ListWorkersResponse.getDefaultInstance();
  public volatile FakeJobService.Handler<ListQueuesRequest, ListQueuesResponse> listQueues =
      r -> ListQueuesResponse.getDefaultInstance();
  public volatile FakeJobService.Handler<PauseQueueRequest, PauseQueueResponse> pauseQueue =
      r ->
          PauseQueueResponse.newBuilder()
              .setQueue(
                  QueueInfo.newBuilder()
                      .setName(r.getQueue())
                      .setPaused(true)
                      .setPausedAt(PAUSED_AT))
              .build();
  public volatile FakeJobService.Handler<ResumeQueueRequest, ResumeQueueResponse> resumeQueue =
      r ->
          ResumeQueueResponse.newBuilder()
              .setQueue(QueueInfo.newBuilder().setName(r.getQueue()))
              .build();

  /** Echoes the limits asked for (0 in both: none). */
  public volatile FakeJobService.Handler<SetQueueLimitsRequest, SetQueueLimitsResponse>
      setQueueLimits =
          r -> {
            QueueInfo.Builder info = QueueInfo.newBuilder().setName(r.getQueue());
            if (r.getMaxRunning() > 0 || r.getMaxRunningPerKey() > 0) {
              info.setLimits(
                  QueueLimits.newBuilder()
                      .setMaxRunning(r.getMaxRunning())
                      .setMaxRunningPerKey(r.getMaxRunningPerKey()));
            }
            return SetQueueLimitsResponse.newBuilder().setQueue(info).build();
          };

  /** Every request received, in order. */
  public final List<Object> requests = Collections.synchronizedList(new ArrayList<>());

  /** The deadline of every call received, in order; null entries for calls without one. */
  public final List<Deadline> deadlines = Collections.synchronizedList(new ArrayList<>());

  /** The requests of one type, in order. */
  public <T> List<T> requestsOf(Class<T> type) {
    synchronized (requests) {
      return requests.stream().filter(type::isInstance).map(type::cast).toList();
    }
  }

  @Override
  public void listDeadLetters(
      ListDeadLettersRequest request, StreamObserver<ListDeadLettersResponse> observer) {
    FakeJobService.serve(request, observer, listDeadLetters, requests, deadlines);
  }

  @Override
  public void getDeadLetter(
      GetDeadLetterRequest request, StreamObserver<GetDeadLetterResponse> observer) {
    FakeJobService.serve(request, observer, getDeadLetter, requests, deadlines);
  }

  @Override
  public void redriveDeadLetters(
      RedriveDeadLettersRequest request, StreamObserver<RedriveDeadLettersResponse> observer) {
    FakeJobService.serve(request, observer, redriveDeadLetters, requests, deadlines);
  }

  @Override
  public void purgeDeadLetters(
      PurgeDeadLettersRequest request, StreamObserver<PurgeDeadLettersResponse> observer) {
    FakeJobService.serve(request, observer, purgeDeadLetters, requests, deadlines);
  }

  @Override
  public void listWorkers(
      ListWorkersRequest request, StreamObserver<ListWorkersResponse> observer) {
    FakeJobService.serve(request, observer, listWorkers, requests, deadlines);
  }

  @Override
  public void listQueues(ListQueuesRequest request, StreamObserver<ListQueuesResponse> observer) {
    FakeJobService.serve(request, observer, listQueues, requests, deadlines);
  }

  @Override
  public void pauseQueue(PauseQueueRequest request, StreamObserver<PauseQueueResponse> observer) {
    FakeJobService.serve(request, observer, pauseQueue, requests, deadlines);
  }

  @Override
  public void resumeQueue(
      ResumeQueueRequest request, StreamObserver<ResumeQueueResponse> observer) {
    FakeJobService.serve(request, observer, resumeQueue, requests, deadlines);
  }

  @Override
  public void setQueueLimits(
      SetQueueLimitsRequest request, StreamObserver<SetQueueLimitsResponse> observer) {
    FakeJobService.serve(request, observer, setQueueLimits, requests, deadlines);
  }
}
