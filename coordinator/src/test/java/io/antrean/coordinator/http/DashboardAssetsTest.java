package io.antrean.coordinator.http;

import static io.antrean.coordinator.http.HttpApiFixture.error;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The dashboard's page, script and style sheet come from the classpath; nothing else does. */
@Timeout(30)
class DashboardAssetsTest {
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

  @Test
  void rootServesThePageWithRevalidationAndAPolicyThatAllowsOnlyThisOrigin() throws Exception {
    HttpResponse<String> page = api.get("/");

    assertThat(page.statusCode()).isEqualTo(200);
    assertThat(page.headers().firstValue("Content-Type")).hasValue("text/html; charset=utf-8");
    assertThat(page.headers().firstValue("Cache-Control")).hasValue("no-cache");
    assertThat(page.headers().firstValue("X-Content-Type-Options")).hasValue("nosniff");
    assertThat(page.headers().firstValue("Content-Security-Policy"))
        .hasValueSatisfying(v -> assertThat(v).contains("script-src 'self'"));
    assertThat(page.body()).contains("/dashboard/app.js").contains("/dashboard/app.css");
    for (String script :
        List.of("lib.js", "queues.js", "dead-letters.js", "jobs.js", "workers.js")) {
      assertThat(page.body()).contains("/dashboard/" + script);
      assertThat(api.get("/dashboard/" + script).statusCode()).as(script).isEqualTo(200);
    }
  }

  @Test
  void scriptAndStyleSheetCarryTheirContentTypes() throws Exception {
    HttpResponse<String> js = api.get("/dashboard/queues.js");
    HttpResponse<String> css = api.get("/dashboard/app.css");

    assertThat(js.statusCode()).isEqualTo(200);
    assertThat(js.headers().firstValue("Content-Type")).hasValue("text/javascript; charset=utf-8");
    assertThat(js.body()).contains("/v1/stats");
    assertThat(css.statusCode()).isEqualTo(200);
    assertThat(css.headers().firstValue("Content-Type")).hasValue("text/css; charset=utf-8");
  }

  @Test
  void aMatchingEtagIsAnswered304WithoutABody() throws Exception {
    String etag = api.get("/dashboard/app.js").headers().firstValue("ETag").orElseThrow();

    HttpResponse<String> again =
        api.send(
            HttpRequest.newBuilder(api.uri("/dashboard/app.js")).header("If-None-Match", etag));

    assertThat(again.statusCode()).isEqualTo(304);
    assertThat(again.body()).isEmpty();
  }

  @Test
  void unknownNamesAndTraversalAttemptsAreRefused() throws Exception {
    error(api.get("/dashboard/missing.js"), 404, "ENDPOINT_NOT_FOUND");
    // An encoded '/' or dot segment is ambiguous: refused before any route sees it.
    error(api.get("/dashboard/..%2Fapplication.conf"), 400, "INVALID_URI");
    error(api.get("/dashboard/%2e%2e"), 400, "INVALID_URI");
    error(
        api.get("/dashboard/../io/antrean/coordinator/CoordinatorMain.class"),
        404,
        "ENDPOINT_NOT_FOUND");
    error(api.get("/dashboard/"), 404, "ENDPOINT_NOT_FOUND");
  }

  @Test
  void onlyGetIsServed() throws Exception {
    HttpResponse<String> post = api.post("/", "{}");

    assertThat(post.statusCode()).isEqualTo(405);
    assertThat(post.headers().firstValue("Allow")).hasValue("GET, HEAD");
  }
}
