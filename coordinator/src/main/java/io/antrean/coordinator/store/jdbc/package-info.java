/**
 * What the two JDBC job stores, {@code store.sqlite} and {@code store.postgres}, have in common:
 * the decisions that do not depend on the database (which state a job moves to, how its attempt is
 * recorded, what its last error says), the assembly of domain records from result rows, the SQL of
 * job listings, and the argument checks of the {@link io.antrean.coordinator.store.JobStore} SPI.
 *
 * <p>What differs per database stays in each store: the SQL of every change, how times are encoded
 * (SQLite: epoch microseconds in INTEGER columns; PostgreSQL: {@code timestamptz}), and how a call
 * reaches the database (SQLite's one writer thread with group commit; PostgreSQL's pooled
 * transactions).
 *
 * <p>Not a supported API: the types are public only because the stores live in other packages.
 */
package io.antrean.coordinator.store.jdbc;
