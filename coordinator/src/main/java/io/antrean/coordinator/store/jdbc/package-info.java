/**
 * What the two JDBC job stores, {@code store.sqlite} and {@code store.postgres}, have in common:
 * the assembly of domain records from result rows, the SQL of job listings, the history reads that
 * recognise a repeated report, and the argument checks of the {@link
 * io.antrean.coordinator.store.JobStore} SPI. Which state a job moves to is decided by {@link
 * io.antrean.coordinator.job.JobLifecycle}; the stores persist its decisions.
 *
 * <p>What differs per database stays in each store: the SQL of every change, how times are encoded
 * (SQLite: epoch microseconds in INTEGER columns; PostgreSQL: {@code timestamptz}), and how a call
 * reaches the database (SQLite's one writer thread with group commit; PostgreSQL's pooled
 * transactions).
 *
 * <p>New persistence goes here once for both databases: the durable schedules ({@link
 * io.antrean.coordinator.store.jdbc.JdbcScheduleStore}) keep their times as epoch microseconds in
 * both, so their SQL is shared, and run through each store's own transactions ({@link
 * io.antrean.coordinator.store.jdbc.ScheduleTransactions}).
 *
 * <p>Not a supported API: the types are public only because the stores live in other packages.
 */
package io.antrean.coordinator.store.jdbc;
