package io.antrean.coordinator.grpc;

import io.antrean.coordinator.core.FieldViolation;
import io.antrean.coordinator.core.ValidationException;
import io.antrean.coordinator.job.LeaseId;
import io.antrean.coordinator.store.LeaseClaim;
import java.util.List;

/**
 * The lease claim a worker call presents: its fencing token and lease id. A missing lease id is a
 * claim that holds nothing (refused as a lost lease and recorded, like a stale token); a lease id
 * that is not 32 hex characters is a malformed request.
 */
final class LeaseClaims {
  private LeaseClaims() {}

  /**
   * @throws ValidationException naming {@code field} when the lease id is set but malformed
   */
  static LeaseClaim of(long fencingToken, String leaseId, String field) {
    if (leaseId.isEmpty()) {
      return new LeaseClaim(fencingToken, null);
    }
    if (!LeaseId.isWellFormed(leaseId)) {
      throw new ValidationException(
          List.of(
              new FieldViolation(
                  field,
                  "must be the "
                      + LeaseId.TEXT_LENGTH
                      + " hex characters the Lease answer gave, or empty")));
    }
    return new LeaseClaim(fencingToken, LeaseId.parse(leaseId));
  }
}
