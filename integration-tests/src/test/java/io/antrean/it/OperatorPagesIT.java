package io.antrean.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.util.Durations;
import io.antrean.proto.v1.ErrorKind;
import io.antrean.proto.v1.FailRequest;
import io.antrean.proto.v1.Job;
import io.antrean.proto.v1.JobState;
import io.antrean.proto.v1.LeaseRequest;
import io.antrean.proto.v1.WorkerServiceGrpc;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.Alert;
import org.openqa.selenium.By;
import org.openqa.selenium.support.ui.ExpectedConditions;

/**
 * The operator pages of the dashboard in a real headless Chromium against real coordinator and
 * worker processes: the workers page, the job browser's filters and search, the job page's attempts
 * with their stack traces, dead-letter filters with paging and bulk redrive after a confirmation
 * that gives the count, and every page at 400 px wide. Each page is saved as a screenshot under
 * {@code target/screenshots}. Jobs of queue {@code manual} are failed by the test itself, acting as
 * their worker (raw WorkerService calls), so their errors are known.
 */
@Timeout(300)
class OperatorPagesIT {
  private static final String MANUAL = "manual";

  @RegisterExtension final Cluster cluster = new Cluster();
  @TempDir Path dir;
  private HeadlessChromium browser;

  @BeforeEach
  void setUp(TestInfo info) throws Exception {
    String name = info.getTestMethod().orElseThrow().getName();
    browser = HeadlessChromium.start(dir, "OperatorPagesIT-" + name);
    cluster.setUp(dir, name);
  }

  @AfterEach
  void closeBrowser() {
    if (browser != null) {
      browser.close();
    }
  }

  @Test
  void workersPageShowsTheWorkerProcessAndTheLogsCarryIsoTimesAndTheDashboardUrl()
      throws Exception {
    JvmProcess coordinator = cluster.startCoordinator();
    JvmProcess worker = cluster.startWorker("w1");

    browser.driver.get(cluster.httpBase() + "/#/workers");
    By row = By.cssSelector("#workers tr[data-worker='w1']");
    browser.waitForText(row, "live");
    String text = browser.driver.findElement(row).getText();
    assertThat(text).contains("0.1.0").contains("default").contains("bench.noop");
    assertThat(browser.driver.findElement(By.id("worker-summary")).getText()).startsWith("1 live");
    browser.screenshot("workers");

    assertThat(coordinator.logText()).contains("dashboard at " + cluster.httpBase() + "/");
    for (JvmProcess p : List.of(coordinator, worker)) {
      List<String> lines = p.logText().lines().filter(l -> !l.isBlank()).toList();
      assertThat(lines).isNotEmpty();
      assertThat(lines.get(0))
          .as("first log line of %s", p.name())
          .matches("^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}(Z|[+-]\\d\\d:\\d\\d) .*");
    }
  }

  @Test
  void jobBrowserFiltersSearchesAndOpensAJobWithItsStackTrace() throws Exception {
    cluster.startCoordinator();
    long first = enqueueManual("report.build", "order-1");
    long second = enqueueManual("report.build", "order-2");
    long invoice = enqueueManual("invoice.send", "order-3");
    failNext(cluster.workerStub(), "TemplateMissing", "template v2 not deployed", 1);
    Jobs.enqueue(cluster.jobs(), "bench.noop", "{}");

    browser.driver.get(cluster.httpBase() + "/#/jobs");
    browser.type(By.cssSelector("#job-filters input[name='queue']"), MANUAL);
    browser.click(By.cssSelector("#job-filters button[type='submit']"));
    waitForRows(invoice, second, first);

    browser.type(By.cssSelector("#job-filters input[name='type']"), "report.build");
    browser.click(By.cssSelector("#job-filters button[type='submit']"));
    waitForRows(second, first);

    browser.click(By.cssSelector("#job-filters select[name='order'] option[value='oldest']"));
    browser.click(By.cssSelector("#job-filters button[type='submit']"));
    waitForRows(first, second);

    browser.driver.get(cluster.httpBase() + "/#/jobs?error=TEMPLATE%20V2");
    waitForRows(first);
    browser.driver.get(cluster.httpBase() + "/#/jobs?key=order-3");
    waitForRows(invoice);
    browser.driver.get(cluster.httpBase() + "/#/jobs?state=failed&queue=" + MANUAL);
    waitForRows(first);
    browser.driver.get(cluster.httpBase() + "/#/jobs?created_after=2999-01-01T00:00:00Z");
    browser.waitForText(By.id("jobs"), "No job matches.");
    browser.driver.get(cluster.httpBase() + "/#/jobs?created_after=yesterday");
    browser.waitForText(By.cssSelector("#results .error-box"), "created_after");
    browser.driver.get(cluster.httpBase() + "/#/jobs?queue=" + MANUAL);
    waitForRows(invoice, second, first);
    browser.screenshot("jobs");

    browser.type(By.cssSelector("#find-job input[name='id']"), Long.toString(first));
    browser.click(By.cssSelector("#find-job button[type='submit']"));
    browser.waitForText(By.id("job-state"), "FAILED");
    browser.waitForText(By.id("history"), "template v2 not deployed");
    browser.click(By.cssSelector("#history details.stack summary"));
    browser.waitForText(By.cssSelector("#history details.stack pre"), "at reports.Render.page");
    assertThat(browser.driver.findElement(By.id("history")).getText()).contains("it-worker");
    browser.screenshot("job");
  }

  @Test
  void deadLettersFilterPageAndBulkRedriveAfterAConfirmationWithTheCount() throws Exception {
    cluster.startCoordinator();
    List<Long> quota = new ArrayList<>();
    for (int i = 0; i < 53; i++) {
      quota.add(enqueueManual("report.build", null));
    }
    failNext(cluster.workerStub(), "QuotaExceeded", "quota exceeded for tenant 7", 53);
    long other = enqueueManual("report.build", null);
    failNext(cluster.workerStub(), "BadPayload", "missing field pages", 1);

    browser.driver.get(cluster.httpBase() + "/#/dead-letters");
    browser.type(By.cssSelector("#dead-letter-filters input[name='error']"), "QUOTA");
    browser.click(By.cssSelector("#dead-letter-filters button[type='submit']"));
    browser.waitForText(By.cssSelector(".pager"), "50 on this page");
    assertThat(
            browser.driver.findElements(
                By.cssSelector("#dead-letters tr[data-id='" + other + "']")))
        .isEmpty();
    browser.screenshot("dead-letters");
    browser.click(By.id("next-page"));
    browser.waitForText(By.cssSelector(".pager"), "3 on this page");
    browser.click(By.id("first-page"));
    browser.waitForText(By.cssSelector(".pager"), "50 on this page");

    browser.click(By.id("redrive-all"));
    Alert confirm = browser.wait.until(ExpectedConditions.alertIsPresent());
    assertThat(confirm.getText()).contains("Redrive 53 dead letters").contains("error \"QUOTA\"");
    confirm.accept();
    browser.waitForText(By.cssSelector("#results .flash"), "Done: redrive 53 dead letters");
    browser.waitForText(By.id("dead-letters"), "No dead letters.");
    // A fresh stub: the first one's deadline ran out while the browser worked.
    for (long id : List.of(quota.get(0), quota.get(52))) {
      assertThat(Jobs.get(cluster.jobs(), id).getState()).isEqualTo(JobState.JOB_STATE_PENDING);
    }
    assertThat(Jobs.get(cluster.jobs(), other).getState()).isEqualTo(JobState.JOB_STATE_FAILED);

    browser.click(By.cssSelector("#dead-letter-filters a.clear"));
    browser.waitForText(
        By.cssSelector("#dead-letters tr[data-id='" + other + "']"), "missing field");
    browser.click(By.id("purge-all"));
    Alert purge = browser.wait.until(ExpectedConditions.alertIsPresent());
    assertThat(purge.getText()).contains("Delete for good 1 dead letter");
    purge.dismiss();
    assertThat(Jobs.get(cluster.jobs(), other).getState()).isEqualTo(JobState.JOB_STATE_FAILED);
  }

  @Test
  void everyPageFitsA400PixelWindowWithoutSidewaysScrolling() throws Exception {
    cluster.startCoordinator();
    cluster.startWorker("w1");
    long id = enqueueManual("report.build-with-a-rather-long-type-name", "key-1");
    failNext(
        cluster.workerStub(), "TemplateMissing", "template v2 not deployed; " + "x".repeat(200), 1);
    Jobs.enqueue(cluster.jobs(), "bench.noop", "{}");
    browser.resize(400, 900);

    String[][] pages = {
      {"", "#queues", "narrow-queues"},
      {"#/jobs?queue=" + MANUAL, "#jobs", "narrow-jobs"},
      {"#/jobs/" + id, "#history", "narrow-job"},
      {"#/workers", "#workers", "narrow-workers"},
      {"#/dead-letters", "#dead-letter-filters", "narrow-dead-letters"},
    };
    for (String[] page : pages) {
      browser.driver.get(cluster.httpBase() + "/" + page[0]);
      browser.wait.until(d -> !d.findElements(By.cssSelector(page[1])).isEmpty());
      browser.waitForText(By.id("status"), "updated");
      assertThat(browser.overflowX()).as("sideways overflow of %s", page[2]).isLessThanOrEqualTo(0);
      Path shot = browser.screenshot(page[2]);
      assertThat(Files.size(shot)).isPositive();
    }
  }

  private void waitForRows(Long... ids) {
    List<String> expected = new ArrayList<>();
    for (long id : ids) {
      expected.add(Long.toString(id));
    }
    browser
        .wait
        .withMessage(() -> "rows " + expected + "; the page says:\n" + browser.pageText())
        .until(
            d ->
                d.findElements(By.cssSelector("#jobs tbody tr")).stream()
                    .map(r -> r.getAttribute("data-id"))
                    .toList()
                    .equals(expected));
  }

  /** Enqueues on the manual queue through a stub with a fresh deadline. */
  private long enqueueManual(String type, String key) {
    var request = Jobs.request(type, "{\"pages\":3}").toBuilder().setQueue(MANUAL);
    if (key != null) {
      request.setIdempotencyKey(key);
    }
    return cluster.jobs().enqueue(request.build()).getJob().getId();
  }

  /** Leases the next {@code count} jobs of the manual queue and fails each permanently. */
  private static void failNext(
      WorkerServiceGrpc.WorkerServiceBlockingStub stub, String type, String message, int count) {
    int failed = 0;
    while (failed < count) {
      List<Job> leased =
          stub.withDeadlineAfter(30, TimeUnit.SECONDS)
              .lease(
                  LeaseRequest.newBuilder()
                      .setWorkerId("it-worker")
                      .setQueue(MANUAL)
                      .setMaxJobs(Math.min(100, count - failed))
                      .setWait(Durations.fromSeconds(10))
                      .build())
              .getJobsList();
      assertThat(leased).isNotEmpty();
      for (Job job : leased) {
        stub.withDeadlineAfter(30, TimeUnit.SECONDS)
            .fail(
                FailRequest.newBuilder()
                    .setJobId(job.getId())
                    .setFencingToken(job.getLease().getFencingToken())
                    .setLeaseId(job.getLease().getLeaseId())
                    .setWorkerId("it-worker")
                    .setKind(ErrorKind.ERROR_KIND_PERMANENT)
                    .setErrorType(type)
                    .setErrorMessage(message)
                    .setStackTrace(
                        type + ": " + message + "\n\tat reports.Render.page(Render.java:42)")
                    .build());
        failed++;
      }
    }
  }
}
