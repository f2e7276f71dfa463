package io.antrean.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.google.protobuf.ByteString;
import com.google.protobuf.util.Durations;
import io.antrean.proto.v1.AdminServiceGrpc;
import io.antrean.proto.v1.CompleteRequest;
import io.antrean.proto.v1.CreateScheduleRequest;
import io.antrean.proto.v1.DependencyFailure;
import io.antrean.proto.v1.EnqueueRequest;
import io.antrean.proto.v1.ErrorKind;
import io.antrean.proto.v1.FailRequest;
import io.antrean.proto.v1.GetScheduleRequest;
import io.antrean.proto.v1.Job;
import io.antrean.proto.v1.JobState;
import io.antrean.proto.v1.LeaseRequest;
import io.antrean.proto.v1.ListQueuesRequest;
import io.antrean.proto.v1.RateLimit;
import io.antrean.proto.v1.ScheduleDefinition;
import io.antrean.proto.v1.ScheduleServiceGrpc;
import io.antrean.proto.v1.SetQueueLimitsRequest;
import io.antrean.proto.v1.WorkerServiceGrpc;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.NoSuchElementException;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The web dashboard in a real headless Chromium against real coordinator and worker processes: it
 * shows a queue's counts move as a worker process runs jobs, lists a dead letter with its last
 * error, opens its history, and its buttons redrive, purge and cancel through the public API.
 *
 * <p>The test plays the worker for the job it redrives (raw WorkerService calls on queue {@code
 * manual}): a bundled handler would fail again after a redrive, which resets the attempt count.
 * Skipped (an assumption) when {@code chromium} or {@code chromedriver} is not on the PATH; CI
 * installs both. The driver and browser paths are set explicitly, so Selenium never downloads one.
 */
@Timeout(240)
class DashboardIT {
  private static final Duration WAIT = Duration.ofSeconds(30);
  private static final String MANUAL = "manual";

  @RegisterExtension final Cluster cluster = new Cluster();
  @TempDir Path dir;
  private ChromeDriver browser;
  private WebDriverWait wait;

  @BeforeEach
  void setUp(TestInfo info) throws Exception {
    Optional<Path> chromium = onPath("chromium");
    Optional<Path> chromedriver = onPath("chromedriver");
    assumeTrue(chromium.isPresent(), "chromium is not on the PATH");
    assumeTrue(chromedriver.isPresent(), "chromedriver is not on the PATH");
    cluster.setUp(dir, info.getTestMethod().orElseThrow().getName());
    browser = startBrowser(chromium.get(), chromedriver.get());
    wait = new WebDriverWait(browser, WAIT, Duration.ofMillis(100));
    wait.ignoring(StaleElementReferenceException.class).ignoring(NoSuchElementException.class);
  }

  @AfterEach
  void closeBrowser() {
    if (browser != null) {
      browser.quit();
    }
  }

  @Test
  void dashboardFollowsQueuesDeadLettersAndAJobThroughRedriveToSuccess() throws Exception {
    cluster.startCoordinator();
    cluster.startWorker("w1");

    browser.get(cluster.httpBase() + "/");
    waitForText(By.id("status"), "updated");
    assertThat(browser.findElement(By.id("view")).getText()).contains("No jobs yet.");

    // Counts move as the worker process runs jobs on the default queue.
    for (int i = 0; i < 5; i++) {
      Jobs.enqueue(cluster.jobs(), "bench.noop", "{}");
    }
    waitForText(By.cssSelector("[data-queue='default'] [data-count='succeeded']"), "5");

    // A job the bundled handler fails permanently shows up with its last error, and is purged.
    long bad = Jobs.enqueue(cluster.jobs(), "email.send", "{\"subject\":\"x\"}");
    Jobs.awaitState(cluster.jobs(), bad, JobState.JOB_STATE_FAILED, WAIT);
    By badRow = By.cssSelector("#dead-letters tr[data-id='" + bad + "']");
    waitForText(By.cssSelector("#dead-letters tr[data-id='" + bad + "'] td.error"), "to");
    click(By.cssSelector("#dead-letters tr[data-id='" + bad + "'] button.purge"));
    wait.until(ExpectedConditions.alertIsPresent()).accept();
    wait.until(d -> d.findElements(badRow).isEmpty());

    // A job on the manual queue, failed permanently by the test acting as its worker.
    long id =
        cluster
            .jobs()
            .enqueue(
                Jobs.request("report.build", "{\"pages\":3}").toBuilder().setQueue(MANUAL).build())
            .getJob()
            .getId();
    Job first = lease(worker(), "it-1");
    worker()
        .fail(
            FailRequest.newBuilder()
                .setJobId(id)
                .setFencingToken(first.getLease().getFencingToken())
                .setLeaseId(first.getLease().getLeaseId())
                .setWorkerId("it-1")
                .setKind(ErrorKind.ERROR_KIND_PERMANENT)
                .setErrorType("ReportTemplateMissing")
                .setErrorMessage("template v2 not deployed")
                .build());
    waitForText(
        By.cssSelector("#dead-letters tr[data-id='" + id + "'] td.error"),
        "template v2 not deployed");

    // Its page: payload pretty-printed, the failed attempt in the history; then redrive.
    click(By.cssSelector("#dead-letters a[href='#/jobs/" + id + "']"));
    waitForText(By.id("job-state"), "FAILED");
    assertThat(browser.findElement(By.id("payload")).getText()).isEqualTo("{\n  \"pages\": 3\n}");
    assertThat(browser.findElement(By.id("history")).getText())
        .contains("FAILED_PERMANENT")
        .contains("ReportTemplateMissing: template v2 not deployed");
    click(By.cssSelector("button.redrive[data-id='" + id + "']"));
    waitForText(By.id("job-state"), "PENDING");

    Job second = lease(worker(), "it-2");
    worker()
        .complete(
            CompleteRequest.newBuilder()
                .setJobId(id)
                .setFencingToken(second.getLease().getFencingToken())
                .setLeaseId(second.getLease().getLeaseId())
                .setWorkerId("it-2")
                .setResult(ByteString.copyFromUtf8("{\"pages\":3,\"url\":\"/r/1\"}"))
                .build());
    waitForText(By.id("job-state"), "SUCCEEDED");
    assertThat(browser.findElement(By.id("result")).getText()).contains("\"url\": \"/r/1\"");
    assertThat(browser.findElement(By.id("history")).getText())
        .contains("FAILED_PERMANENT")
        .contains("REDRIVEN")
        .contains("SUCCEEDED");

    // Cancel is offered on a pending job and cancels it.
    long later =
        cluster
            .jobs()
            .enqueue(
                Jobs.request("report.build", "{\"pages\":1}").toBuilder()
                    .setQueue(MANUAL)
                    .setDelay(Durations.fromSeconds(3600))
                    .build())
            .getJob()
            .getId();
    browser.get(cluster.httpBase() + "/#/jobs/" + later);
    waitForText(By.id("job-state"), "PENDING");
    click(By.cssSelector("button.cancel"));
    waitForText(By.id("job-state"), "CANCELLED");
    assertThat(Jobs.get(cluster.jobs(), later).getState()).isEqualTo(JobState.JOB_STATE_CANCELLED);
    assertThat(browser.findElements(By.cssSelector("button.cancel"))).isEmpty();
  }

  @Test
  void pauseAndResumeButtonsHoldAndReleaseAQueue() throws Exception {
    cluster.startCoordinator();
    AdminServiceGrpc.AdminServiceBlockingStub admin =
        AdminServiceGrpc.newBlockingStub(cluster.channel()).withDeadlineAfter(30, TimeUnit.SECONDS);
    long id = Jobs.enqueue(cluster.jobs(), "bench.noop", "{}");

    browser.get(cluster.httpBase() + "/");
    click(By.cssSelector("button.pause[data-queue='default']"));
    waitForText(By.cssSelector("section[data-queue='default'] h3"), "paused");
    assertThat(admin.listQueues(ListQueuesRequest.getDefaultInstance()).getQueuesList())
        .anySatisfy(
            q -> {
              assertThat(q.getName()).isEqualTo("default");
              assertThat(q.getPaused()).isTrue();
            });

    cluster.startWorker("w1");
    click(By.cssSelector("button.resume[data-queue='default']"));
    waitForText(By.cssSelector("[data-queue='default'] [data-count='succeeded']"), "1");
    assertThat(Jobs.get(cluster.jobs(), id).getState()).isEqualTo(JobState.JOB_STATE_SUCCEEDED);
    assertThat(browser.findElements(By.cssSelector("button.resume"))).isEmpty();
  }

  @Test
  void aQueuesLimitsShowOnItsCard() throws Exception {
    cluster.startCoordinator();
    AdminServiceGrpc.newBlockingStub(cluster.channel())
        .withDeadlineAfter(30, TimeUnit.SECONDS)
        .setQueueLimits(
            SetQueueLimitsRequest.newBuilder()
                .setQueue("default")
                .setMaxRunningPerKey(1)
                .setRate(RateLimit.newBuilder().setStarts(10).setInterval(Durations.fromSeconds(1)))
                .build());
    Jobs.enqueue(cluster.jobs(), "bench.noop", "{}");

    browser.get(cluster.httpBase() + "/");

    waitForText(
        By.cssSelector("section[data-queue='default'] .limits"),
        "limits: at most 1 running per key, at most 10 per 1s started");
  }

  @Test
  void aWaitingJobShowsOnItsQueuesCardAndItsPageLinksItsDependenciesWithTheirResults()
      throws Exception {
    cluster.startCoordinator();
    long part =
        cluster
            .jobs()
            .enqueue(Jobs.request("report.build", "{}").toBuilder().setQueue(MANUAL).build())
            .getJob()
            .getId();
    long merge =
        cluster
            .jobs()
            .enqueue(
                Jobs.request("bench.noop", "{}").toBuilder()
                    .setQueue("merges")
                    .addDependsOn(part)
                    .setOnDependencyFailure(DependencyFailure.DEPENDENCY_FAILURE_DEAD_LETTER)
                    .build())
            .getJob()
            .getId();

    browser.get(cluster.httpBase() + "/");
    waitForText(By.cssSelector("[data-queue='merges'] [data-count='waiting']"), "1");

    browser.get(cluster.httpBase() + "/#/jobs/" + merge);
    waitForText(By.id("job-state"), "WAITING");
    waitForText(By.cssSelector("#dependencies tr[data-id='" + part + "']"), "PENDING");
    assertThat(browser.findElement(By.id("view")).getText())
        .contains("Depends on (1, on failure: dead-letter)");

    Job leased = lease(worker(), "it-1");
    worker()
        .complete(
            CompleteRequest.newBuilder()
                .setJobId(part)
                .setFencingToken(leased.getLease().getFencingToken())
                .setLeaseId(leased.getLease().getLeaseId())
                .setWorkerId("it-1")
                .setResult(ByteString.copyFromUtf8("{\"pages\":3}"))
                .setResultContentType("application/json")
                .build());
    browser.navigate().refresh();
    waitForText(By.id("job-state"), "PENDING");
    waitForText(By.cssSelector("#dependencies tr[data-id='" + part + "']"), "SUCCEEDED");
    waitForText(By.cssSelector("#dependencies tr[data-id='" + part + "'] td.result"), "pages");

    click(By.cssSelector("#dependencies a[href='#/jobs/" + part + "']"));
    waitForText(By.id("job-state"), "SUCCEEDED");
  }

  @Test
  void schedulesPageShowsNextAndLastFiresAndPausesASchedule() throws Exception {
    cluster.startCoordinator();
    ScheduleServiceGrpc.ScheduleServiceBlockingStub schedules =
        ScheduleServiceGrpc.newBlockingStub(cluster.channel())
            .withDeadlineAfter(30, TimeUnit.SECONDS);
    schedules.createSchedule(
        CreateScheduleRequest.newBuilder()
            .setSchedule(
                ScheduleDefinition.newBuilder()
                    .setName("tick")
                    .setInterval(Durations.fromSeconds(1))
                    .setTemplate(
                        EnqueueRequest.newBuilder().setQueue(MANUAL).setType("bench.noop")))
            .build());

    browser.get(cluster.httpBase() + "/#/schedules");
    By row = By.cssSelector("#schedules tr[data-schedule='tick']");
    waitForText(row, "every 1s");
    waitForText(By.cssSelector("#schedules tr[data-schedule='tick'] td.last"), "(pending)");
    assertThat(
            browser.findElements(
                By.cssSelector("#schedules tr[data-schedule='tick'] td.upcoming div")))
        .hasSize(3);
    click(By.cssSelector("button.pause[data-schedule='tick']"));
    waitForText(By.cssSelector("#schedules tr[data-schedule='tick'] td.state"), "paused since");
    assertThat(
            schedules
                .getSchedule(GetScheduleRequest.newBuilder().setName("tick").build())
                .getSchedule()
                .getPaused())
        .isTrue();

    click(By.cssSelector("button.resume[data-schedule='tick']"));
    waitForText(By.cssSelector("#schedules tr[data-schedule='tick'] td.state"), "running");
  }

  /** A stub with a fresh deadline: one made at the start can run out before a slow test ends. */
  private WorkerServiceGrpc.WorkerServiceBlockingStub worker() {
    return cluster.workerStub().withDeadlineAfter(30, TimeUnit.SECONDS);
  }

  private static Job lease(WorkerServiceGrpc.WorkerServiceBlockingStub worker, String workerId) {
    List<Job> leased =
        worker
            .lease(
                LeaseRequest.newBuilder()
                    .setWorkerId(workerId)
                    .setQueue(MANUAL)
                    .setWait(Durations.fromSeconds(10))
                    .build())
            .getJobsList();
    assertThat(leased).hasSize(1);
    return leased.get(0);
  }

  /** Waits until the element (found afresh each poll, as the page re-renders) shows the text. */
  private void waitForText(By locator, String text) {
    Function<WebDriver, Boolean> shows = d -> d.findElement(locator).getText().contains(text);
    wait.withMessage(() -> locator + " to show '" + text + "'; the page says:\n" + pageText())
        .until(shows);
  }

  /** Clicks the element, finding it again if a refresh replaced it between lookup and click. */
  private void click(By locator) {
    wait.withMessage(() -> "to click " + locator + "; the page says:\n" + pageText())
        .until(
            d -> {
              d.findElement(locator).click();
              return true;
            });
  }

  private String pageText() {
    try {
      return browser.findElement(By.tagName("body")).getText();
    } catch (RuntimeException e) {
      return "(unreadable: " + e + ")";
    }
  }

  private ChromeDriver startBrowser(Path chromium, Path chromedriver) throws Exception {
    Path logs = Path.of("target", "it-logs", "DashboardIT").toAbsolutePath();
    Files.createDirectories(logs);
    ChromeDriverService service =
        new ChromeDriverService.Builder()
            .usingDriverExecutable(chromedriver.toFile())
            .usingAnyFreePort()
            .withLogFile(logs.resolve("chromedriver.log").toFile())
            .build();
    ChromeOptions options = new ChromeOptions();
    options.setBinary(chromium.toFile());
    options.addArguments(
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-dev-shm-usage",
        "--window-size=1280,900",
        "--user-data-dir=" + Files.createDirectories(dir.resolve("chromium-profile")));
    return new ChromeDriver(service, options);
  }

  private static Optional<Path> onPath(String name) {
    String path = System.getenv("PATH");
    if (path == null) {
      return Optional.empty();
    }
    return Stream.of(path.split(File.pathSeparator))
        .filter(d -> !d.isEmpty())
        .map(d -> Path.of(d, name))
        .filter(Files::isExecutable)
        .findFirst();
  }
}
