package io.antrean.coordinator.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.antrean.coordinator.store.StoreFutures;
import io.antrean.coordinator.store.StoreUnavailableException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class GroupedInsertsTest {
  private final List<List<String>> groups = Collections.synchronizedList(new ArrayList<>());
  private final ExecutorService callers = Executors.newCachedThreadPool();

  @AfterEach
  void stopCallers() {
    callers.shutdownNow();
  }

  /** Records each group and answers each item with its upper case. */
  private List<String> record(List<String> items) {
    groups.add(List.copyOf(items));
    return items.stream().map(String::toUpperCase).toList();
  }

  /** Writes "first" held until released, then as {@code then} does; every other group at once. */
  private static GroupedInserts.Writer<String, String> holdingFirst(
      HeldWrite first, GroupedInserts.Writer<String, String> then) {
    return items -> {
      if (items.contains("first")) {
        first.hold();
      }
      return then.write(items);
    };
  }

  /** Submits "first" on another thread and returns once its write holds the only slot. */
  private void writeFirstAndHold(GroupedInserts<String, String> inserts, HeldWrite first)
      throws InterruptedException {
    callers.submit(() -> inserts.submit("first"));
    first.awaitWriting();
  }

  @Test
  void anItemAloneIsWrittenAtOnceOnItsCallersThread() {
    Thread caller = Thread.currentThread();
    List<Thread> writers = new ArrayList<>();
    GroupedInserts<String, String> inserts =
        new GroupedInserts<>(
            items -> {
              writers.add(Thread.currentThread());
              return record(items);
            },
            e -> true,
            2,
            10,
            Runnable::run);

    CompletableFuture<String> result = inserts.submit("a");

    assertThat(result).isCompletedWithValue("A");
    assertThat(groups).containsExactly(List.of("a"));
    assertThat(writers).containsExactly(caller);
  }

  @Test
  void itemsArrivingWhileEverySlotWritesShareTheNextGroup() throws Exception {
    HeldWrite first = new HeldWrite();
    GroupedInserts<String, String> inserts =
        new GroupedInserts<>(holdingFirst(first, this::record), e -> true, 1, 10, Runnable::run);
    Future<CompletableFuture<String>> firstResult = callers.submit(() -> inserts.submit("first"));
    first.awaitWriting();

    CompletableFuture<String> b = inserts.submit("b");
    CompletableFuture<String> c = inserts.submit("c");
    assertThat(b).as("left to the busy writer").isNotDone();
    first.release();

    assertThat(firstResult.get(10, TimeUnit.SECONDS).get(10, TimeUnit.SECONDS)).isEqualTo("FIRST");
    assertThat(b.get(10, TimeUnit.SECONDS)).isEqualTo("B");
    assertThat(c.get(10, TimeUnit.SECONDS)).isEqualTo("C");
    assertThat(groups).containsExactly(List.of("first"), List.of("b", "c"));
  }

  @Test
  void aCallerReturnsOnceItsOwnItemIsWrittenAndLeavesTheRestToTheDrainer() throws Exception {
    HeldWrite first = new HeldWrite();
    HeldWrite second = new HeldWrite();
    ExecutorService drainer = Executors.newSingleThreadExecutor();
    try {
      GroupedInserts<String, String> inserts =
          new GroupedInserts<>(
              holdingFirst(
                  first,
                  items -> {
                    if (items.contains("b")) {
                      second.hold();
                    }
                    return record(items);
                  }),
              e -> true,
              1,
              1,
              drainer);
      Future<CompletableFuture<String>> firstCall = callers.submit(() -> inserts.submit("first"));
      first.awaitWriting();
      CompletableFuture<String> b = inserts.submit("b");
      CompletableFuture<String> c = inserts.submit("c");
      first.release();

      // The first caller is back while "b", left behind, is still being written by the drainer.
      second.awaitWriting();
      assertThat(firstCall.get(10, TimeUnit.SECONDS)).isCompletedWithValue("FIRST");
      assertThat(b).isNotDone();
      second.release();

      assertThat(b.get(10, TimeUnit.SECONDS)).isEqualTo("B");
      assertThat(c.get(10, TimeUnit.SECONDS)).isEqualTo("C");
      assertThat(groups).containsExactly(List.of("first"), List.of("b"), List.of("c"));
    } finally {
      drainer.shutdownNow();
    }
  }

  @Test
  void groupsHoldAtMostMaxGroupItems() throws Exception {
    HeldWrite first = new HeldWrite();
    GroupedInserts<String, String> inserts =
        new GroupedInserts<>(holdingFirst(first, this::record), e -> true, 1, 2, Runnable::run);
    writeFirstAndHold(inserts, first);
    List<CompletableFuture<String>> waiting = new ArrayList<>();
    for (String item : List.of("b", "c", "d", "e", "f")) {
      waiting.add(inserts.submit(item));
    }
    first.release();

    CompletableFuture.allOf(waiting.toArray(CompletableFuture[]::new)).get(10, TimeUnit.SECONDS);
    assertThat(groups)
        .containsExactly(List.of("first"), List.of("b", "c"), List.of("d", "e"), List.of("f"));
  }

  @Test
  void aGroupThatWroteNothingIsWrittenAgainItemByItemSoOnlyTheRefusedItemFails() throws Exception {
    HeldWrite first = new HeldWrite();
    GroupedInserts<String, String> inserts =
        new GroupedInserts<>(
            holdingFirst(
                first,
                items -> {
                  if (items.contains("bad")) {
                    groups.add(List.copyOf(items));
                    throw new IllegalStateException("the server refused 'bad'");
                  }
                  return record(items);
                }),
            e -> e instanceof IllegalStateException,
            1,
            10,
            Runnable::run);
    writeFirstAndHold(inserts, first);
    CompletableFuture<String> good = inserts.submit("good");
    CompletableFuture<String> bad = inserts.submit("bad");
    CompletableFuture<String> also = inserts.submit("also");
    first.release();

    assertThat(good.get(10, TimeUnit.SECONDS)).isEqualTo("GOOD");
    assertThat(also.get(10, TimeUnit.SECONDS)).isEqualTo("ALSO");
    assertThatThrownBy(() -> StoreFutures.join(bad))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("refused 'bad'");
    assertThat(groups)
        .containsExactly(
            List.of("first"),
            List.of("good", "bad", "also"),
            List.of("good"),
            List.of("bad"),
            List.of("also"));
  }

  @Test
  void aGroupThatMayHaveCommittedFailsAsAWholeAndIsNotWrittenAgain() throws Exception {
    HeldWrite first = new HeldWrite();
    GroupedInserts<String, String> inserts =
        new GroupedInserts<>(
            holdingFirst(
                first,
                items -> {
                  if (items.contains("first")) {
                    return record(items);
                  }
                  groups.add(List.copyOf(items));
                  throw new StoreUnavailableException("the connection was lost at commit", null);
                }),
            e -> !(e instanceof StoreUnavailableException),
            1,
            10,
            Runnable::run);
    writeFirstAndHold(inserts, first);
    CompletableFuture<String> b = inserts.submit("b");
    CompletableFuture<String> c = inserts.submit("c");
    first.release();

    for (CompletableFuture<String> lost : List.of(b, c)) {
      assertThatThrownBy(() -> StoreFutures.join(lost))
          .isInstanceOf(StoreUnavailableException.class);
    }
    assertThat(groups).containsExactly(List.of("first"), List.of("b", "c"));
  }

  @Test
  void manyCallersAtOnceGetEachTheirOwnResult() throws Exception {
    GroupedInserts<String, String> inserts =
        new GroupedInserts<>(this::record, e -> true, 3, 16, Runnable::run);
    List<Future<String>> results = new ArrayList<>();
    for (int i = 0; i < 2_000; i++) {
      String item = "item-" + i;
      results.add(callers.submit(() -> StoreFutures.join(inserts.submit(item))));
    }

    for (int i = 0; i < results.size(); i++) {
      assertThat(results.get(i).get(10, TimeUnit.SECONDS)).isEqualTo("ITEM-" + i);
    }
    assertThat(groups.stream().mapToInt(List::size).sum()).isEqualTo(2_000);
    assertThat(groups).allSatisfy(group -> assertThat(group).hasSizeLessThanOrEqualTo(16));
  }
}
