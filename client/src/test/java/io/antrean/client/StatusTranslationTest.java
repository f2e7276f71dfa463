package io.antrean.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.google.protobuf.Any;
import com.google.protobuf.ByteString;
import com.google.rpc.BadRequest;
import com.google.rpc.Code;
import com.google.rpc.ErrorInfo;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.protobuf.StatusProto;
import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

@Timeout(10)
class StatusTranslationTest {
  private final FakeJobService service = new FakeJobService();
  private InProcessCoordinator coordinator;
  private AntreanClient client;

  @BeforeEach
  void start() {
    coordinator = InProcessCoordinator.start(service);
    client = coordinator.client(Duration.ofSeconds(5));
  }

  @AfterEach
  void stop() throws InterruptedException {
    client.close();
    coordinator.close();
  }

  static Stream<Arguments> codes() {
    return Stream.of(
        Arguments.of(Status.Code.INVALID_ARGUMENT, InvalidArgumentException.class, false),
        Arguments.of(Status.Code.NOT_FOUND, JobNotFoundException.class, false),
        Arguments.of(Status.Code.ALREADY_EXISTS, AlreadyExistsException.class, false),
        Arguments.of(Status.Code.UNAVAILABLE, UnavailableException.class, true),
        Arguments.of(Status.Code.DEADLINE_EXCEEDED, UnavailableException.class, true),
        Arguments.of(Status.Code.PERMISSION_DENIED, AntreanException.class, false),
        Arguments.of(Status.Code.UNAUTHENTICATED, AntreanException.class, false),
        Arguments.of(Status.Code.FAILED_PRECONDITION, FailedPreconditionException.class, false),
        Arguments.of(Status.Code.RESOURCE_EXHAUSTED, AntreanException.class, false),
        Arguments.of(Status.Code.INTERNAL, AntreanException.class, false),
        Arguments.of(Status.Code.UNKNOWN, AntreanException.class, false));
  }

  @ParameterizedTest
  @MethodSource("codes")
  void eachStatusCodeBecomesItsExceptionType(
      Status.Code code, Class<? extends AntreanException> type, boolean retryable) {
    service.getJob =
        r -> {
          throw code.toStatus().withDescription("told you so").asRuntimeException();
        };

    AntreanException e = catchThrowableOfType(AntreanException.class, () -> client.getJob(7));

    assertThat(e).isExactlyInstanceOf(type);
    assertThat(e.statusCode()).isEqualTo(code);
    assertThat(e.description()).isEqualTo("told you so");
    assertThat(e.getMessage()).isEqualTo("told you so");
    assertThat(e.isRetryable()).isEqualTo(retryable);
    assertThat(e.reason()).isEmpty();
    assertThat(e.getCause()).isInstanceOf(StatusRuntimeException.class);
  }

  @Test
  void invalidArgumentCarriesFieldViolationsAndReason() {
    BadRequest badRequest =
        BadRequest.newBuilder()
            .addFieldViolations(violation("type", "must not be empty"))
            .addFieldViolations(violation("retry_policy.max_attempts", "must be at least 1"))
            .build();
    failEnqueueWith(
        com.google.rpc.Status.newBuilder()
            .setCode(Code.INVALID_ARGUMENT_VALUE)
            .setMessage("bad job")
            .addDetails(Any.pack(badRequest))
            .addDetails(Any.pack(ErrorInfo.newBuilder().setReason("BAD_JOB").build()))
            .build());

    InvalidArgumentException e =
        catchThrowableOfType(InvalidArgumentException.class, () -> client.enqueue("x", "{}"));

    assertThat(e.fieldViolations())
        .containsExactly(
            new FieldViolation("type", "must not be empty"),
            new FieldViolation("retry_policy.max_attempts", "must be at least 1"));
    assertThat(e.reason()).contains("BAD_JOB");
    assertThat(e.description()).isEqualTo("bad job");
  }

  @Test
  void errorInfoReasonIsKeptForCodesWithoutSubclass() {
    failEnqueueWith(
        com.google.rpc.Status.newBuilder()
            .setCode(Code.RESOURCE_EXHAUSTED_VALUE)
            .setMessage("queue full")
            .addDetails(Any.pack(ErrorInfo.newBuilder().setReason("QUEUE_FULL").build()))
            .build());

    AntreanException e =
        catchThrowableOfType(AntreanException.class, () -> client.enqueue("x", "{}"));

    assertThat(e).isExactlyInstanceOf(AntreanException.class);
    assertThat(e.statusCode()).isEqualTo(Status.Code.RESOURCE_EXHAUSTED);
    assertThat(e.reason()).contains("QUEUE_FULL");
  }

  @Test
  void invalidArgumentWithoutDetailsHasNoViolations() {
    service.enqueue =
        r -> {
          throw Status.INVALID_ARGUMENT.withDescription("nope").asRuntimeException();
        };

    InvalidArgumentException e =
        catchThrowableOfType(InvalidArgumentException.class, () -> client.enqueue("x", "{}"));

    assertThat(e.fieldViolations()).isEmpty();
  }

  @Test
  void malformedDetailIsIgnoredButTheFailureStillSurfaces() {
    Any garbage =
        Any.newBuilder()
            .setTypeUrl("type.googleapis.com/google.rpc.BadRequest")
            .setValue(ByteString.copyFromUtf8("\u00ff\u00ff not a proto"))
            .build();
    failEnqueueWith(
        com.google.rpc.Status.newBuilder()
            .setCode(Code.INVALID_ARGUMENT_VALUE)
            .setMessage("bad")
            .addDetails(garbage)
            .build());

    InvalidArgumentException e =
        catchThrowableOfType(InvalidArgumentException.class, () -> client.enqueue("x", "{}"));

    assertThat(e.fieldViolations()).isEmpty();
    assertThat(e.description()).isEqualTo("bad");
  }

  @Test
  void missingDescriptionFallsBackToTheCodeName() {
    service.getJob =
        r -> {
          throw Status.PERMISSION_DENIED.asRuntimeException();
        };

    AntreanException e = catchThrowableOfType(AntreanException.class, () -> client.getJob(1));

    assertThat(e.description()).isEmpty();
    assertThat(e.getMessage()).isEqualTo("PERMISSION_DENIED");
  }

  private void failEnqueueWith(com.google.rpc.Status status) {
    service.enqueue =
        r -> {
          throw StatusProto.toStatusRuntimeException(status);
        };
  }

  private static BadRequest.FieldViolation violation(String field, String description) {
    return BadRequest.FieldViolation.newBuilder()
        .setField(field)
        .setDescription(description)
        .build();
  }
}
