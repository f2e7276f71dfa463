package io.antrean.client;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Any;
import com.google.rpc.BadRequest;
import com.google.rpc.Code;
import com.google.rpc.ErrorInfo;
import io.grpc.Status;
import io.grpc.protobuf.StatusProto;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A failure a stub threw or gave its observer, as the client would throw it. */
@Timeout(10)
class AntreanExceptionOfTest {

  @Test
  void aRefusalKeepsItsTypeDescriptionAndFieldViolations() {
    BadRequest badRequest =
        BadRequest.newBuilder()
            .addFieldViolations(
                BadRequest.FieldViolation.newBuilder()
                    .setField("type")
                    .setDescription("not declared"))
            .build();
    com.google.rpc.Status details =
        com.google.rpc.Status.newBuilder()
            .setCode(Code.INVALID_ARGUMENT_VALUE)
            .setMessage("bad job")
            .addDetails(Any.pack(badRequest))
            .build();

    AntreanException e = AntreanException.of(StatusProto.toStatusRuntimeException(details));

    assertThat(e).isExactlyInstanceOf(InvalidArgumentException.class);
    assertThat(e.description()).isEqualTo("bad job");
    assertThat(((InvalidArgumentException) e).fieldViolations())
        .containsExactly(new FieldViolation("type", "not declared"));
  }

  @Test
  void theErrorInfoReasonSurvives() {
    com.google.rpc.Status details =
        com.google.rpc.Status.newBuilder()
            .setCode(Code.FAILED_PRECONDITION_VALUE)
            .setMessage("paused")
            .addDetails(Any.pack(ErrorInfo.newBuilder().setReason("QUEUE_PAUSED").build()))
            .build();

    AntreanException e = AntreanException.of(StatusProto.toStatusRuntimeException(details));

    assertThat(e).isExactlyInstanceOf(FailedPreconditionException.class);
    assertThat(e.reason()).contains("QUEUE_PAUSED");
  }

  @Test
  void anUnansweredCallIsUnavailableAndAnythingElseUnknown() {
    AntreanException late =
        AntreanException.of(
            Status.DEADLINE_EXCEEDED.withDescription("too slow").asRuntimeException());
    AntreanException odd = AntreanException.of(new IllegalStateException("boom"));

    assertThat(late).isExactlyInstanceOf(UnavailableException.class);
    assertThat(late.statusCode()).isEqualTo(Status.Code.DEADLINE_EXCEEDED);
    assertThat(late.description()).isEqualTo("too slow");
    assertThat(odd.statusCode()).isEqualTo(Status.Code.UNKNOWN);
  }
}
