package io.antrean.coordinator.store.postgres;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;
import javax.annotation.Nullable;

/**
 * Writes items that arrive at the same time together, each group in one transaction: a caller that
 * finds a writing slot free writes what is waiting (its own item among it) until its own item is
 * written; a caller that finds every slot taken leaves its item for those writers and gets a
 * future. At one call at a time each item is written by its own caller at once; under load the
 * items that arrive while a group is being written share the next group, its statements' round trip
 * and its commit. A caller whose item is written while others still wait hands them to the {@code
 * drainer} (a thread that writes on in the same way) instead of writing them itself, so no caller
 * waits longer than its own group.
 *
 * <p>A group that failed in a way that surely wrote nothing (the server refused a statement and the
 * transaction rolled back) is written again item by item, so an item the server refuses fails
 * alone; any other failure (a lost connection, where the commit may have happened) fails every item
 * of the group with it, as it would have failed each call on its own. Futures complete on the
 * writing thread, in the order of the group. Thread-safe.
 *
 * @param <T> what is written
 * @param <R> what writing one item gives back
 */
final class GroupedInserts<T, R> {
  /** Writes a group in one transaction: all or nothing, one result per item, in order. */
  interface Writer<T, R> {
    List<R> write(List<T> items);
  }

  private record Waiting<T, R>(T item, CompletableFuture<R> result) {}

  private final Writer<T, R> writer;
  private final Predicate<RuntimeException> wroteNothing;
  private final int maxGroup;
  private final Semaphore slots;
  private final ConcurrentLinkedQueue<Waiting<T, R>> waiting = new ConcurrentLinkedQueue<>();
  private final Executor drainer;
  private final AtomicBoolean drainQueued = new AtomicBoolean();

  /**
   * @param wroteNothing whether a group that failed with the exception surely wrote nothing, so its
   *     items may be written again one by one
   * @param writers how many groups may be written at once (each holds a connection meanwhile)
   * @param maxGroup the most items in one group
   * @param drainer runs the writing of what callers left behind once their own items were written
   */
  GroupedInserts(
      Writer<T, R> writer,
      Predicate<RuntimeException> wroteNothing,
      int writers,
      int maxGroup,
      Executor drainer) {
    if (writers < 1 || maxGroup < 1) {
      throw new IllegalArgumentException(
          "writers and maxGroup must be positive, got " + writers + " and " + maxGroup);
    }
    this.writer = writer;
    this.wroteNothing = wroteNothing;
    this.maxGroup = maxGroup;
    this.slots = new Semaphore(writers);
    this.drainer = drainer;
  }

  /**
   * Writes the item, or leaves it to a writer busy with an earlier group. The future completes once
   * the item's group has committed, possibly on another caller's thread.
   */
  CompletableFuture<R> submit(T item) {
    Waiting<T, R> entry = new Waiting<>(item, new CompletableFuture<>());
    waiting.add(entry);
    writeWhileWaiting(entry.result());
    return entry.result();
  }

  /**
   * Writes groups while items wait and a slot is free, until {@code own} is done (never, for null).
   * A writer re-checks the queue after giving its slot back, so an item left behind when every slot
   * was taken is not stranded; one left behind by a caller whose own item is done goes to the
   * drainer.
   */
  private void writeWhileWaiting(@Nullable CompletableFuture<R> own) {
    while (!waiting.isEmpty() && slots.tryAcquire()) {
      try {
        writeWaiting();
      } finally {
        slots.release();
      }
      if (own != null && own.isDone() && (waiting.isEmpty() || handedToDrainer())) {
        return;
      }
    }
  }

  /** True once the drainer will write what waits; false if it refused (it is shut down). */
  private boolean handedToDrainer() {
    if (!drainQueued.compareAndSet(false, true)) {
      return true; // a drain is queued and has not started yet: it will see what waits now
    }
    try {
      drainer.execute(
          () -> {
            drainQueued.set(false);
            writeWhileWaiting(null);
          });
      return true;
    } catch (RejectedExecutionException e) {
      drainQueued.set(false);
      return false;
    }
  }

  private void writeWaiting() {
    List<Waiting<T, R>> group = new ArrayList<>();
    Waiting<T, R> next;
    while (group.size() < maxGroup && (next = waiting.poll()) != null) {
      group.add(next);
    }
    if (!group.isEmpty()) {
      write(group);
    }
  }

  private void write(List<Waiting<T, R>> group) {
    List<T> items = new ArrayList<>(group.size());
    for (Waiting<T, R> entry : group) {
      items.add(entry.item());
    }
    List<R> results;
    try {
      results = writer.write(items);
    } catch (RuntimeException e) {
      if (group.size() > 1 && wroteNothing.test(e)) {
        for (Waiting<T, R> entry : group) {
          write(List.of(entry));
        }
      } else {
        group.forEach(entry -> entry.result().completeExceptionally(e));
      }
      return;
    } catch (Error e) {
      group.forEach(entry -> entry.result().completeExceptionally(e));
      throw e;
    }
    if (results.size() != group.size()) {
      IllegalStateException wrong =
          new IllegalStateException(
              "a group of " + group.size() + " gave " + results.size() + " results");
      group.forEach(entry -> entry.result().completeExceptionally(wrong));
      return;
    }
    for (int i = 0; i < group.size(); i++) {
      group.get(i).result().complete(results.get(i));
    }
  }
}
