package io.antrean.worker.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class HandlerThreadsTest {
  private final List<HandlerThreads> made = new ArrayList<>();

  @AfterEach
  void shutDown() {
    made.forEach(HandlerThreads::shutdownNow);
  }

  @Test
  void runsNoMoreThanConcurrencyJobsWhileHandlersBlockInAManagedBlock() throws Exception {
    HandlerThreads threads = handlerThreads(2);
    CompletableFuture<String> answer = new CompletableFuture<>();
    List<Thread> blocked = new CopyOnWriteArrayList<>();
    AtomicBoolean thirdStarted = new AtomicBoolean();
    for (int i = 0; i < 2; i++) {
      threads.execute(
          () -> {
            blocked.add(Thread.currentThread());
            answer.join(); // blocks through ForkJoinPool.managedBlock
          });
    }
    threads.execute(() -> thirdStarted.set(true));

    // A stand-in thread would be started inside managedBlock, before the handler parks.
    awaitTrue(
        () ->
            blocked.size() == 2
                && blocked.stream().allMatch(t -> t.getState() == Thread.State.WAITING));
    assertThat(threads.threadCount()).isEqualTo(2);
    assertThat(thirdStarted).isFalse();

    answer.complete("done");
    awaitTrue(thirdStarted::get);
  }

  @Test
  void startsJobsInTheOrderTheyWereHandedOverFromDifferentThreads() throws Exception {
    HandlerThreads threads = handlerThreads(4);
    CountDownLatch releaseOne = new CountDownLatch(1);
    CountDownLatch releaseOthers = new CountDownLatch(1);
    CountDownLatch busy = new CountDownLatch(4);
    threads.execute(
        () -> {
          busy.countDown();
          awaitQuietly(releaseOne);
        });
    for (int i = 0; i < 3; i++) {
      threads.execute(
          () -> {
            busy.countDown();
            awaitQuietly(releaseOthers);
          });
    }
    busy.await();
    List<Integer> order = new CopyOnWriteArrayList<>();
    for (int i = 0; i < 40; i++) {
      int job = i;
      // Each from a thread of its own, one after the other, as the poll loop and the completion
      // queue take turns.
      Thread handing = new Thread(() -> threads.execute(() -> order.add(job)), "hand-" + i);
      handing.start();
      handing.join();
    }
    // One thread set free runs the 40 one after the other.
    releaseOne.countDown();

    awaitTrue(() -> order.size() == 40);
    releaseOthers.countDown();
    assertThat(order).containsExactlyElementsOf(range(40));
  }

  @Test
  void drainWaitingTakesTheJobsNotYetStartedInOrderAndTheyNeverRunHere() throws Exception {
    HandlerThreads threads = handlerThreads(1);
    CountDownLatch release = new CountDownLatch(1);
    CountDownLatch busy = new CountDownLatch(1);
    List<String> ran = new CopyOnWriteArrayList<>();
    threads.execute(
        () -> {
          busy.countDown();
          awaitQuietly(release);
          ran.add("running");
        });
    busy.await();
    List<Runnable> handedOver = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      String name = "waiting-" + i;
      Runnable job = () -> ran.add(name);
      handedOver.add(job);
      threads.execute(job);
    }

    assertThat(threads.drainWaiting()).containsExactlyElementsOf(handedOver);
    release.countDown();
    threads.execute(() -> ran.add("after"));

    awaitTrue(() -> ran.contains("after"));
    assertThat(ran).containsExactly("running", "after");
  }

  @Test
  void refusesJobsAfterShutdownNowAndKeepsNoneWaiting() {
    HandlerThreads threads = handlerThreads(2);
    threads.shutdownNow();

    assertThatThrownBy(() -> threads.execute(() -> {}))
        .isInstanceOf(RejectedExecutionException.class);
    assertThat(threads.drainWaiting()).isEmpty();
  }

  @Test
  void shutdownNowInterruptsARunningHandler() throws Exception {
    HandlerThreads threads = handlerThreads(1);
    CountDownLatch running = new CountDownLatch(1);
    CountDownLatch interrupted = new CountDownLatch(1);
    threads.execute(
        () -> {
          running.countDown();
          try {
            new CountDownLatch(1).await();
          } catch (InterruptedException e) {
            interrupted.countDown();
          }
        });
    running.await();

    threads.shutdownNow();

    assertThat(interrupted.await(5, TimeUnit.SECONDS)).isTrue();
  }

  @Test
  void threadsAreNamedAreNoDaemonsAndCarryTheBuildersContextClassLoader() throws Exception {
    ClassLoader builders = new URLClassLoader(new URL[0], getClass().getClassLoader());
    Thread current = Thread.currentThread();
    ClassLoader before = current.getContextClassLoader();
    HandlerThreads threads;
    current.setContextClassLoader(builders);
    try {
      threads = handlerThreads(1);
    } finally {
      current.setContextClassLoader(before);
    }
    CompletableFuture<Thread> ranOn = new CompletableFuture<>();

    threads.execute(() -> ranOn.complete(Thread.currentThread()));

    Thread thread = ranOn.get(5, TimeUnit.SECONDS);
    assertThat(thread.getName()).isEqualTo("antrean-handler-1");
    assertThat(thread.isDaemon()).isFalse();
    assertThat(thread.getContextClassLoader()).isSameAs(builders);
  }

  private HandlerThreads handlerThreads(int concurrency) {
    HandlerThreads threads = new HandlerThreads(concurrency);
    made.add(threads);
    return threads;
  }

  private static List<Integer> range(int n) {
    List<Integer> numbers = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      numbers.add(i);
    }
    return numbers;
  }

  private static void awaitQuietly(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Polls {@code condition} every millisecond for up to 5 seconds. */
  private static void awaitTrue(BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() - deadline > 0) {
        throw new AssertionError("not true within 5 s");
      }
      Thread.sleep(1);
    }
  }
}
