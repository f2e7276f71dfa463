package io.antrean.coordinator.store.postgres;

import io.antrean.coordinator.job.Job;
import io.antrean.coordinator.job.JobState;
import io.antrean.coordinator.job.NewJob;
import io.antrean.coordinator.store.AnswerBudget;
import io.antrean.coordinator.store.Completion;
import io.antrean.coordinator.store.CompletionOutcome;
import io.antrean.coordinator.store.EnqueueResult;
import io.antrean.coordinator.store.LeaseSpec;
import io.antrean.coordinator.store.jdbc.Dependencies;
import io.antrean.coordinator.store.jdbc.LimitedLeases;
import io.antrean.coordinator.store.jdbc.WorkerWrites;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.BiConsumer;
import java.util.function.Supplier;
import javax.annotation.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Enqueues, leases and batches of completions one thread makes inside {@link
 * PostgresJobStore#writeTogether}: kept, not run, until the submissions are made, then run in the
 * order made in one transaction, so a job stored and leased to a waiting worker, or a worker's
 * completions and the lease that refills its slots, cost one commit instead of two in series. Their
 * futures complete once it has committed, on the thread that commits it.
 *
 * <p>A write gathered alone runs as it would have outside (an Enqueue joins the group of concurrent
 * ones, {@link GroupedInserts}): only a second write makes a transaction worth it. Each write still
 * fails on its own: if one throws, its future fails and the others run again without it (a lease
 * that fails costs the Enqueue before it nothing but that second try). A commit that fails fails
 * them all, since it may have committed.
 *
 * <p>A queue whose new jobs a lease in the same transaction took every one of (it found fewer jobs
 * than it asked for, not for the {@link AnswerBudget}, and takes all their types) is not announced:
 * no other Lease call, here or in another coordinator, would find anything there.
 *
 * <p>Not thread-safe: it belongs to the thread that gathers.
 */
final class WritesTogether {
  private static final Logger log = LoggerFactory.getLogger(WritesTogether.class);
  private final List<Write<?>> writes = new ArrayList<>();
  private final BiConsumer<List<String>, Instant> slotsFreed;

  /**
   * @param slotsFreed told, once a transaction here committed, of the queues of the jobs its
   *     completions ended, one entry per job (the store's own {@code completeAll} tells it too)
   */
  WritesTogether(BiConsumer<List<String>, Instant> slotsFreed) {
    this.slotsFreed = slotsFreed;
  }

  /**
   * One gathered write: its work in the transaction, the way it runs alone, and the future that
   * answers it.
   */
  private abstract static class Write<R> {
    final CompletableFuture<R> future = new CompletableFuture<>();
    private final Supplier<CompletableFuture<R>> alone;

    Write(Supplier<CompletableFuture<R>> alone) {
      this.alone = alone;
    }

    /** What it returned in the transaction (the last try of it), answered once that committed. */
    @Nullable R result;

    abstract R run(Tx tx) throws SQLException;

    void runIn(Tx tx) throws SQLException {
      result = run(tx);
    }

    /** Answers with {@link #result}, once its transaction has committed. */
    void committed() {
      future.complete(result);
    }

    void runAlone() {
      alone
          .get()
          .whenComplete(
              (result, error) -> {
                if (error == null) {
                  future.complete(result);
                } else {
                  future.completeExceptionally(
                      error instanceof CompletionException && error.getCause() != null
                          ? error.getCause()
                          : error);
                }
              });
    }
  }

  private static final class Enqueue extends Write<List<EnqueueResult>> {
    final List<NewJob> jobs;
    final Instant now;

    Enqueue(
        List<NewJob> jobs, Instant now, Supplier<CompletableFuture<List<EnqueueResult>>> alone) {
      super(alone);
      this.jobs = jobs;
      this.now = now;
    }

    @Override
    List<EnqueueResult> run(Tx tx) throws SQLException {
      return PostgresEnqueue.isOnePlainJob(jobs)
          ? List.of(PostgresEnqueue.enqueueOnePlain(tx, jobs.get(0), now))
          : Dependencies.enqueue(tx, jobs, now);
    }

    /** The types of the jobs this stored ready now, by queue, into {@code into}. */
    void readyTypes(Map<String, Set<String>> into) {
      for (EnqueueResult stored : result) {
        Job job = stored.job();
        if (!stored.deduplicated()
            && job.state() == JobState.PENDING
            && !job.runAt().isAfter(now)) {
          into.computeIfAbsent(job.queue(), q -> new HashSet<>()).add(job.type());
        }
      }
    }
  }

  private static final class Lease extends Write<List<Job>> {
    final LeaseSpec spec;
    final Instant now;
    final boolean limited;

    Lease(
        LeaseSpec spec,
        Instant now,
        boolean limited,
        Supplier<CompletableFuture<List<Job>>> alone) {
      super(alone);
      this.spec = spec;
      this.now = now;
      this.limited = limited;
    }

    @Override
    List<Job> run(Tx tx) throws SQLException {
      return limited ? LimitedLeases.leaseLocked(tx, spec, now) : tx.dialect().lease(tx, spec, now);
    }

    /** Whether this lease took every ready job of {@code types}. */
    boolean tookEvery(Set<String> types) {
      return !limited
          && AnswerBudget.tookEveryReady(result, spec.maxJobs())
          && (spec.types().isEmpty() || spec.types().containsAll(types));
    }
  }

  private final class CompleteAll extends Write<List<CompletionOutcome>> {
    final String workerId;
    final List<Completion> completions;
    final Instant now;

    CompleteAll(
        String workerId,
        List<Completion> completions,
        Instant now,
        Supplier<CompletableFuture<List<CompletionOutcome>>> alone) {
      super(alone);
      this.workerId = workerId;
      this.completions = completions;
      this.now = now;
    }

    @Override
    List<CompletionOutcome> run(Tx tx) throws SQLException {
      return WorkerWrites.completeAll(tx, workerId, completions, now);
    }

    /** The outcomes are durable whatever waking the waiters of limited queues meets. */
    @Override
    void committed() {
      try {
        slotsFreed.accept(CompletionOutcome.queuesOf(result), now);
      } catch (RuntimeException e) {
        log.warn(
            "waking the Lease calls waiting for the slots these jobs freed failed; the backup sweep"
                + " wakes them",
            e);
      }
      super.committed();
    }
  }

  /** Keeps an Enqueue of checked jobs; {@code alone} runs it when nothing joins it. */
  CompletableFuture<List<EnqueueResult>> enqueue(
      List<NewJob> jobs, Instant now, Supplier<CompletableFuture<List<EnqueueResult>>> alone) {
    return add(new Enqueue(jobs, now, alone));
  }

  /**
   * Keeps a lease of checked arguments; {@code limited} if its queue had limits at the caller's
   * last look ({@link LimitedLeases#leaseLocked}); {@code alone} runs it when nothing joins it.
   */
  CompletableFuture<List<Job>> lease(
      LeaseSpec spec, Instant now, boolean limited, Supplier<CompletableFuture<List<Job>>> alone) {
    return add(new Lease(spec, now, limited, alone));
  }

  /** Keeps a batch of checked completions; {@code alone} runs it when nothing joins it. */
  CompletableFuture<List<CompletionOutcome>> completeAll(
      String workerId,
      List<Completion> completions,
      Instant now,
      Supplier<CompletableFuture<List<CompletionOutcome>>> alone) {
    return add(new CompleteAll(workerId, completions, now, alone));
  }

  private <R> CompletableFuture<R> add(Write<R> write) {
    writes.add(write);
    return write.future;
  }

  /** Runs what was gathered, in one transaction if more than one, and answers every future. */
  void commit(PooledTransactions db) {
    List<Write<?>> left = new ArrayList<>(writes);
    writes.clear();
    while (left.size() > 1) {
      List<Write<?>> round = List.copyOf(left);
      int[] running = {0};
      try {
        db.inTransaction(
            "writes together",
            session -> {
              Tx tx = (Tx) session;
              for (int i = 0; i < round.size(); i++) {
                running[0] = i;
                round.get(i).runIn(tx);
              }
              running[0] = round.size();
              leaveUnannounced(tx, round);
              return null;
            });
      } catch (RuntimeException | Error e) {
        if (running[0] >= round.size()) {
          round.forEach(w -> w.future.completeExceptionally(e));
          return;
        }
        left.remove(running[0]).future.completeExceptionally(e);
        continue;
      }
      round.forEach(Write::committed);
      return;
    }
    if (!left.isEmpty()) {
      left.get(0).runAlone();
    }
  }

  /** Drops the queues whose new ready jobs a lease here took every one of from the announcement. */
  private static void leaveUnannounced(Tx tx, List<Write<?>> round) {
    Map<String, Set<String>> readyTypes = new HashMap<>();
    for (Write<?> write : round) {
      if (write instanceof Enqueue enqueue) {
        enqueue.readyTypes(readyTypes);
      }
    }
    for (Write<?> write : round) {
      if (write instanceof Lease lease) {
        Set<String> types = readyTypes.get(lease.spec.queue());
        if (types != null && lease.tookEvery(types)) {
          tx.readyQueues().remove(lease.spec.queue());
        }
      }
    }
  }
}
