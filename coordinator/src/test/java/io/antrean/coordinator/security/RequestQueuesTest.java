package io.antrean.coordinator.security;

import static org.assertj.core.api.Assertions.assertThat;

import io.antrean.proto.v1.CompleteBatchRequest;
import io.antrean.proto.v1.CompleteItem;
import io.antrean.proto.v1.LeaseRequest;
import org.junit.jupiter.api.Test;

class RequestQueuesTest {
  @Test
  void aCompleteBatchNamesTheQueueOfItsLeaseNextAndOtherwiseNone() {
    CompleteBatchRequest batch =
        CompleteBatchRequest.newBuilder()
            .setWorkerId("w")
            .addItems(CompleteItem.newBuilder().setJobId(1).setFencingToken(1))
            .build();

    assertThat(RequestQueues.of(batch)).isEmpty();
    assertThat(
            RequestQueues.of(
                batch.toBuilder()
                    .setLeaseNext(LeaseRequest.newBuilder().setQueue("billing"))
                    .build()))
        .containsExactly("billing");
    assertThat(RequestQueues.of(batch.toBuilder().setLeaseNext(LeaseRequest.newBuilder()).build()))
        .containsExactly("default");
  }
}
