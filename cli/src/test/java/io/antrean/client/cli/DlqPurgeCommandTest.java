package io.antrean.client.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.util.JsonFormat;
import io.antrean.proto.v1.DeadLetterFilter;
import io.antrean.proto.v1.Job;
import io.antrean.proto.v1.ListDeadLettersRequest;
import io.antrean.proto.v1.ListDeadLettersResponse;
import io.antrean.proto.v1.PurgeDeadLettersRequest;
import io.antrean.proto.v1.PurgeDeadLettersResponse;
import io.grpc.Status;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class DlqPurgeCommandTest {
  private final CliHarness cli = new CliHarness();
  private final List<Long> remaining = Collections.synchronizedList(new ArrayList<>());

  @AfterEach
  void stop() throws InterruptedException {
    cli.close();
  }

  @Test
  void idsArePurgedWithoutConfirmation() {
    cli.admin.purgeDeadLetters = r -> purged(r.getIdsCount());

    CliHarness.Result result = cli.run("dlq", "purge", "4", "5");

    assertThat(result.exitCode()).isZero();
    assertThat(result.out().strip()).isEqualTo("purged 2 dead letters");
    assertThat(result.err()).isEmpty();
    assertThat(cli.admin.requestsOf(PurgeDeadLettersRequest.class))
        .containsExactly(PurgeDeadLettersRequest.newBuilder().addIds(4).addIds(5).build());
  }

  @Test
  void idsThatWereNotPurgedAreCountedOnStderr() {
    cli.admin.purgeDeadLetters = r -> purged(1);

    CliHarness.Result result = cli.run("dlq", "purge", "4", "5", "6");

    assertThat(result.exitCode()).isZero();
    assertThat(result.out().strip()).isEqualTo("purged 1 dead letter");
    assertThat(result.err().strip())
        .isEqualTo("antrean: 2 of 3 ids were unknown or not dead-lettered and left alone");
  }

  @Test
  void aFilterWithoutYesExits2AndPurgesNothing() {
    CliHarness.Result result = cli.run("dlq", "purge", "--type", "email.send");

    assertThat(result.exitCode()).isEqualTo(2);
    assertThat(result.err())
        .contains(
            "purging by filter deletes every dead letter that matches with its history, and"
                + " cannot be undone; add --yes to confirm");
    assertThat(cli.admin.requests).isEmpty();
  }

  @Test
  void allWithoutYesExits2AndPurgesNothing() {
    CliHarness.Result result = cli.run("dlq", "purge", "--all");

    assertThat(result.exitCode()).isEqualTo(2);
    assertThat(result.err()).contains("--all deletes every dead letter of every queue");
    assertThat(cli.admin.requests).isEmpty();
  }

  @Test
  void aFilterWithYesPurgesInChunksWithProgressOnStderr() {
    fakeDeadLetters(1200);

    CliHarness.Result result =
        cli.run("dlq", "purge", "--type", "email.send", "--error", "bounced", "--yes");

    assertThat(result.exitCode()).isZero();
    assertThat(result.out().strip()).isEqualTo("purged 1200 dead letters");
    assertThat(result.err().lines())
        .containsExactly(
            "purged 500 dead letters so far...",
            "purged 1000 dead letters so far...",
            "purged 1200 dead letters so far...");
    DeadLetterFilter filter =
        DeadLetterFilter.newBuilder().setType("email.send").setErrorContains("bounced").build();
    assertThat(cli.admin.requestsOf(ListDeadLettersRequest.class))
        .hasSize(4)
        .allSatisfy(
            r ->
                assertThat(r)
                    .isEqualTo(
                        ListDeadLettersRequest.newBuilder()
                            .setFilter(filter)
                            .setPageSize(DlqPurgeCommand.CHUNK)
                            .build()));
    List<PurgeDeadLettersRequest> purges = cli.admin.requestsOf(PurgeDeadLettersRequest.class);
    assertThat(purges)
        .extracting(PurgeDeadLettersRequest::getIdsCount)
        .containsExactly(500, 500, 200);
    assertThat(purges).noneMatch(r -> r.hasFilter() || r.getAll());
    assertThat(remaining).isEmpty();
  }

  @Test
  void aChunkThatPurgesNothingStopsThePurge() {
    cli.admin.listDeadLetters =
        r -> ListDeadLettersResponse.newBuilder().addJobs(Job.newBuilder().setId(7)).build();

    CliHarness.Result result = cli.run("dlq", "purge", "--queue", "mail", "--yes");

    assertThat(result.exitCode()).isZero();
    assertThat(result.out().strip()).isEqualTo("purged 0 dead letters");
    assertThat(result.err().strip()).isEqualTo("purged 0 dead letters so far...");
    assertThat(cli.admin.requestsOf(PurgeDeadLettersRequest.class)).hasSize(1);
  }

  @Test
  void nothingMatchingPurgesNothingAndPrintsNoProgress() {
    CliHarness.Result result = cli.run("dlq", "purge", "--queue", "mail", "--yes");

    assertThat(result.exitCode()).isZero();
    assertThat(result.out().strip()).isEqualTo("purged 0 dead letters");
    assertThat(result.err()).isEmpty();
    assertThat(cli.admin.requestsOf(PurgeDeadLettersRequest.class)).isEmpty();
  }

  @Test
  void allWithYesListsWithoutAFilter() {
    fakeDeadLetters(3);

    CliHarness.Result result = cli.run("dlq", "purge", "--all", "--yes");

    assertThat(result.out().strip()).isEqualTo("purged 3 dead letters");
    assertThat(cli.admin.requestsOf(ListDeadLettersRequest.class).get(0))
        .isEqualTo(
            ListDeadLettersRequest.newBuilder()
                .setFilter(DeadLetterFilter.getDefaultInstance())
                .setPageSize(DlqPurgeCommand.CHUNK)
                .build());
    assertThat(cli.admin.requestsOf(PurgeDeadLettersRequest.class))
        .containsExactly(
            PurgeDeadLettersRequest.newBuilder().addIds(3).addIds(2).addIds(1).build());
  }

  @Test
  void jsonOutputParsesBackIntoTheResponse() throws Exception {
    fakeDeadLetters(1200);

    CliHarness.Result result = cli.run("dlq", "purge", "--all", "--yes", "--json");

    PurgeDeadLettersResponse.Builder parsed = PurgeDeadLettersResponse.newBuilder();
    JsonFormat.parser().merge(result.out(), parsed);
    assertThat(parsed.build()).isEqualTo(purged(1200));
    assertThat(result.err().lines()).hasSize(3);
  }

  @Test
  void aRefusalFromTheCoordinatorExits1() {
    cli.admin.purgeDeadLetters =
        r -> {
          throw Status.PERMISSION_DENIED.withDescription("admin role needed").asRuntimeException();
        };

    CliHarness.Result result = cli.run("dlq", "purge", "4");

    assertThat(result.exitCode()).isEqualTo(1);
    assertThat(result.err().strip()).isEqualTo("antrean: PERMISSION_DENIED: admin role needed");
  }

  /** Dead letters with ids 1..count, listed newest first, that the fake's purge deletes by id. */
  private void fakeDeadLetters(int count) {
    for (long id = count; id >= 1; id--) {
      remaining.add(id);
    }
    cli.admin.listDeadLetters =
        r -> {
          ListDeadLettersResponse.Builder page = ListDeadLettersResponse.newBuilder();
          synchronized (remaining) {
            remaining.stream()
                .limit(r.getPageSize())
                .forEach(id -> page.addJobs(Job.newBuilder().setId(id)));
          }
          return page.build();
        };
    cli.admin.purgeDeadLetters =
        r -> {
          long purged = 0;
          for (long id : r.getIdsList()) {
            if (remaining.remove(id)) {
              purged++;
            }
          }
          return purged(purged);
        };
  }

  private static PurgeDeadLettersResponse purged(long count) {
    return PurgeDeadLettersResponse.newBuilder().setPurged(count).build();
  }
}
