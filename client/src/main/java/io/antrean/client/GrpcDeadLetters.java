package io.antrean.client;

import io.antrean.proto.v1.AdminServiceGrpc;
import io.antrean.proto.v1.GetDeadLetterRequest;
import io.antrean.proto.v1.Job;
import io.antrean.proto.v1.ListDeadLettersRequest;
import io.antrean.proto.v1.ListDeadLettersResponse;
import io.antrean.proto.v1.PurgeDeadLettersRequest;
import io.antrean.proto.v1.PurgeDeadLettersResponse;
import io.antrean.proto.v1.RedriveDeadLettersRequest;
import io.antrean.proto.v1.RedriveDeadLettersResponse;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * {@link DeadLetters} over the coordinator's {@code antrean.v1.AdminService}, on the channel and
 * with the deadline of the {@link GrpcAntreanClient} that made it. Thread-safe.
 */
final class GrpcDeadLetters implements DeadLetters {
  private final AdminServiceGrpc.AdminServiceBlockingStub stub;
  private final Duration timeout;

  GrpcDeadLetters(AdminServiceGrpc.AdminServiceBlockingStub stub, Duration timeout) {
    this.stub = stub;
    this.timeout = timeout;
  }

  @Override
  public ListDeadLettersResponse list(ListDeadLettersRequest request) {
    return StatusTranslation.call(() -> deadlined().listDeadLetters(request));
  }

  @Override
  public Job get(long id) {
    GetDeadLetterRequest request = GetDeadLetterRequest.newBuilder().setId(id).build();
    return StatusTranslation.call(() -> deadlined().getDeadLetter(request)).getJob();
  }

  @Override
  public RedriveDeadLettersResponse redrive(RedriveDeadLettersRequest request) {
    return StatusTranslation.call(() -> deadlined().redriveDeadLetters(request));
  }

  @Override
  public PurgeDeadLettersResponse purge(PurgeDeadLettersRequest request) {
    return StatusTranslation.call(() -> deadlined().purgeDeadLetters(request));
  }

  private AdminServiceGrpc.AdminServiceBlockingStub deadlined() {
    return stub.withDeadlineAfter(timeout.toNanos(), TimeUnit.NANOSECONDS);
  }
}
