package io.antrean.coordinator.grpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.google.protobuf.Any;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.rpc.BadRequest;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.protobuf.StatusProto;
import java.util.List;

/** The fields an INVALID_ARGUMENT answer names in its {@code BadRequest} detail. */
final class ViolatedFields {
  private ViolatedFields() {}

  /**
   * Runs {@code call}, which must fail INVALID_ARGUMENT with a {@code BadRequest} detail, and
   * answers the fields that detail names, in its order.
   */
  static List<String> of(Runnable call) {
    StatusRuntimeException e = catchThrowableOfType(StatusRuntimeException.class, call::run);
    assertThat(e).as("the call failed").isNotNull();
    assertThat(e.getStatus().getCode()).as("%s", e).isEqualTo(Status.Code.INVALID_ARGUMENT);
    for (Any any : StatusProto.fromThrowable(e).getDetailsList()) {
      if (any.is(BadRequest.class)) {
        try {
          return any.unpack(BadRequest.class).getFieldViolationsList().stream()
              .map(BadRequest.FieldViolation::getField)
              .toList();
        } catch (InvalidProtocolBufferException x) {
          throw new AssertionError(x);
        }
      }
    }
    throw new AssertionError("no BadRequest in " + e);
  }
}
