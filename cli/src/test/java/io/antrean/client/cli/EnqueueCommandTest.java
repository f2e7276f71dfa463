package io.antrean.client.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Any;
import com.google.protobuf.util.Durations;
import com.google.protobuf.util.JsonFormat;
import com.google.rpc.BadRequest;
import com.google.rpc.Code;
import io.antrean.client.FakeJobService;
import io.antrean.proto.v1.EnqueueRequest;
import io.antrean.proto.v1.EnqueueResponse;
import io.antrean.proto.v1.UniqueConflict;
import io.grpc.Status;
import io.grpc.protobuf.StatusProto;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(10)
class EnqueueCommandTest {
  private final CliHarness cli = new CliHarness();

  @AfterEach
  void stop() throws InterruptedException {
    cli.close();
  }

  @Test
  void printsTheNewJobsId() {
    cli.service.enqueue =
        r -> EnqueueResponse.newBuilder().setJob(FakeJobService.jobFor(42, r)).build();

    CliHarness.Result result =
        cli.run("enqueue", "--type", "email.send", "--payload", "{\"to\":\"a@b\"}");

    assertThat(result.exitCode()).isZero();
    assertThat(result.out()).isEqualTo("42" + System.lineSeparator());
    assertThat(result.err()).isEmpty();
  }

  @Test
  void saysDeduplicatedWhenTheKeyMatchedAnExistingJob() {
    cli.service.enqueue =
        r ->
            EnqueueResponse.newBuilder()
                .setJob(FakeJobService.jobFor(7, r))
                .setDeduplicated(true)
                .build();

    CliHarness.Result result = cli.run("enqueue", "--type", "t", "--idempotency-key", "k");

    assertThat(result.out().strip()).isEqualTo("7 deduplicated");
  }

  @Test
  void uniqueKeyAndReturnExistingLandInTheRequest() {
    cli.run("enqueue", "--type", "sync", "--unique-key", "customer-7");
    cli.run("enqueue", "--type", "sync", "--unique-key", "customer-7", "--return-existing");

    List<EnqueueRequest> sent = cli.service.requestsOf(EnqueueRequest.class);
    assertThat(sent).extracting(EnqueueRequest::getUniqueKey).containsOnly("customer-7");
    assertThat(sent)
        .extracting(EnqueueRequest::getOnUniqueConflict)
        .containsExactly(
            UniqueConflict.UNIQUE_CONFLICT_REJECT, UniqueConflict.UNIQUE_CONFLICT_RETURN_EXISTING);
  }

  @Test
  void everyOptionLandsInTheRequest() {
    cli.run(
        "enqueue",
        "--type",
        "report.build",
        "--queue",
        "reports",
        "--payload",
        "{\"pages\":3}",
        "--priority",
        "5",
        "--delay",
        "1m30s",
        "--idempotency-key",
        "k-9",
        "--concurrency-key",
        "customer-7",
        "--max-attempts",
        "3");

    EnqueueRequest sent = cli.service.requestsOf(EnqueueRequest.class).get(0);
    assertThat(sent.getType()).isEqualTo("report.build");
    assertThat(sent.getQueue()).isEqualTo("reports");
    assertThat(sent.getPayload().toString(StandardCharsets.UTF_8)).isEqualTo("{\"pages\":3}");
    assertThat(sent.getContentType()).isEqualTo("application/json");
    assertThat(sent.getPriority()).isEqualTo(5);
    assertThat(sent.getDelay()).isEqualTo(Durations.fromSeconds(90));
    assertThat(sent.getIdempotencyKey()).isEqualTo("k-9");
    assertThat(sent.getConcurrencyKey()).isEqualTo("customer-7");
    assertThat(sent.getRetryPolicy().getMaxAttempts()).isEqualTo(3);
  }

  @Test
  void jsonOutputParsesBackIntoTheResponse() throws Exception {
    EnqueueResponse response =
        EnqueueResponse.newBuilder()
            .setJob(FakeJobService.jobFor(5, EnqueueRequest.newBuilder().setType("t").build()))
            .build();
    cli.service.enqueue = r -> response;

    CliHarness.Result result = cli.run("enqueue", "--type", "t", "--json");

    EnqueueResponse.Builder parsed = EnqueueResponse.newBuilder();
    JsonFormat.parser().merge(result.out(), parsed);
    assertThat(parsed.build()).isEqualTo(response);
    assertThat(result.out()).contains("\"deduplicated\": false");
  }

  @Test
  void readsThePayloadFromAFile(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("payload.json");
    Files.writeString(file, "{\"to\": \"grace@example.com\"}\n");

    CliHarness.Result result =
        cli.run("enqueue", "--type", "email.send", "--payload-file", file.toString());

    assertThat(result.exitCode()).isZero();
    assertThat(
            cli.service
                .requestsOf(EnqueueRequest.class)
                .get(0)
                .getPayload()
                .toString(StandardCharsets.UTF_8))
        .isEqualTo("{\"to\": \"grace@example.com\"}\n");
  }

  @Test
  void badPayloadsAndMissingOptionsAreUsageErrorsThatSendNothing(@TempDir Path dir) {
    assertUsageError(cli.run("enqueue", "--type", "t", "--payload", "{not json"), "not valid JSON");
    assertUsageError(cli.run("enqueue", "--payload", "{}"), "--type");
    assertUsageError(
        cli.run("enqueue", "--type", "t", "--payload", "{}", "--payload-file", "x"),
        "mutually exclusive");
    assertUsageError(
        cli.run("enqueue", "--type", "t", "--payload-file", dir.resolve("missing").toString()),
        "cannot read");
    assertUsageError(cli.run("enqueue", "--type", "t", "--max-attempts", "0"), "maxAttempts");
    assertUsageError(cli.run("enqueue", "--type", "t", "--delay", "soon"), "not a duration");
    assertThat(cli.service.requests).isEmpty();
  }

  @Test
  void nonJsonContentTypeSkipsTheJsonCheck() {
    CliHarness.Result result =
        cli.run("enqueue", "--type", "t", "--content-type", "text/plain", "--payload", "hello {");

    assertThat(result.exitCode()).isZero();
    assertThat(cli.service.requestsOf(EnqueueRequest.class).get(0).getContentType())
        .isEqualTo("text/plain");
  }

  @Test
  void fieldViolationsArePrintedOnePerLineWithExitCode1() {
    BadRequest badRequest =
        BadRequest.newBuilder()
            .addFieldViolations(
                BadRequest.FieldViolation.newBuilder()
                    .setField("type")
                    .setDescription("unknown type 'x'"))
            .addFieldViolations(
                BadRequest.FieldViolation.newBuilder().setField("queue").setDescription("too long"))
            .build();
    cli.service.enqueue =
        r -> {
          throw StatusProto.toStatusRuntimeException(
              com.google.rpc.Status.newBuilder()
                  .setCode(Code.INVALID_ARGUMENT_VALUE)
                  .setMessage("invalid job")
                  .addDetails(Any.pack(badRequest))
                  .build());
        };

    CliHarness.Result result = cli.run("enqueue", "--type", "x");

    assertThat(result.exitCode()).isEqualTo(1);
    assertThat(result.out()).isEmpty();
    assertThat(result.err().lines())
        .containsExactly(
            "antrean: INVALID_ARGUMENT: invalid job", "type: unknown type 'x'", "queue: too long");
  }

  @Test
  void alreadyExistsIsAServerError() {
    cli.service.enqueue =
        r -> {
          throw Status.ALREADY_EXISTS
              .withDescription("key k used with another payload")
              .asRuntimeException();
        };

    CliHarness.Result result = cli.run("enqueue", "--type", "t", "--idempotency-key", "k");

    assertThat(result.exitCode()).isEqualTo(1);
    assertThat(result.err()).contains("ALREADY_EXISTS: key k used with another payload");
  }

  private static void assertUsageError(CliHarness.Result result, String message) {
    assertThat(result.exitCode()).isEqualTo(2);
    assertThat(result.err()).contains(message).contains("antrean enqueue --help");
    assertThat(result.out()).isEmpty();
  }
}
