package io.antrean.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import com.google.protobuf.Struct;
import com.google.protobuf.util.JsonFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class BenchPayloadTest {

  @Test
  void payloadsAreValidJsonOfAboutTheRequestedSize() throws Exception {
    for (int bytes : new int[] {100, 1000, 10_000}) {
      ByteString payload = new BenchPayload(bytes).stamped(System.nanoTime());

      Struct.Builder parsed = Struct.newBuilder();
      JsonFormat.parser().merge(payload.toStringUtf8(), parsed);
      assertThat(parsed.getFieldsOrThrow("bench").getStringValue()).isEqualTo("antrean");
      assertThat(payload.size()).isBetween(bytes - 20, bytes);
    }
  }

  @Test
  void theSmallestPayloadStillHoldsItsFields() throws Exception {
    ByteString payload = new BenchPayload(BenchPayload.MIN_BYTES).untimed();

    JsonFormat.parser().merge(payload.toStringUtf8(), Struct.newBuilder());
    assertThat(payload.toStringUtf8()).contains("\"sentMicros\":0,").endsWith("\"pad\":\"\"}");
  }

  @Test
  void theSendTimeComesBackOutIncludingNegativeOnes() {
    BenchPayload payloads = new BenchPayload(100);

    assertThat(payloads.sentMicros(payloads.stamped(123_456_789_012L))).hasValue(123_456_789_012L);
    assertThat(payloads.sentMicros(payloads.stamped(-42))).hasValue(-42);
    assertThat(payloads.sentMicros(payloads.stamped(Long.MIN_VALUE))).hasValue(Long.MIN_VALUE);
    assertThat(payloads.sentMicros(payloads.untimed())).hasValue(0);
  }

  @Test
  void payloadsOfAnotherRunOrProducerCarryNoSendTime() {
    BenchPayload mine = new BenchPayload(100);
    BenchPayload theirs = new BenchPayload(100);

    assertThat(mine.sentMicros(theirs.stamped(5))).isEmpty();
    assertThat(mine.sentMicros(ByteString.copyFromUtf8("{\"to\":\"ada@example.com\"}"))).isEmpty();
    assertThat(mine.sentMicros(ByteString.EMPTY)).isEmpty();
  }

  @Test
  void sizesOutsideTheLimitsAreRefused() {
    assertThatThrownBy(() -> new BenchPayload(BenchPayload.MIN_BYTES - 1))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new BenchPayload(BenchPayload.MAX_BYTES + 1))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
