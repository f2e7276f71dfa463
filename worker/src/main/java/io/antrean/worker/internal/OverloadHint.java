package io.antrean.worker.internal;

import com.google.protobuf.Any;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.rpc.ErrorInfo;
import com.google.rpc.RetryInfo;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.protobuf.StatusProto;
import java.time.Duration;
import java.util.Optional;

/**
 * Reads the coordinator's overload refusal: {@code RESOURCE_EXHAUSTED} with {@code ErrorInfo}
 * reason {@code OVERLOADED} and a {@code RetryInfo} delay. Such a call did nothing and may be sent
 * again after the delay; the worker's loops wait at least that long. Stateless.
 */
final class OverloadHint {
  /** The longest hint honoured; a larger one is cut to this. */
  static final Duration MAX_WAIT = Duration.ofSeconds(30);

  private OverloadHint() {}

  /** Whether {@code e} is the coordinator refusing the call as overloaded. */
  static boolean isOverloaded(StatusRuntimeException e) {
    if (e.getStatus().getCode() != Status.Code.RESOURCE_EXHAUSTED) {
      return false;
    }
    com.google.rpc.Status details = StatusProto.fromThrowable(e);
    if (details == null) {
      return false;
    }
    for (Any any : details.getDetailsList()) {
      if (any.is(ErrorInfo.class)) {
        try {
          return "OVERLOADED".equals(any.unpack(ErrorInfo.class).getReason());
        } catch (InvalidProtocolBufferException malformed) {
          return false;
        }
      }
    }
    return false;
  }

  /** The coordinator's retry delay, at most {@link #MAX_WAIT}, when it sent one. */
  static Optional<Duration> retryAfter(StatusRuntimeException e) {
    com.google.rpc.Status details = StatusProto.fromThrowable(e);
    if (details == null) {
      return Optional.empty();
    }
    for (Any any : details.getDetailsList()) {
      if (any.is(RetryInfo.class)) {
        try {
          com.google.protobuf.Duration d = any.unpack(RetryInfo.class).getRetryDelay();
          if (d.getSeconds() < 0 || d.getNanos() < 0) {
            return Optional.empty();
          }
          Duration delay = Duration.ofSeconds(d.getSeconds(), d.getNanos());
          return Optional.of(delay.compareTo(MAX_WAIT) > 0 ? MAX_WAIT : delay);
        } catch (InvalidProtocolBufferException malformed) {
          return Optional.empty();
        }
      }
    }
    return Optional.empty();
  }

  /** The backoff's next delay, or the coordinator's hint when that is longer. */
  static Duration delay(Backoff backoff, StatusRuntimeException e) {
    Duration next = backoff.nextDelay();
    return retryAfter(e).filter(hint -> hint.compareTo(next) > 0).orElse(next);
  }
}
