package io.antrean.coordinator.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.antrean.coordinator.core.CoordinatorStoppingException;
import io.antrean.coordinator.core.FieldViolation;
import io.antrean.coordinator.core.JobFinishedException;
import io.antrean.coordinator.core.ValidationException;
import io.antrean.coordinator.job.JobState;
import io.antrean.coordinator.security.AccessDeniedException;
import io.antrean.coordinator.store.LeaseLostException;
import io.antrean.coordinator.store.OverloadedException;
import io.antrean.coordinator.store.StoreUnavailableException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

class ApiErrorTest {
  @Test
  void aLostLeaseIsAFailedPreconditionWithItsReason() {
    ApiError e = ApiError.of(new CompletionException(new LeaseLostException(7, 3)));

    assertThat(e.category()).isEqualTo(ErrorCategory.FAILED_PRECONDITION);
    assertThat(e.reason()).isEqualTo("LEASE_LOST");
  }

  @Test
  void invalidInputCarriesItsFieldViolations() {
    ApiError e =
        ApiError.of(
            new ValidationException(List.of(new FieldViolation("queue", "must not be empty"))));

    assertThat(e.category()).isEqualTo(ErrorCategory.INVALID_ARGUMENT);
    assertThat(e.reason()).isEqualTo("VALIDATION_FAILED");
    assertThat(e.violations()).containsExactly(new FieldViolation("queue", "must not be empty"));
    assertThat(e.message()).isEqualTo("invalid request; queue: must not be empty");
  }

  @Test
  void overloadCarriesTheLimitAndTheDelay() {
    ApiError e =
        ApiError.of(new OverloadedException("in_flight_bytes", "full", Duration.ofMillis(250)));

    assertThat(e.category()).isEqualTo(ErrorCategory.RESOURCE_EXHAUSTED);
    assertThat(e.limit()).isEqualTo("in_flight_bytes");
    assertThat(e.retryAfter()).isEqualTo(Duration.ofMillis(250));
  }

  @Test
  void accessDeniedKeepsItsReasonAndSplitsUnauthenticatedFromForbidden() {
    assertThat(ApiError.of(AccessDeniedException.missingCredentials()))
        .extracting(ApiError::category, ApiError::reason)
        .containsExactly(ErrorCategory.UNAUTHENTICATED, "CREDENTIALS_MISSING");
    assertThat(ApiError.of(AccessDeniedException.queueNotAllowed("ops", "mail")))
        .extracting(ApiError::category, ApiError::reason)
        .containsExactly(ErrorCategory.PERMISSION_DENIED, "QUEUE_NOT_ALLOWED");
  }

  @Test
  void outagesAreUnavailableAndHideTheStoreMessage() {
    ApiError store = ApiError.of(new StoreUnavailableException("jdbc:secret", null));
    assertThat(store.category()).isEqualTo(ErrorCategory.UNAVAILABLE);
    assertThat(store.message()).doesNotContain("secret");
    assertThat(ApiError.of(new CoordinatorStoppingException()).reason())
        .isEqualTo("COORDINATOR_STOPPING");
    assertThat(ApiError.of(new JobFinishedException(7, JobState.SUCCEEDED)).reason())
        .isEqualTo("JOB_FINISHED");
  }

  @Test
  void anythingUnclassifiedIsInternalWithOnlyACorrelationId() {
    ApiError e = ApiError.of(new IllegalStateException("password=hunter2"));

    assertThat(e.category()).isEqualTo(ErrorCategory.INTERNAL);
    assertThat(e.correlationId()).isNotBlank();
    assertThat(e.message()).doesNotContain("hunter2").contains(e.correlationId());
  }
}
