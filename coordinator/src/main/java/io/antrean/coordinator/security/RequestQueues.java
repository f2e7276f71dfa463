package io.antrean.coordinator.security;

import io.antrean.proto.v1.CompleteBatchRequest;
import io.antrean.proto.v1.CreateScheduleRequest;
import io.antrean.proto.v1.EnqueueBatchRequest;
import io.antrean.proto.v1.EnqueueRequest;
import io.antrean.proto.v1.GetStatsRequest;
import io.antrean.proto.v1.LeaseRequest;
import io.antrean.proto.v1.ListDeadLettersRequest;
import io.antrean.proto.v1.ListJobsRequest;
import io.antrean.proto.v1.PauseQueueRequest;
import io.antrean.proto.v1.PurgeDeadLettersRequest;
import io.antrean.proto.v1.RedriveDeadLettersRequest;
import io.antrean.proto.v1.ResumeQueueRequest;
import io.antrean.proto.v1.SetQueueLimitsRequest;
import io.antrean.proto.v1.UpdateScheduleRequest;
import java.util.ArrayList;
import java.util.List;

/**
 * The queues a request names, for the per-queue part of authorization. A name left empty where the
 * protocol reads it as {@code default} is {@code default}; a filter left empty, which means every
 * queue, is {@link AccessPolicy#ALL_QUEUES}. Requests that name a job by id name no queue, but a
 * CompleteBatch that leases after its items names the queue of that lease.
 */
public final class RequestQueues {
  private static final String DEFAULT = "default";

  private RequestQueues() {}

  /** The queues {@code request} names; empty for a request that names none. */
  public static List<String> of(Object request) {
    if (request instanceof EnqueueRequest r) {
      return List.of(orDefault(r.getQueue()));
    }
    if (request instanceof EnqueueBatchRequest r) {
      List<String> queues = new ArrayList<>(r.getJobsCount());
      r.getJobsList().forEach(j -> queues.add(orDefault(j.getQueue())));
      return queues;
    }
    if (request instanceof CreateScheduleRequest r) {
      return List.of(orDefault(r.getSchedule().getTemplate().getQueue()));
    }
    if (request instanceof UpdateScheduleRequest r) {
      return List.of(orDefault(r.getSchedule().getTemplate().getQueue()));
    }
    if (request instanceof LeaseRequest r) {
      return List.of(orDefault(r.getQueue()));
    }
    if (request instanceof CompleteBatchRequest r && r.hasLeaseNext()) {
      return List.of(orDefault(r.getLeaseNext().getQueue()));
    }
    if (request instanceof PauseQueueRequest r) {
      return List.of(orDefault(r.getQueue()));
    }
    if (request instanceof ResumeQueueRequest r) {
      return List.of(orDefault(r.getQueue()));
    }
    if (request instanceof SetQueueLimitsRequest r) {
      return List.of(orDefault(r.getQueue()));
    }
    if (request instanceof ListJobsRequest r) {
      return List.of(orAll(r.getQueue()));
    }
    if (request instanceof GetStatsRequest r) {
      return List.of(orAll(r.getQueue()));
    }
    if (request instanceof ListDeadLettersRequest r) {
      return List.of(orAll(r.getFilter().getQueue()));
    }
    if (request instanceof RedriveDeadLettersRequest r) {
      return List.of(orAll(r.getFilter().getQueue()));
    }
    if (request instanceof PurgeDeadLettersRequest r) {
      return List.of(orAll(r.getFilter().getQueue()));
    }
    return List.of();
  }

  private static String orDefault(String queue) {
    return queue.isEmpty() ? DEFAULT : queue;
  }

  private static String orAll(String queue) {
    return queue.isEmpty() ? AccessPolicy.ALL_QUEUES : queue;
  }
}
