package io.antrean.worker.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(20)
class WakeOneQueueTest {
  private final ExecutorService threads = Executors.newCachedThreadPool();

  @AfterEach
  void stopThreads() {
    threads.shutdownNow();
  }

  @Test
  void givesElementsFirstInFirstOut() throws InterruptedException {
    WakeOneQueue<Integer> queue = new WakeOneQueue<>();
    for (int i = 0; i < 5; i++) {
      queue.offer(i);
    }

    assertThat(List.of(queue.take(), queue.poll(), queue.poll(1, TimeUnit.SECONDS)))
        .containsExactly(0, 1, 2);
    List<Integer> rest = new ArrayList<>();
    assertThat(queue.drainTo(rest)).isEqualTo(2);
    assertThat(rest).containsExactly(3, 4);
    assertThat(queue).isEmpty();
  }

  @Test
  void elementsOfferedTogetherWakeOneWaitingThreadNotOneEach() throws Exception {
    WakeOneQueue<Integer> queue = new WakeOneQueue<>();
    List<Integer> taken = new CopyOnWriteArrayList<>();
    CountDownLatch allTaken = new CountDownLatch(5);
    for (int i = 0; i < 3; i++) {
      threads.execute(
          () -> {
            try {
              while (true) {
                taken.add(queue.take());
                allTaken.countDown();
              }
            } catch (InterruptedException e) {
              // stopThreads()
            }
          });
    }
    awaitTrue(() -> queue.waitingThreads() == 3);

    // Held, the lock keeps the signalled thread from reaching the queue while all five arrive.
    queue.lock().lock();
    try {
      for (int i = 0; i < 5; i++) {
        queue.offer(i);
      }
      assertThat(queue.signals()).isEqualTo(1);
    } finally {
      queue.lock().unlock();
    }

    assertThat(allTaken.await(5, TimeUnit.SECONDS)).isTrue();
    assertThat(taken).containsExactlyInAnyOrder(0, 1, 2, 3, 4);
  }

  @Test
  void aThreadThatLeavesElementsBehindWakesAnother() throws Exception {
    WakeOneQueue<Integer> queue = new WakeOneQueue<>();
    CompletableFuture<Integer> first = new CompletableFuture<>();
    CompletableFuture<Integer> second = new CompletableFuture<>();
    Future<?> takingOnce = threads.submit(() -> first.complete(takeQuietly(queue)));
    awaitTrue(() -> queue.waitingThreads() == 1);
    Future<?> takingAgain = threads.submit(() -> second.complete(takeQuietly(queue)));
    awaitTrue(() -> queue.waitingThreads() == 2);

    queue.lock().lock();
    try {
      queue.offer(1);
      queue.offer(2);
    } finally {
      queue.lock().unlock();
    }

    // The first to arrive takes one and, seeing one left, wakes the other, which takes it.
    assertThat(List.of(first.get(5, TimeUnit.SECONDS), second.get(5, TimeUnit.SECONDS)))
        .containsExactlyInAnyOrder(1, 2);
    assertThat(queue.signals()).isEqualTo(2);
    takingOnce.get(5, TimeUnit.SECONDS);
    takingAgain.get(5, TimeUnit.SECONDS);
  }

  @Test
  void manyProducersAndTakersLoseNothingAndRepeatNothing() throws Exception {
    WakeOneQueue<Integer> queue = new WakeOneQueue<>();
    int producers = 4;
    int perProducer = 5_000;
    ConcurrentHashMap<Integer, Integer> seen = new ConcurrentHashMap<>();
    CountDownLatch allSeen = new CountDownLatch(producers * perProducer);
    for (int t = 0; t < 4; t++) {
      threads.execute(
          () -> {
            try {
              while (true) {
                Integer e = queue.poll(1, TimeUnit.MILLISECONDS);
                if (e == null) {
                  e = queue.take();
                }
                seen.merge(e, 1, Integer::sum);
                allSeen.countDown();
              }
            } catch (InterruptedException e) {
              // stopThreads()
            }
          });
    }
    List<Future<?>> producing = new ArrayList<>();
    for (int p = 0; p < producers; p++) {
      int base = p * perProducer;
      producing.add(
          threads.submit(
              () -> {
                for (int i = 0; i < perProducer; i++) {
                  queue.offer(base + i);
                  if (i % 64 == 0) {
                    Thread.yield();
                  }
                }
              }));
    }
    for (Future<?> f : producing) {
      f.get(10, TimeUnit.SECONDS);
    }

    assertThat(allSeen.await(10, TimeUnit.SECONDS)).isTrue();
    assertThat(seen).hasSize(producers * perProducer);
    assertThat(seen.values()).allMatch(count -> count == 1);
    assertThat(queue).isEmpty();
  }

  @Test
  void aWaiterInterruptedAfterASignalWasSentAnswersItSoTheNextElementWakesTheNext()
      throws Exception {
    WakeOneQueue<Integer> queue = new WakeOneQueue<>();
    CompletableFuture<Thread> interruptedTaker = new CompletableFuture<>();
    Future<?> interrupted =
        threads.submit(
            () -> {
              interruptedTaker.complete(Thread.currentThread());
              return queue.take();
            });
    awaitTrue(() -> queue.waitingThreads() == 1);

    queue.lock().lock();
    try {
      Thread taker = interruptedTaker.get();
      taker.interrupt();
      // It leaves the condition's queue for the lock's, where this thread keeps it.
      awaitTrue(() -> queue.lock().hasQueuedThread(taker));
      queue.offer(1); // finds no thread to wake, and counts one on its way
      assertThat(queue.signals()).isEqualTo(1);
    } finally {
      queue.lock().unlock();
    }
    assertThatThrownBy(() -> interrupted.get(5, TimeUnit.SECONDS))
        .hasCauseInstanceOf(InterruptedException.class);
    assertThat(queue.poll()).isEqualTo(1);

    Future<Integer> next = threads.submit(queue::take);
    awaitTrue(() -> queue.waitingThreads() == 1);
    queue.offer(2);

    assertThat(next.get(5, TimeUnit.SECONDS)).isEqualTo(2);
    assertThat(queue.signals()).isEqualTo(2);
  }

  @Test
  void aWaitEndsWithAnInterruptOrATimeout() throws Exception {
    WakeOneQueue<Integer> queue = new WakeOneQueue<>();

    assertThat(queue.poll(10, TimeUnit.MILLISECONDS)).isNull();
    Thread.currentThread().interrupt();
    assertThatThrownBy(queue::take).isInstanceOf(InterruptedException.class);
    queue.offer(7);
    assertThat(queue.take()).isEqualTo(7);
  }

  private static Integer takeQuietly(WakeOneQueue<Integer> queue) {
    try {
      return queue.take();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    }
  }

  /**
   * Polls {@code condition}, yielding the processor between polls, for up to 5 seconds: for states
   * of the queue's waiters, which nothing signals.
   */
  private static void awaitTrue(BooleanSupplier condition) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() - deadline > 0) {
        throw new AssertionError("not true within 5 s");
      }
      Thread.yield();
    }
  }
}
