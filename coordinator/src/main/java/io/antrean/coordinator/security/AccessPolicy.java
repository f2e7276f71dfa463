package io.antrean.coordinator.security;

import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * The one table of which roles may make which call. Calls are named by their gRPC method ({@code
 * antrean.v1.JobService/Enqueue}); each HTTP route names the gRPC method it answers for, so both
 * transports are judged by the same rows.
 *
 * <table>
 *   <caption>roles per call</caption>
 *   <tr><th>calls</th><th>roles</th></tr>
 *   <tr><td>Enqueue, EnqueueBatch, CancelJob</td><td>producer, admin</td></tr>
 *   <tr><td>GetJob, ListJobs, WatchJob, GetStats</td><td>producer, reader, admin</td></tr>
 *   <tr><td>ListDependencies</td><td>producer, reader, admin, worker</td></tr>
 *   <tr><td>WorkerService (all)</td><td>worker</td></tr>
 *   <tr><td>AdminService ListQueues, ListDeadLetters, GetDeadLetter, ListWorkers,
 *       GetQueueRates</td><td>reader, admin</td></tr>
 *   <tr><td>AdminService PauseQueue, ResumeQueue, SetQueueLimits, RedriveDeadLetters,
 *       PurgeDeadLetters</td>
 *       <td>admin</td></tr>
 *   <tr><td>ScheduleService GetSchedule, ListSchedules</td><td>reader, admin</td></tr>
 *   <tr><td>ScheduleService CreateSchedule, UpdateSchedule, DeleteSchedule, PauseSchedule,
 *       ResumeSchedule</td><td>admin</td></tr>
 *   <tr><td>grpc.health.v1 (health checks)</td><td>no authentication</td></tr>
 *   <tr><td>anything else (reflection, dashboard page, metrics)</td><td>any identity</td></tr>
 * </table>
 */
public final class AccessPolicy {
  private static final Set<Role> ANY = EnumSet.allOf(Role.class);
  private static final Set<Role> PRODUCE = EnumSet.of(Role.PRODUCER, Role.ADMIN);
  private static final Set<Role> READ = EnumSet.of(Role.PRODUCER, Role.READER, Role.ADMIN);
  private static final Set<Role> OPERATE_READ = EnumSet.of(Role.READER, Role.ADMIN);
  private static final Set<Role> OPERATE = EnumSet.of(Role.ADMIN);
  private static final Set<Role> WORK = EnumSet.of(Role.WORKER);
  // A fan-in handler reads what the jobs it waited for produced.
  private static final Set<Role> READ_OR_WORK =
      EnumSet.of(Role.PRODUCER, Role.READER, Role.ADMIN, Role.WORKER);
  private static final String JOBS = "antrean.v1.JobService/";
  private static final String ADMIN = "antrean.v1.AdminService/";
  private static final String WORKERS = "antrean.v1.WorkerService/";
  private static final String SCHEDULES = "antrean.v1.ScheduleService/";

  private static final Map<String, Set<Role>> ROLES =
      Map.ofEntries(
          Map.entry(JOBS + "Enqueue", PRODUCE),
          Map.entry(JOBS + "EnqueueBatch", PRODUCE),
          Map.entry(JOBS + "Produce", PRODUCE),
          Map.entry(JOBS + "CancelJob", PRODUCE),
          Map.entry(JOBS + "GetJob", READ),
          Map.entry(JOBS + "ListDependencies", READ_OR_WORK),
          Map.entry(JOBS + "ListJobs", READ),
          Map.entry(JOBS + "WatchJob", READ),
          Map.entry(JOBS + "GetStats", READ),
          Map.entry(ADMIN + "ListQueues", OPERATE_READ),
          Map.entry(ADMIN + "ListDeadLetters", OPERATE_READ),
          Map.entry(ADMIN + "GetDeadLetter", OPERATE_READ),
          Map.entry(ADMIN + "ListWorkers", OPERATE_READ),
          Map.entry(ADMIN + "GetQueueRates", OPERATE_READ),
          Map.entry(ADMIN + "PauseQueue", OPERATE),
          Map.entry(ADMIN + "ResumeQueue", OPERATE),
          Map.entry(ADMIN + "SetQueueLimits", OPERATE),
          Map.entry(ADMIN + "RedriveDeadLetters", OPERATE),
          Map.entry(ADMIN + "PurgeDeadLetters", OPERATE),
          Map.entry(SCHEDULES + "GetSchedule", OPERATE_READ),
          Map.entry(SCHEDULES + "ListSchedules", OPERATE_READ),
          Map.entry(SCHEDULES + "CreateSchedule", OPERATE),
          Map.entry(SCHEDULES + "UpdateSchedule", OPERATE),
          Map.entry(SCHEDULES + "DeleteSchedule", OPERATE),
          Map.entry(SCHEDULES + "PauseSchedule", OPERATE),
          Map.entry(SCHEDULES + "ResumeSchedule", OPERATE));

  private AccessPolicy() {}

  /** True for calls anyone may make without credentials: health checks. */
  public static boolean isOpen(String operation) {
    return operation.startsWith("grpc.health.v1.Health/");
  }

  /** The roles that allow {@code operation}. */
  public static Set<Role> rolesFor(String operation) {
    if (operation.startsWith(WORKERS)) {
      return WORK;
    }
    return ROLES.getOrDefault(operation, ANY);
  }

  /**
   * @throws AccessDeniedException (PERMISSION_DENIED) when none of the identity's roles allows the
   *     call
   */
  public static void check(Identity identity, String operation) {
    if (!identity.hasAnyOf(rolesFor(operation))) {
      throw AccessDeniedException.roleNotAllowed(identity.name(), operation);
    }
  }

  /**
   * @param queue the queue the request names; {@link #ALL_QUEUES} for a request over every queue
   * @throws AccessDeniedException (PERMISSION_DENIED) when the identity may not name it
   */
  public static void checkQueue(Identity identity, String queue) {
    if (!identity.mayUse(queue)) {
      throw AccessDeniedException.queueNotAllowed(identity.name(), queue);
    }
  }

  /** What a request over every queue names: only an identity limited to no queue may send it. */
  public static final String ALL_QUEUES = "*";
}
