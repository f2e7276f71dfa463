package io.antrean.coordinator.grpc;

import io.antrean.coordinator.core.DeadLetterSelection;
import io.antrean.coordinator.core.DeadLetters;
import io.antrean.coordinator.core.FieldViolation;
import io.antrean.coordinator.core.RedriveOutcome;
import io.antrean.coordinator.core.ValidationException;
import io.antrean.coordinator.store.DeadLetterQuery;
import io.antrean.coordinator.store.JobPage;
import io.antrean.proto.v1.AdminServiceGrpc;
import io.antrean.proto.v1.DeadLetterFilter;
import io.antrean.proto.v1.GetDeadLetterRequest;
import io.antrean.proto.v1.GetDeadLetterResponse;
import io.antrean.proto.v1.ListDeadLettersRequest;
import io.antrean.proto.v1.ListDeadLettersResponse;
import io.antrean.proto.v1.PurgeDeadLettersRequest;
import io.antrean.proto.v1.PurgeDeadLettersResponse;
import io.antrean.proto.v1.RedriveDeadLettersRequest;
import io.antrean.proto.v1.RedriveDeadLettersResponse;
import io.grpc.stub.StreamObserver;
import java.util.List;

/** The operator RPCs over the dead-letter queue: validate, map, call the core once, map back. */
public final class GrpcAdminService extends AdminServiceGrpc.AdminServiceImplBase {
  private final DeadLetters deadLetters;

  public GrpcAdminService(DeadLetters deadLetters) {
    this.deadLetters = deadLetters;
  }

  @Override
  public void listDeadLetters(
      ListDeadLettersRequest request, StreamObserver<ListDeadLettersResponse> observer) {
    Unary.answer(
        observer,
        () -> {
          int size = request.getPageSize();
          if (size < 0 || size > GrpcJobService.MAX_PAGE_SIZE) {
            throw new ValidationException(
                List.of(
                    new FieldViolation(
                        "page_size", "must be between 0 and " + GrpcJobService.MAX_PAGE_SIZE)));
          }
          DeadLetterQuery query =
              query(request.getFilter())
                  .withPage(
                      PageTokens.decode(request.getPageToken()),
                      size == 0 ? GrpcJobService.DEFAULT_PAGE_SIZE : size);
          JobPage page = deadLetters.list(query);
          ListDeadLettersResponse.Builder b = ListDeadLettersResponse.newBuilder();
          page.jobs().forEach(j -> b.addJobs(JobMapper.job(j)));
          return b.setNextPageToken(PageTokens.encode(page.nextBeforeId())).build();
        });
  }

  @Override
  public void getDeadLetter(
      GetDeadLetterRequest request, StreamObserver<GetDeadLetterResponse> observer) {
    Unary.answer(
        observer,
        () -> {
          GrpcJobService.requirePositiveId(request.getId());
          return GetDeadLetterResponse.newBuilder()
              .setJob(JobMapper.job(deadLetters.get(request.getId())))
              .build();
        });
  }

  @Override
  public void redriveDeadLetters(
      RedriveDeadLettersRequest request, StreamObserver<RedriveDeadLettersResponse> observer) {
    Unary.answer(
        observer,
        () -> {
          RedriveOutcome outcome =
              deadLetters.redrive(
                  new DeadLetterSelection(
                      request.getIdsList(), query(request.getFilter()), request.getAll()),
                  request.getRatePerSecond(),
                  request.getLimit());
          RedriveDeadLettersResponse.Builder b =
              RedriveDeadLettersResponse.newBuilder()
                  .addAllRedrivenIds(outcome.redrivenIds())
                  .addAllSkippedIds(outcome.skippedIds());
          if (outcome.lastRunAt() != null) {
            b.setLastRunAt(ProtoTime.timestamp(outcome.lastRunAt()));
          }
          return b.build();
        });
  }

  @Override
  public void purgeDeadLetters(
      PurgeDeadLettersRequest request, StreamObserver<PurgeDeadLettersResponse> observer) {
    Unary.answer(
        observer,
        () -> {
          int purged =
              deadLetters.purge(
                  new DeadLetterSelection(
                      request.getIdsList(), query(request.getFilter()), request.getAll()));
          return PurgeDeadLettersResponse.newBuilder().setPurged(purged).build();
        });
  }

  static DeadLetterQuery query(DeadLetterFilter f) {
    return new DeadLetterQuery(
        f.getQueue().isEmpty() ? null : f.getQueue(),
        f.getType().isEmpty() ? null : f.getType(),
        f.getErrorContains().isEmpty() ? null : f.getErrorContains(),
        f.hasFailedAfter() ? ProtoTime.instant(f.getFailedAfter()) : null,
        f.hasFailedBefore() ? ProtoTime.instant(f.getFailedBefore()) : null,
        null,
        1);
  }
}
