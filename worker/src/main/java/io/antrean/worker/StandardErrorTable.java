package io.antrean.worker;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.UndeclaredThrowableException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;

/** The default failure table; see {@link ErrorClassifier} for the rules. Stateless. */
final class StandardErrorTable implements ErrorClassifier {
  static final StandardErrorTable INSTANCE = new StandardErrorTable();

  /** Bounds the walk along a cause chain, which may in theory be cyclic. */
  private static final int MAX_CAUSE_DEPTH = 64;

  private StandardErrorTable() {}

  @Override
  public FailureKind classify(Throwable error) {
    FailureKind marked = markedKind(error);
    if (marked != null) {
      return marked;
    }
    return byType(unwrap(error));
  }

  /** The kind named by the outermost marker exception in the cause chain, or null. */
  private static FailureKind markedKind(Throwable error) {
    Throwable current = error;
    for (int depth = 0; current != null && depth < MAX_CAUSE_DEPTH; depth++) {
      if (current instanceof RetryableException) {
        return FailureKind.RETRYABLE;
      }
      if (current instanceof PermanentException) {
        return FailureKind.PERMANENT;
      }
      current = current.getCause();
    }
    return null;
  }

  private static Throwable unwrap(Throwable error) {
    Throwable current = error;
    for (int depth = 0; depth < MAX_CAUSE_DEPTH; depth++) {
      if (!isWrapper(current) || current.getCause() == null) {
        return current;
      }
      current = current.getCause();
    }
    return current;
  }

  private static boolean isWrapper(Throwable error) {
    return error instanceof ExecutionException
        || error instanceof CompletionException
        || error instanceof InvocationTargetException
        || error instanceof UndeclaredThrowableException;
  }

  private static FailureKind byType(Throwable error) {
    if (error instanceof TimeoutException
        || error instanceof IOException
        || error instanceof UncheckedIOException) {
      return FailureKind.RETRYABLE;
    }
    if (error instanceof RuntimeException || error instanceof Error) {
      return FailureKind.PERMANENT;
    }
    return FailureKind.RETRYABLE;
  }
}
