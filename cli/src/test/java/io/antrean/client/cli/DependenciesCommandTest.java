package io.antrean.client.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import com.google.protobuf.util.JsonFormat;
import io.antrean.proto.v1.Dependency;
import io.antrean.proto.v1.DependencyFailure;
import io.antrean.proto.v1.EnqueueRequest;
import io.antrean.proto.v1.JobState;
import io.antrean.proto.v1.ListDependenciesRequest;
import io.antrean.proto.v1.ListDependenciesResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@code enqueue --depends-on} and {@code antrean dependencies ID}. */
@Timeout(10)
class DependenciesCommandTest {
  private static final ListDependenciesResponse TWO_PARTS =
      ListDependenciesResponse.newBuilder()
          .addDependencies(
              Dependency.newBuilder()
                  .setId(3)
                  .setQueue("parts")
                  .setType("part")
                  .setState(JobState.JOB_STATE_SUCCEEDED)
                  .setResult(ByteString.copyFromUtf8("{\"rows\":3}"))
                  .setResultContentType("application/json"))
          .addDependencies(
              Dependency.newBuilder()
                  .setId(4)
                  .setQueue("parts")
                  .setType("part")
                  .setState(JobState.JOB_STATE_FAILED)
                  .setLastError("BadInput: no rows"))
          .build();

  private final CliHarness cli = new CliHarness();

  @AfterEach
  void stop() throws InterruptedException {
    cli.close();
  }

  @Test
  void enqueueSendsTheDependenciesAndThePolicy() {
    CliHarness.Result result =
        cli.run(
            "enqueue",
            "--type",
            "merge",
            "--depends-on",
            "3,4",
            "--depends-on",
            "9",
            "--on-dependency-failure",
            "dead-letter");

    assertThat(result.exitCode()).as(result.err()).isZero();
    EnqueueRequest sent = cli.service.requestsOf(EnqueueRequest.class).get(0);
    assertThat(sent.getDependsOnList()).containsExactly(3L, 4L, 9L);
    assertThat(sent.getOnDependencyFailure())
        .isEqualTo(DependencyFailure.DEPENDENCY_FAILURE_DEAD_LETTER);
  }

  @Test
  void anUnknownPolicyIsAUsageError() {
    CliHarness.Result result =
        cli.run("enqueue", "--type", "merge", "--on-dependency-failure", "ignore");

    assertThat(result.exitCode()).isEqualTo(2);
    assertThat(result.err()).contains("cancel or dead-letter");
    assertThat(cli.service.requests).isEmpty();
  }

  @Test
  void dependenciesPrintsEachJobsStateAndResultOrError() {
    cli.service.listDependencies = r -> TWO_PARTS;

    CliHarness.Result result = cli.run("dependencies", "7");

    assertThat(result.exitCode()).as(result.err()).isZero();
    assertThat(cli.service.requestsOf(ListDependenciesRequest.class).get(0).getId()).isEqualTo(7);
    assertThat(result.out())
        .containsPattern("3 +parts +part +SUCCEEDED +\\{\"rows\":3}")
        .containsPattern("4 +parts +part +FAILED +BadInput: no rows");
  }

  @Test
  void dependenciesAsJsonParsesBack() throws Exception {
    cli.service.listDependencies = r -> TWO_PARTS;

    CliHarness.Result result = cli.run("dependencies", "7", "--json");

    ListDependenciesResponse.Builder parsed = ListDependenciesResponse.newBuilder();
    JsonFormat.parser().merge(result.out(), parsed);
    assertThat(parsed.build()).isEqualTo(TWO_PARTS);
  }

  @Test
  void dependenciesOfAnUnknownJobExitsWith3() {
    assertThat(cli.run("dependencies", "404").exitCode()).isEqualTo(3);
  }
}
