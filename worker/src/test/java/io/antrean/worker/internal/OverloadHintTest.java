package io.antrean.worker.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Any;
import com.google.rpc.Code;
import com.google.rpc.ErrorInfo;
import com.google.rpc.RetryInfo;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.protobuf.StatusProto;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class OverloadHintTest {
  private static StatusRuntimeException refusal(String reason, long retrySeconds) {
    return StatusProto.toStatusRuntimeException(
        com.google.rpc.Status.newBuilder()
            .setCode(Code.RESOURCE_EXHAUSTED.getNumber())
            .setMessage("busy")
            .addDetails(Any.pack(ErrorInfo.newBuilder().setReason(reason).build()))
            .addDetails(
                Any.pack(
                    RetryInfo.newBuilder()
                        .setRetryDelay(
                            com.google.protobuf.Duration.newBuilder().setSeconds(retrySeconds))
                        .build()))
            .build());
  }

  @Test
  void onlyTheCoordinatorsOverloadRefusalIsOverloaded() {
    assertThat(OverloadHint.isOverloaded(refusal("OVERLOADED", 1))).isTrue();
    assertThat(OverloadHint.isOverloaded(refusal("QUOTA", 1))).isFalse();
    assertThat(OverloadHint.isOverloaded(Status.RESOURCE_EXHAUSTED.asRuntimeException())).isFalse();
    assertThat(OverloadHint.isOverloaded(Status.UNAVAILABLE.asRuntimeException())).isFalse();
  }

  @Test
  void theDelayIsTheLongerOfBackoffAndHintAndTheHintIsCapped() {
    Backoff backoff = new Backoff(Duration.ofMillis(100), Duration.ofSeconds(10), () -> 0.999999);

    assertThat(OverloadHint.delay(backoff, refusal("OVERLOADED", 2)))
        .isEqualTo(Duration.ofSeconds(2));
    assertThat(OverloadHint.delay(backoff, Status.UNAVAILABLE.asRuntimeException()))
        .isLessThan(Duration.ofSeconds(1));
    assertThat(OverloadHint.retryAfter(refusal("OVERLOADED", 3600)))
        .hasValue(OverloadHint.MAX_WAIT);
  }
}
