package io.antrean.coordinator.api;

import io.antrean.coordinator.core.QueueRates;
import io.antrean.coordinator.core.WorkerIdentity;
import io.antrean.coordinator.core.WorkerRegistry;
import io.antrean.proto.v1.GetQueueRatesResponse;
import io.antrean.proto.v1.ListWorkersResponse;
import io.antrean.proto.v1.RateMinute;
import io.antrean.proto.v1.WorkerInfo;
import io.antrean.proto.v1.WorkerLiveness;
import io.antrean.proto.v1.WorkerStatus;
import java.util.List;
import javax.annotation.Nullable;

/** Maps the worker registry and the queue rates between proto messages and core types. */
public final class WorkerMapper {
  private WorkerMapper() {}

  /** The identity a call carries, or null when it carries none. */
  @Nullable
  public static WorkerIdentity identity(boolean present, WorkerInfo info) {
    if (!present) {
      return null;
    }
    return new WorkerIdentity(
        info.getHost(),
        info.getVersion(),
        info.getQueuesList(),
        info.getTypesList(),
        Math.max(0, info.getConcurrency()),
        info.hasHeartbeatInterval()
            ? ProtoTime.requestDuration(info.getHeartbeatInterval(), "worker.heartbeat_interval")
            : null);
  }

  static ListWorkersResponse workers(List<WorkerRegistry.WorkerView> views) {
    ListWorkersResponse.Builder b = ListWorkersResponse.newBuilder();
    for (WorkerRegistry.WorkerView v : views) {
      b.addWorkers(
          WorkerStatus.newBuilder()
              .setWorkerId(v.workerId())
              .setInfo(info(v.identity()))
              .setLiveness(
                  v.liveness() == WorkerRegistry.Liveness.LIVE
                      ? WorkerLiveness.WORKER_LIVENESS_LIVE
                      : WorkerLiveness.WORKER_LIVENESS_LOST)
              .setJobsHeld(v.jobsHeld())
              .setFirstSeen(ProtoTime.timestamp(v.firstSeen()))
              .setLastSeen(ProtoTime.timestamp(v.lastSeen()))
              .setWaitingLeaseCalls(v.waitingLeaseCalls()));
    }
    return b.build();
  }

  private static WorkerInfo info(WorkerIdentity id) {
    WorkerInfo.Builder b =
        WorkerInfo.newBuilder()
            .setHost(id.host())
            .setVersion(id.version())
            .addAllQueues(id.queues())
            .addAllTypes(id.types())
            .setConcurrency(id.concurrency());
    if (id.heartbeatInterval() != null) {
      b.setHeartbeatInterval(ProtoTime.duration(id.heartbeatInterval()));
    }
    return b.build();
  }

  static GetQueueRatesResponse rates(List<QueueRates.Series> series) {
    GetQueueRatesResponse.Builder b = GetQueueRatesResponse.newBuilder();
    for (QueueRates.Series s : series) {
      io.antrean.proto.v1.QueueRates.Builder q = b.addQueuesBuilder().setQueue(s.queue());
      for (QueueRates.Minute m : s.minutes()) {
        q.addMinutes(
            RateMinute.newBuilder()
                .setStart(ProtoTime.timestamp(m.start()))
                .setEnqueued(m.enqueued())
                .setStarted(m.started())
                .setSucceeded(m.succeeded())
                .setFailed(m.failed()));
      }
    }
    return b.build();
  }
}
