package io.antrean.client.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.util.JsonFormat;
import io.antrean.proto.v1.DeadLetterFilter;
import io.antrean.proto.v1.PurgeDeadLettersRequest;
import io.antrean.proto.v1.PurgeDeadLettersResponse;
import io.grpc.Status;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class DlqPurgeCommandTest {
  private final CliHarness cli = new CliHarness();

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
  void aFilterWithYesGoesToTheServerInOneCall() {
    cli.admin.purgeDeadLetters = r -> purged(1200);

    CliHarness.Result result =
        cli.run("dlq", "purge", "--type", "email.send", "--error", "bounced", "--yes");

    assertThat(result.exitCode()).isZero();
    assertThat(result.out().strip()).isEqualTo("purged 1200 dead letters");
    assertThat(cli.admin.requestsOf(PurgeDeadLettersRequest.class))
        .containsExactly(
            PurgeDeadLettersRequest.newBuilder()
                .setFilter(
                    DeadLetterFilter.newBuilder().setType("email.send").setErrorContains("bounced"))
                .build());
  }

  @Test
  void allWithYesSetsTheAllFlag() {
    cli.run("dlq", "purge", "--all", "--yes");

    assertThat(cli.admin.requestsOf(PurgeDeadLettersRequest.class))
        .containsExactly(PurgeDeadLettersRequest.newBuilder().setAll(true).build());
  }

  @Test
  void jsonOutputParsesBackIntoTheResponse() throws Exception {
    cli.admin.purgeDeadLetters = r -> purged(3);

    CliHarness.Result result = cli.run("dlq", "purge", "--all", "--yes", "--json");

    PurgeDeadLettersResponse.Builder parsed = PurgeDeadLettersResponse.newBuilder();
    JsonFormat.parser().merge(result.out(), parsed);
    assertThat(parsed.build()).isEqualTo(purged(3));
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

  private static PurgeDeadLettersResponse purged(long count) {
    return PurgeDeadLettersResponse.newBuilder().setPurged(count).build();
  }
}
