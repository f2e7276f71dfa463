package io.antrean.coordinator.store.jdbc;

import io.antrean.coordinator.job.Decision;
import io.antrean.coordinator.job.DependencyFailure;
import io.antrean.coordinator.job.DependsOn;
import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.job.JobLifecycle;
import io.antrean.coordinator.job.JobMove;
import io.antrean.coordinator.job.JobState;
import io.antrean.coordinator.job.JobStatus;
import io.antrean.coordinator.job.NewJob;
import io.antrean.coordinator.store.Dependency;
import io.antrean.coordinator.store.EnqueueResult;
import io.antrean.coordinator.store.JobNotFoundException;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Job dependencies, in the same transaction as the event that moves them: a new job with {@code
 * depends_on} is stored WAITING (or PENDING at once, or given its failure policy at once); a
 * dependency that SUCCEEDS counts down its dependents' unmet dependencies and makes PENDING those
 * it was the last of; one that ends FAILED or CANCELLED gives each WAITING dependent its policy,
 * which cascades through {@link JobTransitions#apply}.
 *
 * <p>Exact with many writers: a new job locks its dependencies' rows (in id order) before reading
 * their states and marking them {@code has_dependents}; a completion of a marked job takes the
 * transaction path ({@link WorkerWrites#completeWithDependents}) whose row lock orders it with that
 * enqueue, and the count-down is one UPDATE per completed dependency, serialised on the dependent's
 * row lock, so exactly one completion sees the count reach zero. A dependency always has a lower id
 * than its dependents, so every transaction locks rows along the edges in the same direction.
 *
 * <p>Costless when unused: a job nobody depends on is completed by the dialect's one statement,
 * which skips rows with {@code has_dependents} set; only a dead-lettered or cancelled job (not the
 * hot path) looks up its dependents, through the index on {@code depends_on_id}.
 */
public final class Dependencies {
  private static final String LOCK_DEPENDENCY = "SELECT state FROM jobs WHERE id = ?";
  private static final String MARK_DEPENDED_ON =
      "UPDATE jobs SET has_dependents = true WHERE id = ? AND NOT has_dependents";
  private static final String INSERT_EDGE =
      "INSERT INTO job_dependencies (job_id, depends_on_id) VALUES (?, ?)";
  private static final String WAIT =
      "UPDATE jobs SET state = 'WAITING', unmet_dependencies = ?, on_dependency_failure = ?,"
          + " updated_at = ? WHERE id = ? RETURNING "
          + JobRowReader.JOB_COLUMNS;
  // One statement per completed dependency; the row lock of each dependent orders completions.
  private static final String ONE_MET =
      "UPDATE jobs SET unmet_dependencies = unmet_dependencies - 1,"
          + " state = CASE WHEN unmet_dependencies = 1 THEN 'PENDING' ELSE state END,"
          + " run_at = CASE WHEN unmet_dependencies = 1 AND run_at < ? THEN ? ELSE run_at END,"
          + " updated_at = ?"
          + " WHERE state = 'WAITING'"
          + " AND id IN (SELECT job_id FROM job_dependencies WHERE depends_on_id = ?)"
          + " RETURNING queue, state";
  private static final String WAITING_DEPENDENTS =
      "SELECT jobs.id, jobs.on_dependency_failure FROM job_dependencies"
          + " JOIN jobs ON jobs.id = job_dependencies.job_id"
          + " WHERE job_dependencies.depends_on_id = ? AND jobs.state = 'WAITING'"
          + " ORDER BY jobs.id";
  private static final String LIST =
      "SELECT d.depends_on_id, j.queue, j.type, j.state, j.result, j.result_content_type,"
          + " j.last_error FROM job_dependencies d JOIN jobs j ON j.id = d.depends_on_id"
          + " WHERE d.job_id = ? ORDER BY d.depends_on_id";
  private static final String EDGES_OF =
      "SELECT d.job_id, d.depends_on_id, j.on_dependency_failure FROM job_dependencies d"
          + " JOIN jobs j ON j.id = d.job_id WHERE d.job_id IN (%s)"
          + " ORDER BY d.job_id, d.depends_on_id";
  private static final String EDGES_OF_ONE =
      "SELECT depends_on_id FROM job_dependencies WHERE job_id = ?";

  private Dependencies() {}

  /**
   * Stores the jobs ({@link JdbcDialect#enqueue}) and then the dependencies of each new one that
   * has any.
   *
   * @throws JobNotFoundException if a dependency does not exist; nothing is stored
   */
  public static List<EnqueueResult> enqueue(JdbcSession session, List<NewJob> jobs, Instant now)
      throws SQLException {
    List<EnqueueResult> results = session.dialect().enqueue(session, jobs, now);
    if (jobs.stream().noneMatch(job -> job.dependsOn().any())) {
      return results;
    }
    lockAllInOrder(session, jobs);
    List<EnqueueResult> withDependencies = new ArrayList<>(results.size());
    for (int i = 0; i < results.size(); i++) {
      EnqueueResult result = results.get(i);
      DependsOn dependsOn = jobs.get(i).dependsOn();
      if (!dependsOn.any() || result.deduplicated()) {
        withDependencies.add(result);
      } else {
        withDependencies.add(new EnqueueResult(wait(session, result.job(), dependsOn, now), false));
      }
    }
    return withDependencies;
  }

  /**
   * When several jobs of a batch have dependencies, locks all of them in ascending id order first
   * (each job then locks its own again, which holds): two batches naming the same jobs queue up
   * behind each other instead of deadlocking.
   */
  private static void lockAllInOrder(JdbcSession session, List<NewJob> jobs) throws SQLException {
    if (jobs.stream().filter(job -> job.dependsOn().any()).count() < 2) {
      return;
    }
    TreeSet<Long> all = new TreeSet<>();
    jobs.forEach(job -> all.addAll(job.dependsOn().jobIds()));
    for (long dependencyId : all) {
      lockDependency(session, dependencyId);
    }
  }

  /** The new job waits for its dependencies, or moves on at once if they are already settled. */
  private static Job wait(JdbcSession session, Job job, DependsOn dependsOn, Instant now)
      throws SQLException {
    int unmet = 0;
    long failedId = 0;
    JobState failedState = null;
    for (long dependencyId : dependsOn.jobIds()) {
      JobState state = lockDependency(session, dependencyId);
      PreparedStatement edge = session.prepare(INSERT_EDGE);
      edge.setLong(1, job.id());
      edge.setLong(2, dependencyId);
      edge.executeUpdate();
      if (state == JobState.SUCCEEDED) {
        continue;
      }
      PreparedStatement mark = session.prepare(MARK_DEPENDED_ON);
      mark.setLong(1, dependencyId);
      mark.executeUpdate();
      unmet++;
      if (failedState == null && (state == JobState.FAILED || state == JobState.CANCELLED)) {
        failedId = dependencyId;
        failedState = state;
      }
    }
    PreparedStatement waitUpdate = session.prepare(WAIT);
    waitUpdate.setInt(1, unmet);
    waitUpdate.setString(2, dependsOn.onFailure().name());
    session.dialect().setInstant(waitUpdate, 3, now);
    waitUpdate.setLong(4, job.id());
    Job waiting = JobRows.single(session, waitUpdate, job.id());
    Decision<JobMove> move =
        failedState != null
            ? JobLifecycle.dependencyEnded(
                JobStatus.of(waiting), dependsOn.onFailure(), failedId, failedState)
            : unmet == 0 ? JobLifecycle.dependenciesMet(JobStatus.of(waiting), now) : null;
    return move == null ? waiting : JobTransitions.apply(session, job.id(), move.change(), now);
  }

  /** The dependency's state, its row locked against other writers until the work ends. */
  private static JobState lockDependency(JdbcSession session, long dependencyId)
      throws SQLException {
    PreparedStatement select = session.prepare(LOCK_DEPENDENCY + session.dialect().lockRows());
    select.setLong(1, dependencyId);
    try (ResultSet row = select.executeQuery()) {
      if (!row.next()) {
        throw new JobNotFoundException(dependencyId);
      }
      return JobState.valueOf(row.getString(1));
    }
  }

  /**
   * A redriven job that has dependencies checks them again, as a new job would: WAITING for the
   * unfinished ones, PENDING if all SUCCEEDED, or its policy again if one is FAILED or CANCELLED.
   *
   * @param job the job as the redrive left it (PENDING)
   */
  static Job redriven(JdbcSession session, Job job, Instant now) throws SQLException {
    PreparedStatement select = session.prepare(EDGES_OF_ONE);
    select.setLong(1, job.id());
    List<Long> ids = new ArrayList<>();
    try (ResultSet rows = select.executeQuery()) {
      while (rows.next()) {
        ids.add(rows.getLong(1));
      }
    }
    if (ids.isEmpty()) {
      return job;
    }
    PreparedStatement delete = session.prepare("DELETE FROM job_dependencies WHERE job_id = ?");
    delete.setLong(1, job.id());
    delete.executeUpdate();
    return wait(session, job, new DependsOn(ids, policyOf(session, job.id())), now);
  }

  private static DependencyFailure policyOf(JdbcSession session, long jobId) throws SQLException {
    PreparedStatement select =
        session.prepare("SELECT on_dependency_failure FROM jobs WHERE id = ?");
    select.setLong(1, jobId);
    try (ResultSet row = select.executeQuery()) {
      String policy = row.next() ? row.getString(1) : null;
      return policy == null ? DependencyFailure.CANCEL : DependencyFailure.valueOf(policy);
    }
  }

  /**
   * The job SUCCEEDED: each WAITING dependent counts it as met; those it was the last one of become
   * PENDING, and their queues are announced.
   */
  static void succeeded(JdbcSession session, long jobId, Instant now) throws SQLException {
    JdbcDialect dialect = session.dialect();
    PreparedStatement update = session.prepare(ONE_MET);
    dialect.setInstant(update, 1, now);
    dialect.setInstant(update, 2, now);
    dialect.setInstant(update, 3, now);
    update.setLong(4, jobId);
    try (ResultSet rows = update.executeQuery()) {
      while (rows.next()) {
        if (JobState.PENDING.name().equals(rows.getString(2))) {
          session.dependentsReady(rows.getString(1));
        }
      }
    }
  }

  /**
   * The job ended FAILED or CANCELLED: each WAITING dependent gets its policy ({@link
   * JobLifecycle#dependencyEnded}), which cascades to its own dependents.
   */
  static void ended(JdbcSession session, Job job, Instant now) throws SQLException {
    PreparedStatement select = session.prepare(WAITING_DEPENDENTS);
    select.setLong(1, job.id());
    Map<Long, DependencyFailure> dependents = new LinkedHashMap<>();
    try (ResultSet rows = select.executeQuery()) {
      while (rows.next()) {
        String policy = rows.getString(2);
        dependents.put(
            rows.getLong(1),
            policy == null ? DependencyFailure.CANCEL : DependencyFailure.valueOf(policy));
      }
    }
    for (Map.Entry<Long, DependencyFailure> dependent : dependents.entrySet()) {
      Job waiting = JobRows.findForUpdate(session, dependent.getKey()).orElse(null);
      if (waiting == null) {
        continue;
      }
      Decision<JobMove> move =
          JobLifecycle.dependencyEnded(
              JobStatus.of(waiting), dependent.getValue(), job.id(), job.state());
      if (!move.isRefused()) {
        JobTransitions.apply(session, waiting.id(), move.change(), now);
      }
    }
  }

  /** The jobs the job depends on, ascending by id; a dependency deleted since is left out. */
  public static List<Dependency> list(JdbcSession session, long jobId) throws SQLException {
    PreparedStatement select = session.prepare(LIST);
    select.setLong(1, jobId);
    List<Dependency> dependencies = new ArrayList<>();
    JdbcDialect dialect = session.dialect();
    try (ResultSet rows = select.executeQuery()) {
      while (rows.next()) {
        dependencies.add(
            new Dependency(
                rows.getLong(1),
                rows.getString(2),
                rows.getString(3),
                JobState.valueOf(rows.getString(4)),
                dialect.bytes(rows, 5),
                rows.getString(6),
                rows.getString(7)));
      }
    }
    return dependencies;
  }

  /** What each of the jobs depends on, for those that depend on any; by job id. */
  public static Map<Long, DependsOn> of(JdbcSession session, Collection<Long> jobIds)
      throws SQLException {
    Map<Long, DependsOn> found = new TreeMap<>();
    if (jobIds.isEmpty()) {
      return found;
    }
    PreparedStatement select =
        session.prepare(
            EDGES_OF.formatted(String.join(", ", jobIds.stream().map(id -> "?").toList())));
    int index = 1;
    for (long id : jobIds) {
      select.setLong(index++, id);
    }
    Map<Long, List<Long>> ids = new TreeMap<>();
    Map<Long, DependencyFailure> policies = new TreeMap<>();
    try (ResultSet rows = select.executeQuery()) {
      while (rows.next()) {
        long jobId = rows.getLong(1);
        ids.computeIfAbsent(jobId, id -> new ArrayList<>()).add(rows.getLong(2));
        String policy = rows.getString(3);
        policies.put(
            jobId, policy == null ? DependencyFailure.CANCEL : DependencyFailure.valueOf(policy));
      }
    }
    ids.forEach((jobId, list) -> found.put(jobId, new DependsOn(list, policies.get(jobId))));
    return found;
  }
}
