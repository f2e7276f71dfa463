package io.antrean.coordinator.store.jdbc;

import io.antrean.coordinator.store.DeadLetterGroup;
import io.antrean.coordinator.store.DeadLetterQuery;
import io.antrean.coordinator.store.JobQuery;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import javax.annotation.Nullable;

/**
 * The listings both stores read alike: the SELECT of one page of jobs or dead letters, newest id
 * first, the forms of it {@link JobReads} cuts a page by, and the rows of the dead-letter growth
 * count. Each SELECT builder adds its parameters, in order, to the list it is given; the store
 * binds them.
 */
public final class JobListings {
  private static final String SELECT_JOBS = "SELECT " + JobRowReader.JOB_COLUMNS + " FROM jobs";
  private static final String ORDER_BY_ID = " ORDER BY id";

  private JobListings() {}

  /**
   * The SELECT of one page of {@link JobQuery}.
   *
   * @param errorContains as for {@link #deadLettersSql}
   * @param storedCeil as for {@link #deadLettersSql}, for {@code created_at}
   */
  public static String jobsSql(
      JobQuery query,
      List<Object> parameters,
      String errorContains,
      Function<Instant, Object> storedCeil) {
    StringBuilder sql = new StringBuilder(SELECT_JOBS).append(" WHERE 1 = 1");
    filter(sql, parameters, "queue = ?", query.queue());
    filter(sql, parameters, "type = ?", query.type());
    filter(sql, parameters, "state = ?", query.state() == null ? null : query.state().name());
    filter(
        sql,
        parameters,
        errorContains,
        query.errorContains() == null ? null : ErrorText.fold(query.errorContains()));
    filter(
        sql,
        parameters,
        "created_at >= ?",
        query.createdAfter() == null ? null : storedCeil.apply(query.createdAfter()));
    filter(
        sql,
        parameters,
        "created_at < ?",
        query.createdBefore() == null ? null : storedCeil.apply(query.createdBefore()));
    filter(sql, parameters, "idempotency_key = ?", query.idempotencyKey());
    if (query.oldestFirst()) {
      filter(sql, parameters, "id > ?", query.beforeId());
      sql.append(ORDER_BY_ID).append(" ASC LIMIT ?");
      parameters.add(query.limit() + 1);
      return sql.toString();
    }
    return pageSql(sql, parameters, query.beforeId(), query.limit());
  }

  /**
   * The SELECT of one page of {@link DeadLetterQuery}.
   *
   * @param errorContains the store's case-insensitive search of {@code last_error}, a condition
   *     with one parameter: the search term folded by {@link ErrorText#fold}
   * @param storedCeil the parameter a {@code finished_at} column compares with for an instant: the
   *     instant's first whole stored unit at or after it, in the store's encoding
   */
  public static String deadLettersSql(
      DeadLetterQuery query,
      List<Object> parameters,
      String errorContains,
      Function<Instant, Object> storedCeil) {
    StringBuilder sql = new StringBuilder(SELECT_JOBS).append(" WHERE state = 'FAILED'");
    filter(sql, parameters, "queue = ?", query.queue());
    filter(sql, parameters, "type = ?", query.type());
    filter(
        sql,
        parameters,
        errorContains,
        query.errorContains() == null ? null : ErrorText.fold(query.errorContains()));
    filter(
        sql,
        parameters,
        "finished_at >= ?",
        query.failedAfter() == null ? null : storedCeil.apply(query.failedAfter()));
    filter(
        sql,
        parameters,
        "finished_at < ?",
        query.failedBefore() == null ? null : storedCeil.apply(query.failedBefore()));
    return pageSql(sql, parameters, query.beforeId(), query.limit());
  }

  /**
   * A SELECT built here reading, instead of each job, its id and its size ({@code size}, the
   * store's expression): what {@link JobReads} cuts a page by.
   */
  static String idsAndSizes(String pageSql, String size) {
    checkBuiltHere(pageSql);
    return "SELECT id, " + size + " FROM jobs" + pageSql.substring(SELECT_JOBS.length());
  }

  /**
   * A SELECT built here kept to the ids from its page's first to its last: two parameters, the
   * lower and the higher id, follow its own before the limit.
   */
  static String withinIds(String pageSql) {
    checkBuiltHere(pageSql);
    int order = pageSql.lastIndexOf(ORDER_BY_ID);
    return pageSql.substring(0, order) + " AND id BETWEEN ? AND ?" + pageSql.substring(order);
  }

  private static void checkBuiltHere(String pageSql) {
    if (!pageSql.startsWith(SELECT_JOBS) || pageSql.lastIndexOf(ORDER_BY_ID) < 0) {
      throw new IllegalArgumentException("not a page SELECT of JobListings: " + pageSql);
    }
  }

  /**
   * Runs the store's dead-letter growth count and reads its rows: queue, type, last error and
   * number of jobs, in that order.
   */
  public static List<DeadLetterGroup> deadLetterGroups(PreparedStatement select)
      throws SQLException {
    List<DeadLetterGroup> groups = new ArrayList<>();
    try (ResultSet rows = select.executeQuery()) {
      while (rows.next()) {
        groups.add(
            new DeadLetterGroup(
                rows.getString(1), rows.getString(2), rows.getString(3), rows.getLong(4)));
      }
    }
    return groups;
  }

  /** Ends a SELECT with the page position: before {@code beforeId}, one row more than the page. */
  private static String pageSql(
      StringBuilder sql, List<Object> parameters, @Nullable Long beforeId, int limit) {
    filter(sql, parameters, "id < ?", beforeId);
    sql.append(ORDER_BY_ID).append(" DESC LIMIT ?");
    parameters.add(limit + 1);
    return sql.toString();
  }

  /** Adds {@code AND condition} with its one parameter, unless the value is null (no filter). */
  private static void filter(
      StringBuilder sql, List<Object> parameters, String condition, @Nullable Object value) {
    if (value != null) {
      sql.append(" AND ").append(condition);
      parameters.add(value);
    }
  }
}
