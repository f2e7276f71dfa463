package io.antrean.worker.internal;

import java.util.AbstractQueue;
import java.util.Collection;
import java.util.Iterator;
import java.util.Objects;
import java.util.Queue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;
import javax.annotation.concurrent.GuardedBy;

/**
 * The handler threads' queue of jobs not yet started: first in, first out, unbounded (the worker
 * never holds more jobs than its {@link SlotPool} allows), and sparing with wake-ups. An element
 * wakes a waiting thread only when no signalled thread is still on its way back to the queue, and a
 * thread that takes an element and leaves others behind wakes one more the same way. So the threads
 * woken for a Lease answer of many short jobs are about as many as the jobs take wake-ups' time to
 * run (each woken thread runs jobs one after another until none is left), where an {@code
 * ArrayBlockingQueue} signals a thread for each job; jobs that take long still get a thread each,
 * one wake-up after the other. The handler threads' {@code ThreadPoolExecutor} takes its jobs from
 * here.
 *
 * <p>Thread-safe.
 */
final class WakeOneQueue<E> extends AbstractQueue<E> implements BlockingQueue<E> {
  private final Queue<E> items = new ConcurrentLinkedQueue<>();
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition notEmpty = lock.newCondition();

  /** Threads waiting in {@link #take} or {@link #poll(long, TimeUnit)}. */
  @GuardedBy("lock")
  private int waiting;

  /**
   * From a signal until the next waiting thread stops waiting (whichever it is, and however its
   * wait ended): while it is set, some thread is bound to look at the queue again.
   */
  @GuardedBy("lock")
  private boolean oneOnItsWay;

  /** Signals sent since the queue was made, whether or not one found a thread to wake. */
  @GuardedBy("lock")
  private long signals;

  @Override
  public boolean offer(E e) {
    items.add(Objects.requireNonNull(e));
    wakeOneIfNoneOnItsWay();
    return true;
  }

  @Override
  public void put(E e) {
    offer(e);
  }

  @Override
  public boolean offer(E e, long timeout, TimeUnit unit) {
    return offer(e);
  }

  @Override
  public E poll() {
    E e = items.poll();
    if (e != null && !items.isEmpty()) {
      wakeOneIfNoneOnItsWay();
    }
    return e;
  }

  @Override
  public E take() throws InterruptedException {
    E e;
    while ((e = poll()) == null) {
      waitForAnElement(Long.MAX_VALUE);
    }
    return e;
  }

  @Override
  public E poll(long timeout, TimeUnit unit) throws InterruptedException {
    long nanos = unit.toNanos(timeout);
    for (E e = poll(); ; e = poll()) {
      if (e != null || nanos <= 0) {
        return e;
      }
      nanos = waitForAnElement(nanos);
    }
  }

  @Override
  public E peek() {
    return items.peek();
  }

  @Override
  public int size() {
    return items.size();
  }

  @Override
  public boolean isEmpty() {
    return items.isEmpty();
  }

  @Override
  public Iterator<E> iterator() {
    return items.iterator();
  }

  @Override
  public boolean remove(Object o) {
    return items.remove(o);
  }

  @Override
  public int remainingCapacity() {
    return Integer.MAX_VALUE;
  }

  @Override
  public int drainTo(Collection<? super E> c) {
    return drainTo(c, Integer.MAX_VALUE);
  }

  @Override
  public int drainTo(Collection<? super E> c, int maxElements) {
    Objects.requireNonNull(c);
    if (c == this) {
      throw new IllegalArgumentException("cannot drain a queue into itself");
    }
    int drained = 0;
    for (E e; drained < maxElements && (e = items.poll()) != null; drained++) {
      c.add(e);
    }
    return drained;
  }

  /** How many times a waiting thread was signalled since the queue was made. */
  long signals() {
    return underLock(() -> signals);
  }

  /**
   * Threads waiting for an element; once the caller holds {@link #lock()}, each of them is in the
   * condition's wait queue, or leaving it (interrupted or timed out) and waiting for the lock.
   */
  int waitingThreads() {
    return (int) underLock(() -> waiting);
  }

  /**
   * The lock that offers and waiting threads take. Tests hold it so that signalled threads cannot
   * reach the queue yet (an offer takes it again: it is reentrant).
   */
  ReentrantLock lock() {
    return lock;
  }

  /**
   * Waits, if the queue is still empty once the lock is held, until signalled, interrupted or
   * {@code nanos} have passed.
   *
   * @return the nanoseconds left to wait
   */
  private long waitForAnElement(long nanos) throws InterruptedException {
    lock.lockInterruptibly();
    try {
      // Checked under the lock: an element offered from here on finds this thread waiting.
      if (!items.isEmpty()) {
        return nanos;
      }
      waiting++;
      boolean interrupted = true;
      try {
        long left = notEmpty.awaitNanos(nanos);
        interrupted = false;
        return left;
      } finally {
        arrived(interrupted);
      }
    } finally {
      lock.unlock();
    }
  }

  private long underLock(LongSupplier read) {
    lock.lock();
    try {
      return read.getAsLong();
    } finally {
      lock.unlock();
    }
  }

  private void wakeOneIfNoneOnItsWay() {
    lock.lock();
    try {
      if (!oneOnItsWay && waiting > 0) {
        oneOnItsWay = true;
        signals++;
        notEmpty.signal();
      }
    } finally {
      lock.unlock();
    }
  }

  /**
   * A waiting thread stopped waiting: signalled, timed out or interrupted. Whichever it is, it
   * answers the signal on its way, if there is one: at worst that costs one wake-up more later. A
   * thread that was interrupted leaves by an exception, without looking at the queue again, so it
   * passes the wake-up on to a waiting thread if elements are left.
   */
  @GuardedBy("lock")
  private void arrived(boolean interrupted) {
    waiting--;
    oneOnItsWay = false;
    if (interrupted && !items.isEmpty()) {
      wakeOneIfNoneOnItsWay();
    }
  }
}
