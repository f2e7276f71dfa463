/**
 * The one persistence layer of the two JDBC job stores, {@code store.sqlite} and {@code
 * store.postgres}. {@link io.antrean.coordinator.store.jdbc.JdbcJobStore} implements the {@link
 * io.antrean.coordinator.store.JobStore} SPI once; every change and read is written once here
 * ({@code WorkerWrites}, {@code LeaseWrites}, {@code ProducerWrites}, {@code JobTransitions},
 * {@code JobReads}, {@code JobRows}, {@code AttemptRows}, {@code RetentionWrites}, {@code
 * QueueControlRows}, {@code DeadLetterQueue}) and takes a {@link
 * io.antrean.coordinator.store.jdbc.JdbcSession} (a connection and its dialect) and the time. Which
 * state a job moves to is decided by {@link io.antrean.coordinator.job.JobLifecycle}; the code here
 * persists its decisions.
 *
 * <p>What differs per database is its {@link io.antrean.coordinator.store.jdbc.JdbcDialect}: how
 * instants are stored, a few SQL fragments (row locks, index hints, the error search), how a
 * failure is classified, where its Flyway migrations live, and the hot paths it does its own way
 * (lease, enqueue, batched completion, stats). How work reaches the database stays in each store:
 * SQLite's single writer thread with group commit and its read connections; PostgreSQL's pooled
 * transactions, LISTEN/NOTIFY and advisory locks.
 *
 * <p>New persistence code goes here when its SQL is the same for both databases. The durable
 * schedules ({@link io.antrean.coordinator.store.jdbc.JdbcScheduleStore}) keep their times as epoch
 * microseconds in both databases, so their SQL needs no dialect; they run through the store's own
 * read and transaction runners ({@link io.antrean.coordinator.store.jdbc.ScheduleTransactions}).
 *
 * <p>Not a supported API: the types are public only because the stores live in other packages.
 */
package io.antrean.coordinator.store.jdbc;
