package io.antrean.coordinator.core;

import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.job.JobState;
import io.antrean.coordinator.store.DeadLetterQuery;
import io.antrean.coordinator.store.JobNotFoundException;
import io.antrean.coordinator.store.JobPage;
import io.antrean.coordinator.store.JobStore;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The dead-letter queue as operators use it: inspect, redrive (rate-limited, with a fresh attempt
 * budget) and purge, by ids or by filter. Thread-safe.
 */
public final class DeadLetters {
  private static final Logger log = LoggerFactory.getLogger(DeadLetters.class);
  static final double DEFAULT_RATE = 100;
  static final double MAX_RATE = 100_000;
  static final int DEFAULT_LIMIT = 10_000;
  static final int MAX_LIMIT = 100_000;
  private static final int CHUNK = 500;

  private final JobScheduler scheduler;
  private final JobStore store;

  public DeadLetters(JobScheduler scheduler) {
    this.scheduler = scheduler;
    this.store = scheduler.store();
  }

  public JobPage list(DeadLetterQuery query) {
    checkRange(query);
    return store.listDeadLetters(query);
  }

  /** Any job by id, in whatever state, or empty; for the per-queue check of calls by id. */
  public Optional<Job> find(long jobId) {
    return store.get(jobId);
  }

  /**
   * @throws JobNotFoundException for an unknown id
   * @throws NotDeadLetteredException for a job that is not FAILED
   */
  public Job get(long jobId) {
    Job job = scheduler.get(jobId);
    if (job.state() != JobState.FAILED) {
      throw new NotDeadLetteredException(jobId, job.state());
    }
    return job;
  }

  /**
   * Redrives the selected dead letters; the n-th becomes leasable n / rate seconds from now.
   *
   * @param ratePerSecond 0 for the default (100)
   * @param limit the most jobs redriven; 0 for the default (10,000)
   */
  public RedriveOutcome redrive(DeadLetterSelection selection, double ratePerSecond, int limit) {
    new Violations()
        .check(
            ratePerSecond >= 0 && ratePerSecond <= MAX_RATE,
            "rate_per_second",
            "must be between 0 and " + (long) MAX_RATE)
        .check(limit >= 0 && limit <= MAX_LIMIT, "limit", "must be between 0 and " + MAX_LIMIT)
        .throwIfAny();
    checkSelection(selection);
    double rate = ratePerSecond == 0 ? DEFAULT_RATE : ratePerSecond;
    int max = limit == 0 ? DEFAULT_LIMIT : limit;
    Duration spacing = Duration.ofNanos((long) (1e9 / rate));
    List<Long> candidates = selection.ids().isEmpty() ? matching(selection, max) : selection.ids();
    Instant now = scheduler.clock().instant();
    List<Long> redriven = new ArrayList<>();
    Instant last = null;
    for (int i = 0; i < candidates.size() && redriven.size() < max; i += CHUNK) {
      List<Long> chunk = candidates.subList(i, Math.min(candidates.size(), i + CHUNK));
      chunk = chunk.subList(0, Math.min(chunk.size(), max - redriven.size()));
      Instant first = now.plus(spacing.multipliedBy(redriven.size()));
      for (Job job : store.redrive(chunk, first, spacing, now)) {
        redriven.add(job.id());
        last = job.runAt();
        scheduler.wakeAt(job.queue(), job.runAt());
      }
    }
    Set<Long> done = new HashSet<>(redriven);
    List<Long> skipped = candidates.stream().filter(id -> !done.contains(id)).distinct().toList();
    log.info("redrove {} dead letters ({} skipped) at {}/s", redriven.size(), skipped.size(), rate);
    return new RedriveOutcome(redriven, selection.ids().isEmpty() ? List.of() : skipped, last);
  }

  /** Deletes the selected dead letters with their history; returns how many. */
  public int purge(DeadLetterSelection selection) {
    checkSelection(selection);
    int purged = 0;
    if (!selection.ids().isEmpty()) {
      List<Long> ids = List.copyOf(new LinkedHashSet<>(selection.ids()));
      for (int i = 0; i < ids.size(); i += CHUNK) {
        purged += store.purgeDeadLetters(ids.subList(i, Math.min(ids.size(), i + CHUNK)));
      }
    } else {
      // Each round purges the first page again; a page may end before CHUNK (AnswerBudget), so
      // the rounds go on while a page says another follows.
      DeadLetterQuery first = filterOf(selection).withPage(null, CHUNK);
      JobPage page;
      do {
        page = store.listDeadLetters(first);
        List<Long> ids = page.jobs().stream().map(Job::id).toList();
        purged += ids.isEmpty() ? 0 : store.purgeDeadLetters(ids);
      } while (page.nextBeforeId() != null);
    }
    log.info("purged {} dead letters", purged);
    return purged;
  }

  private List<Long> matching(DeadLetterSelection selection, int max) {
    List<Long> ids = new ArrayList<>();
    DeadLetterQuery query = filterOf(selection).withPage(null, Math.min(CHUNK, max));
    while (ids.size() < max) {
      JobPage page = store.listDeadLetters(query);
      page.jobs().forEach(j -> ids.add(j.id()));
      if (page.nextBeforeId() == null) {
        break;
      }
      query = query.withPage(page.nextBeforeId(), Math.min(CHUNK, max - ids.size()));
    }
    // Oldest first, so a redrive replays in the order things broke.
    Collections.reverse(ids);
    return ids;
  }

  private static DeadLetterQuery filterOf(DeadLetterSelection s) {
    return s.filter() == null
        ? new DeadLetterQuery(null, null, null, null, null, null, 1)
        : s.filter();
  }

  private static void checkSelection(DeadLetterSelection s) {
    boolean filtered = s.filter() != null && !s.filter().matchesEverything();
    new Violations()
        .check(
            !s.ids().isEmpty() || filtered || s.all(),
            "ids",
            "give job ids, a filter, or all=true to select every dead letter")
        .check(s.ids().stream().allMatch(id -> id > 0), "ids", "job ids must be positive")
        .throwIfAny();
    if (s.filter() != null) {
      checkRange(s.filter());
    }
  }

  private static void checkRange(DeadLetterQuery q) {
    new Violations()
        .check(
            q.failedAfter() == null
                || q.failedBefore() == null
                || q.failedAfter().isBefore(q.failedBefore()),
            "filter.failed_before",
            "must be after failed_after")
        .throwIfAny();
  }
}
