package io.antrean.coordinator.grpc;

import static org.assertj.core.api.Assertions.assertThat;

import io.antrean.coordinator.api.ApiError;
import io.antrean.coordinator.core.FieldViolation;
import io.antrean.coordinator.core.ValidationException;
import io.grpc.StatusRuntimeException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class StatusMappingTest {
  @Test
  void aThousandLongViolationsFitInTheTrailersOfAnyClient() {
    List<FieldViolation> many = new ArrayList<>();
    for (int i = 0; i < 1000; i++) {
      many.add(new FieldViolation("jobs[" + i + "].type", "unknown job type: " + "t".repeat(5000)));
    }
    StatusRuntimeException e = StatusMapping.toStatus(new ValidationException(many));
    int trailerBytes = 0;
    for (String key : e.getTrailers().keys()) {
      trailerBytes += key.length();
      if (key.endsWith("-bin")) {
        trailerBytes +=
            e.getTrailers()
                    .get(io.grpc.Metadata.Key.of(key, io.grpc.Metadata.BINARY_BYTE_MARSHALLER))
                    .length
                * 4
                / 3;
      }
    }
    trailerBytes += e.getStatus().getDescription().length();
    assertThat(trailerBytes).isLessThan(6 * 1024);
    assertThat(e.getStatus().getDescription())
        .startsWith("invalid request; jobs[0].type: unknown job type: ttt")
        .endsWith("and 997 more (details list the first 16)");
    assertThat(ApiError.of(new ValidationException(many)).violations()).hasSize(16);
  }
}
