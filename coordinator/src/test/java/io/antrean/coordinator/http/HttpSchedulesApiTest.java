package io.antrean.coordinator.http;

import static io.antrean.coordinator.http.HttpApiFixture.details;
import static io.antrean.coordinator.http.HttpApiFixture.error;
import static io.antrean.coordinator.http.HttpApiFixture.parse;
import static org.assertj.core.api.Assertions.assertThat;

import io.antrean.proto.v1.CreateScheduleResponse;
import io.antrean.proto.v1.GetScheduleResponse;
import io.antrean.proto.v1.ListSchedulesResponse;
import io.antrean.proto.v1.PauseScheduleResponse;
import io.antrean.proto.v1.UpdateScheduleResponse;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The schedule routes over real HTTP, in the JSON contract of the rest of /v1. */
@Timeout(30)
class HttpSchedulesApiTest {
  private static final String NIGHTLY =
      "{\"name\":\"nightly\",\"cron\":\"0 3 * * *\",\"time_zone\":\"Europe/Berlin\","
          + "\"template\":{\"type\":\"report.build\",\"queue\":\"reports\"}}";

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

  private HttpResponse<String> json(String method, String path, String body) throws Exception {
    return api.send(
        HttpRequest.newBuilder(api.uri(path))
            .header("Content-Type", "application/json")
            .method(method, HttpRequest.BodyPublishers.ofString(body)));
  }

  @Test
  void createGetUpdatePauseAndDeleteOverHttp() throws Exception {
    HttpResponse<String> created = api.post("/v1/schedules", NIGHTLY);

    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    assertThat(created.headers().firstValue("Location")).hasValue("/v1/schedules/nightly");
    CreateScheduleResponse c = parse(created.body(), CreateScheduleResponse.newBuilder()).build();
    assertThat(c.getSchedule().getUpcomingCount()).isEqualTo(5);

    HttpResponse<String> got = api.get("/v1/schedules/nightly");
    assertThat(parse(got.body(), GetScheduleResponse.newBuilder()).build().getSchedule())
        .isEqualTo(c.getSchedule());

    HttpResponse<String> updated =
        json(
            "PUT",
            "/v1/schedules/nightly",
            "{\"interval\":\"90s\",\"template\":{\"type\":\"report.build\"}}");
    assertThat(updated.statusCode()).as(updated.body()).isEqualTo(200);
    assertThat(
            parse(updated.body(), UpdateScheduleResponse.newBuilder())
                .build()
                .getSchedule()
                .getDefinition()
                .getInterval()
                .getSeconds())
        .isEqualTo(90);

    HttpResponse<String> paused = api.post("/v1/schedules/nightly:pause", "");
    assertThat(
            parse(paused.body(), PauseScheduleResponse.newBuilder())
                .build()
                .getSchedule()
                .getPaused())
        .isTrue();
    assertThat(
            parse(api.get("/v1/schedules").body(), ListSchedulesResponse.newBuilder())
                .build()
                .getSchedulesCount())
        .isEqualTo(1);

    assertThat(json("DELETE", "/v1/schedules/nightly", "{}").statusCode()).isEqualTo(200);
    error(api.get("/v1/schedules/nightly"), 404, "SCHEDULE_NOT_FOUND");
  }

  @Test
  void badDefinitionsAre422NamingTheFieldAndTakenNamesAre409() throws Exception {
    assertThat(
            details(
                error(
                    api.post("/v1/schedules", NIGHTLY.replace("0 3 * * *", "61 * * * *")),
                    422,
                    "VALIDATION_FAILED")))
        .singleElement()
        .asString()
        .startsWith("schedule.cron: ");
    api.post("/v1/schedules", NIGHTLY);
    error(api.post("/v1/schedules", NIGHTLY), 409, "SCHEDULE_EXISTS");
  }
}
