package io.antrean.coordinator.store.postgres;

import static io.antrean.coordinator.store.TestJobs.T0;
import static io.antrean.coordinator.store.TestJobs.at;
import static io.antrean.coordinator.store.TestJobs.job;
import static org.assertj.core.api.Assertions.assertThat;

import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.job.NewJob;
import io.antrean.coordinator.store.Completion;
import io.antrean.coordinator.store.LeaseClaim;
import io.antrean.coordinator.store.LeaseSpec;
import io.antrean.coordinator.store.jdbc.JobReads;
import io.antrean.coordinator.store.jdbc.LeaseWrites;
import io.antrean.coordinator.store.jdbc.WorkerWrites;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A heartbeat names its job by id and asks it to be RUNNING. Once the statistics say few jobs run
 * (an ANALYZE while none did, the usual case), the running jobs' expiry index looks like the
 * cheaper way to the row; it also holds an entry for every job that ran since the last vacuum, and
 * walking it for one id cost 45 ms on PostgreSQL 15. The renewal reads by the primary key; the
 * statements that select by expiry still walk the expiry index.
 */
@Timeout(60)
class PostgresLookupByIdPlanTest {
  @RegisterExtension static final TestPostgres postgres = new TestPostgres();

  private PostgresOptions options;
  private PostgresJobStore store;
  private Job finished;

  @BeforeEach
  void runManyJobsAfterAnAnalyzeThatSawNoneRunning() throws SQLException {
    options = postgres.freshSchema();
    store = PostgresJobStore.open(options);
    List<NewJob> jobs = new ArrayList<>();
    for (int i = 0; i < 5_000; i++) {
      jobs.add(job("t").build());
    }
    store.enqueue(jobs, T0);
    execute("ALTER TABLE jobs SET (autovacuum_enabled = false)");
    execute("ANALYZE jobs");
    List<Job> leased = store.lease(new LeaseSpec("w", "default", Set.of(), 4_000, at(30)), T0);
    List<Completion> done = new ArrayList<>();
    for (Job job : leased.subList(0, leased.size() - 25)) {
      done.add(new Completion(job.id(), LeaseClaim.of(job), null, null));
    }
    store.completeAll("w", done, at(1));
    finished = leased.get(0);
  }

  @AfterEach
  void close() throws SQLException {
    execute("ALTER TABLE jobs RESET (autovacuum_enabled)");
    store.close();
  }

  @Test
  void aHeartbeatReadsItsJobByThePrimaryKey() throws SQLException {
    String plan =
        explain(
            WorkerWrites.RENEW,
            at(60).atOffset(ZoneOffset.UTC),
            at(2).atOffset(ZoneOffset.UTC),
            null,
            finished.id(),
            finished.lease().fencingToken(),
            "w",
            new byte[32]);

    assertThat(plan).contains("jobs_pkey").doesNotContain("jobs_running_expiry");
  }

  @Test
  void theSweepAndTheTimersAtStartStillWalkTheExpiryIndex() throws SQLException {
    assertThat(
            explain(
                LeaseWrites.selectExpiredSql(PostgresDialect.INSTANCE),
                at(60).atOffset(ZoneOffset.UTC),
                100))
        .contains("jobs_running_expiry")
        .doesNotContain("Sort");
    assertThat(explain(JobReads.runningLeasesSql(PostgresDialect.INSTANCE)))
        .contains("jobs_running_expiry")
        .doesNotContain("Sort");
  }

  private String explain(String sql, Object... parameters) throws SQLException {
    try (Connection connection = postgres.connect(options)) {
      return PlanText.explain(connection, sql, parameters);
    }
  }

  private void execute(String sql) throws SQLException {
    postgres.execute(options, sql);
  }
}
