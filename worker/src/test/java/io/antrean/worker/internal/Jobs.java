package io.antrean.worker.internal;

import com.google.protobuf.ByteString;
import io.antrean.proto.v1.Job;
import io.antrean.proto.v1.Lease;
import io.antrean.worker.testing.FakeWorkerService;
import java.nio.charset.StandardCharsets;

/** Leased jobs for unit tests. */
final class Jobs {
  private Jobs() {}

  static Job leased(long id, long token, int attempts, String idempotencyKey) {
    return Job.newBuilder()
        .setId(id)
        .setQueue("default")
        .setType("t")
        .setPayload(ByteString.copyFrom("{\"x\":\"\u00e9\"}", StandardCharsets.UTF_8))
        .setAttempts(attempts)
        .setIdempotencyKey(idempotencyKey)
        .setLease(
            Lease.newBuilder()
                .setWorkerId("w")
                .setFencingToken(token)
                .setLeaseId(FakeWorkerService.leaseId(token)))
        .build();
  }

  static Job leased(long id, long token) {
    return leased(id, token, 1, "");
  }
}
