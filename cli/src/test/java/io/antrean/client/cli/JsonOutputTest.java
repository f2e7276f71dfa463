package io.antrean.client.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Timestamp;
import com.google.protobuf.util.JsonFormat;
import io.antrean.proto.v1.GetJobResponse;
import io.antrean.proto.v1.Job;
import org.junit.jupiter.api.Test;

class JsonOutputTest {
  private static final GetJobResponse RESPONSE =
      GetJobResponse.newBuilder()
          .setJob(
              Job.newBuilder()
                  .setId(42)
                  .setType("email.send")
                  .setRunAt(Timestamp.newBuilder().setSeconds(1_800_000_000L))
                  .setIdempotencyKey("order-17"))
          .build();

  @Test
  void printsTheProtoFieldNamesAndIdsAsStringsLikeTheHttpApi() {
    String json = JsonOutput.print(RESPONSE);

    assertThat(json)
        .contains("\"run_at\": \"2027-01-15T08:00:00Z\"")
        .contains("\"idempotency_key\": \"order-17\"")
        .contains("\"id\": \"42\"")
        .doesNotContain("runAt", "idempotencyKey");
  }

  @Test
  void printsFieldsAtTheirDefaultValuesSoScriptsAlwaysFindThem() {
    assertThat(JsonOutput.print(RESPONSE)).contains("\"priority\": 0", "\"queue\": \"\"");
  }

  @Test
  void theOutputParsesBackIntoTheSameMessage() throws Exception {
    GetJobResponse.Builder parsed = GetJobResponse.newBuilder();
    JsonFormat.parser().merge(JsonOutput.print(RESPONSE), parsed);

    assertThat(parsed.build()).isEqualTo(RESPONSE);
  }
}
