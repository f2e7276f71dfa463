package io.antrean.coordinator.store;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * The behaviour every {@link JobStore} must show, as one suite. A backend's test extends this class
 * and says how to open a fresh, empty store; it then runs every test of the contracts below, which
 * are backend-neutral. A backend that lacks a capability skips that test with an assumption.
 *
 * <p>Time is a parameter: tests pass instants around {@link TestJobs#T0} and never sleep.
 * Concurrency tests start their threads behind a latch and carry a timeout.
 *
 * @see ProducerContract
 * @see LeaseContract
 * @see WorkerReportContract
 * @see LeaseHolderContract
 * @see LeaseIdContract
 * @see BatchedCompletionContract
 * @see RepeatedReportContract
 * @see AttemptCountContract
 * @see LeaseExpiryContract
 * @see ReadContract
 * @see JobBrowsingContract
 * @see DeadLetterContract
 * @see RedriveContract
 * @see RetentionContract
 * @see QueueControlContract
 * @see ConcurrencyLimitContract
 * @see RateLimitContract
 * @see ScheduleContract
 * @see UniqueKeyContract
 * @see DependencyContract
 * @see PayloadContract
 * @see AnswerBudgetContract
 */
public abstract class JobStoreContract
    implements ProducerContract,
        LeaseContract,
        WorkerReportContract,
        LeaseHolderContract,
        LeaseIdContract,
        BatchedCompletionContract,
        RepeatedReportContract,
        AttemptCountContract,
        LeaseExpiryContract,
        ReadContract,
        JobBrowsingContract,
        DeadLetterContract,
        RedriveContract,
        RetentionContract,
        QueueControlContract,
        ConcurrencyLimitContract,
        RateLimitContract,
        ScheduleContract,
        UniqueKeyContract,
        DependencyContract,
        PayloadContract,
        AnswerBudgetContract {

  /** The store under test; a backend's own tests may replace it (after reopening, say). */
  protected JobStore store;

  /** A fresh, empty store; the contract closes it after each test. */
  protected abstract JobStore openStore() throws Exception;

  @Override
  public JobStore store() {
    return store;
  }

  @BeforeEach
  void openFreshStore() throws Exception {
    store = openStore();
  }

  @AfterEach
  void closeStore() {
    if (store != null) {
      store.close();
    }
  }
}
