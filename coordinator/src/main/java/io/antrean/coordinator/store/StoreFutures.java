package io.antrean.coordinator.store;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.function.Supplier;

/** Helpers between the store's synchronous and asynchronous forms. */
public final class StoreFutures {
  private StoreFutures() {}

  /** Runs {@code call} now, on this thread; its value or its exception completes the future. */
  public static <T> CompletableFuture<T> now(Supplier<T> call) {
    try {
      return CompletableFuture.completedFuture(call.get());
    } catch (RuntimeException | Error e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  /**
   * Waits for the future and returns its value, or throws what failed it as it was thrown (a {@link
   * RuntimeException} or {@link Error}, not wrapped).
   *
   * @throws StoreUnavailableException if interrupted while waiting (the change may still happen)
   */
  public static <T> T join(CompletableFuture<T> future) {
    try {
      return future.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new StoreUnavailableException(
          "interrupted while waiting for the store; the change may still be made", e);
    } catch (ExecutionException e) {
      throw unwrap(e.getCause());
    }
  }

  /** The exception a failed future carries, unwrapped from {@link CompletionException}. */
  public static RuntimeException unwrap(Throwable failure) {
    Throwable cause = failure;
    while ((cause instanceof CompletionException || cause instanceof ExecutionException)
        && cause.getCause() != null) {
      cause = cause.getCause();
    }
    if (cause instanceof RuntimeException runtime) {
      return runtime;
    }
    if (cause instanceof Error error) {
      throw error;
    }
    return new IllegalStateException(cause);
  }
}
