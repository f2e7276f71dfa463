package io.antrean.proto;

import io.antrean.proto.v1.RequestError;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.protobuf.StatusProto;

/**
 * A stream request's {@link RequestError} and the status its unary call would have failed with,
 * each way, details included: a {@code RequestError} has the fields and numbers of {@code
 * google.rpc.Status}.
 */
public final class RequestErrors {
  private RequestErrors() {}

  /** The error a stream answers for a request that failed with {@code failure}. */
  public static RequestError of(Throwable failure) {
    com.google.rpc.Status status = StatusProto.fromThrowable(failure);
    if (status == null) {
      Status plain = Status.fromThrowable(failure);
      return RequestError.newBuilder()
          .setCode(plain.getCode().value())
          .setMessage(plain.getDescription() == null ? "" : plain.getDescription())
          .build();
    }
    return RequestError.newBuilder()
        .setCode(status.getCode())
        .setMessage(status.getMessage())
        .addAllDetails(status.getDetailsList())
        .build();
  }

  /** The exception the unary call would have thrown, with the error's details in its trailers. */
  public static StatusRuntimeException toException(RequestError error) {
    return StatusProto.toStatusRuntimeException(
        com.google.rpc.Status.newBuilder()
            .setCode(error.getCode())
            .setMessage(error.getMessage())
            .addAllDetails(error.getDetailsList())
            .build());
  }
}
