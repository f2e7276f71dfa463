package io.antrean.coordinator.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import io.antrean.coordinator.store.sqlite.young.YoungJobLog;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The segments a fold lets go are deleted once its commit is durable, on the deleting thread, not
 * on the writer's.
 */
@Timeout(30)
class FoldedSegmentsTest {
  @TempDir Path directory;

  /** Holds what it is handed until the test runs it. */
  private static final class HeldTasks extends AbstractExecutorService {
    final List<Runnable> tasks = new ArrayList<>();
    boolean shutDown;

    @Override
    public void execute(Runnable task) {
      tasks.add(task);
    }

    void runAll() {
      tasks.forEach(Runnable::run);
      tasks.clear();
    }

    @Override
    public void shutdown() {
      shutDown = true;
    }

    @Override
    public List<Runnable> shutdownNow() {
      shutDown = true;
      return List.copyOf(tasks);
    }

    @Override
    public boolean isShutdown() {
      return shutDown;
    }

    @Override
    public boolean isTerminated() {
      return shutDown;
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) {
      return true;
    }
  }

  private long segments() throws IOException {
    try (Stream<Path> files = Files.list(directory)) {
      return files.filter(f -> f.getFileName().toString().matches("young-\\d{20}\\.log")).count();
    }
  }

  @Test
  void aFoldsSegmentsAreHandedToTheDeletingThreadOnceItsCommitIsDurable() throws IOException {
    WalSync sync = new WalSync(() -> {});
    HeldTasks deletions = new HeldTasks();
    try (YoungJobLog log = YoungJobLog.open(directory, 0, e -> {})) {
      FoldedSegments folded = new FoldedSegments(log, sync, deletions);
      log.append("a".getBytes(StandardCharsets.UTF_8));
      log.startSegment();
      log.append("b".getBytes(StandardCharsets.UTF_8));
      log.startSegment();
      long commit = sync.committed();
      folded.folded(2, commit); // a and b folded
      assertThat(segments()).isEqualTo(3);

      folded.dropDurable();
      assertThat(deletions.tasks).isEmpty(); // the fold's commit is not durable yet

      sync.awaitDurable(commit);
      folded.dropDurable();
      assertThat(segments()).isEqualTo(3); // not deleted on this thread
      assertThat(deletions.tasks).hasSize(1);
      deletions.runAll();
      assertThat(segments()).isEqualTo(1);

      folded.dropDurable();
      assertThat(deletions.tasks).isEmpty(); // handed over once
      folded.close();
      assertThat(deletions.shutDown).isTrue();
    }
  }
}
