package io.antrean.coordinator.http;

import static io.antrean.coordinator.http.HttpApiFixture.details;
import static io.antrean.coordinator.http.HttpApiFixture.emailBody;
import static io.antrean.coordinator.http.HttpApiFixture.error;
import static io.antrean.coordinator.http.HttpApiFixture.parse;
import static org.assertj.core.api.Assertions.assertThat;

import io.antrean.proto.v1.DependencyFailure;
import io.antrean.proto.v1.EnqueueResponse;
import io.antrean.proto.v1.GetJobResponse;
import io.antrean.proto.v1.Job;
import io.antrean.proto.v1.JobState;
import io.antrean.proto.v1.ListDependenciesResponse;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Dependencies over HTTP: the JSON fields, the dependencies route and the errors. */
@Timeout(30)
class HttpDependenciesApiTest {
  @TempDir Path dir;
  private HttpApiFixture api;

  @BeforeEach
  void start() throws Exception {
    api = new HttpApiFixture(dir);
  }

  @AfterEach
  void stop() {
    api.close();
  }

  private long enqueue(String extraMembers) throws Exception {
    HttpResponse<String> r = api.post("/v1/jobs", emailBody(extraMembers));
    assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
    return parse(r.body(), EnqueueResponse.newBuilder()).getJob().getId();
  }

  @Test
  void aJobEnqueuedWithDependsOnWaitsAndListsItsDependencies() throws Exception {
    long a = enqueue("");
    long c =
        enqueue(
            "\"queue\":\"fan-in\",\"depends_on\":[\""
                + a
                + "\"],\"on_dependency_failure\":\"DEPENDENCY_FAILURE_DEAD_LETTER\"");

    Job waiting =
        parse(api.get("/v1/jobs/" + c).body(), GetJobResponse.newBuilder()).build().getJob();
    assertThat(waiting.getState()).isEqualTo(JobState.JOB_STATE_WAITING);
    assertThat(waiting.getDependsOnList()).containsExactly(a);
    assertThat(waiting.getOnDependencyFailure())
        .isEqualTo(DependencyFailure.DEPENDENCY_FAILURE_DEAD_LETTER);

    List<Job> leased = api.lease(10);
    assertThat(leased).extracting(Job::getId).containsExactly(a);
    api.complete(leased.get(0));

    HttpResponse<String> r = api.get("/v1/jobs/" + c + "/dependencies");
    assertThat(r.statusCode()).isEqualTo(200);
    ListDependenciesResponse body = parse(r.body(), ListDependenciesResponse.newBuilder()).build();
    assertThat(body.getDependenciesList())
        .singleElement()
        .satisfies(
            d -> {
              assertThat(d.getId()).isEqualTo(a);
              assertThat(d.getState()).isEqualTo(JobState.JOB_STATE_SUCCEEDED);
            });
    assertThat(
            parse(api.get("/v1/jobs/" + c).body(), GetJobResponse.newBuilder()).getJob().getState())
        .isEqualTo(JobState.JOB_STATE_PENDING);
  }

  @Test
  void badDependenciesAre422Or404NamingTheField() throws Exception {
    String tooMany =
        LongStream.rangeClosed(1, 101)
            .mapToObj(i -> "\"" + i + "\"")
            .collect(Collectors.joining(","));

    assertThat(
            details(
                error(
                    api.post("/v1/jobs", emailBody("\"depends_on\":[" + tooMany + "]")),
                    422,
                    "VALIDATION_FAILED")))
        .containsExactly("depends_on: at most 100 jobs, got 101");
    assertThat(
            error(
                    api.post("/v1/jobs", emailBody("\"depends_on\":[\"424242\"]")),
                    404,
                    "DEPENDENCY_NOT_FOUND")
                .getFieldsOrThrow("message")
                .getStringValue())
        .contains("depends_on", "424242");
    error(api.get("/v1/jobs/424242/dependencies"), 404, "JOB_NOT_FOUND");
  }
}
