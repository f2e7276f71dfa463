package io.antrean.coordinator.http;

import java.util.Map;
import java.util.Set;
import javax.annotation.Nullable;

/**
 * Which gRPC call each HTTP route stands for, so {@link
 * io.antrean.coordinator.security.AccessPolicy} judges both transports by the same rows. Routes
 * here as open need no identity; a route not in the table needs some identity (any role).
 */
final class RouteOperations {
  private static final String JOBS = "antrean.v1.JobService/";
  private static final String ADMIN = "antrean.v1.AdminService/";
  private static final String SCHEDULES = "antrean.v1.ScheduleService/";
  private static final Map<String, String> OPERATIONS =
      Map.ofEntries(
          Map.entry("POST /v1/jobs", JOBS + "Enqueue"),
          Map.entry("GET /v1/jobs", JOBS + "ListJobs"),
          Map.entry("GET /v1/jobs/{id}", JOBS + "GetJob"),
          Map.entry("GET /v1/jobs/{id}/dependencies", JOBS + "ListDependencies"),
          Map.entry("POST /v1/jobs/{id}:cancel", JOBS + "CancelJob"),
          Map.entry("GET /v1/stats", JOBS + "GetStats"),
          Map.entry("GET /v1/dead-letters", ADMIN + "ListDeadLetters"),
          Map.entry("GET /v1/dead-letters/{id}", ADMIN + "GetDeadLetter"),
          Map.entry("POST /v1/dead-letters:redrive", ADMIN + "RedriveDeadLetters"),
          Map.entry("POST /v1/dead-letters:purge", ADMIN + "PurgeDeadLetters"),
          Map.entry("GET /v1/queues", ADMIN + "ListQueues"),
          Map.entry("GET /v1/workers", ADMIN + "ListWorkers"),
          Map.entry("GET /v1/rates", ADMIN + "GetQueueRates"),
          Map.entry("POST /v1/queues/{queue}:pause", ADMIN + "PauseQueue"),
          Map.entry("POST /v1/queues/{queue}:resume", ADMIN + "ResumeQueue"),
          Map.entry("POST /v1/queues/{queue}:limits", ADMIN + "SetQueueLimits"),
          Map.entry("GET /v1/schedules", SCHEDULES + "ListSchedules"),
          Map.entry("POST /v1/schedules", SCHEDULES + "CreateSchedule"),
          Map.entry("GET /v1/schedules/{name}", SCHEDULES + "GetSchedule"),
          Map.entry("PUT /v1/schedules/{name}", SCHEDULES + "UpdateSchedule"),
          Map.entry("DELETE /v1/schedules/{name}", SCHEDULES + "DeleteSchedule"),
          Map.entry("POST /v1/schedules/{name}:pause", SCHEDULES + "PauseSchedule"),
          Map.entry("POST /v1/schedules/{name}:resume", SCHEDULES + "ResumeSchedule"));

  /** Probes, the dashboard's static files (they hold no data) and sign-in itself. */
  private static final Set<String> OPEN =
      Set.of(
          "GET /healthz",
          "GET /readyz",
          "GET /",
          "GET /dashboard/{name}",
          "POST /v1/session",
          "POST /v1/session:end");

  private RouteOperations() {}

  static boolean isOpen(String label) {
    return OPEN.contains(label);
  }

  /** The gRPC method the route answers for, or the label itself for routes of HTTP only. */
  static String of(String label) {
    String operation = OPERATIONS.get(label);
    return operation == null ? "http " + label : operation;
  }

  /** The queue a route's path or query names, if it names one there. */
  @Nullable
  static String queueParamOf(String label) {
    return label.equals("POST /v1/queues/{queue}:pause")
            || label.equals("POST /v1/queues/{queue}:resume")
            || label.equals("POST /v1/queues/{queue}:limits")
        ? "{queue}"
        : null;
  }
}
