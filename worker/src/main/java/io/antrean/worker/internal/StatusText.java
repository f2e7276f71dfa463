package io.antrean.worker.internal;

import io.grpc.Status;

/** Short log text for a gRPC status: its code and description, without the cause's trace. */
final class StatusText {
  private StatusText() {}

  static String of(Status status) {
    String description = status.getDescription();
    return description == null ? status.getCode().name() : status.getCode() + ": " + description;
  }

  static String of(Throwable error) {
    return of(Status.fromThrowable(error));
  }
}
