package io.antrean.it;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Stream;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.NoSuchElementException;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Debian's headless Chromium driven through its chromedriver, with the waits the dashboard tests
 * need (the page re-renders every two seconds, so elements are found afresh on each poll) and
 * screenshots saved under {@code target/screenshots} as build artifacts. Skips the test (an
 * assumption) when {@code chromium} or {@code chromedriver} is not on the PATH; CI installs both.
 * The driver and browser paths are set explicitly, so Selenium never downloads one.
 */
final class HeadlessChromium implements AutoCloseable {
  static final Path SCREENSHOTS = Path.of("target", "screenshots").toAbsolutePath();
  private static final Duration WAIT = Duration.ofSeconds(30);

  final ChromeDriver driver;
  final WebDriverWait wait;

  private HeadlessChromium(ChromeDriver driver) {
    this.driver = driver;
    this.wait = new WebDriverWait(driver, WAIT, Duration.ofMillis(100));
    wait.ignoring(StaleElementReferenceException.class).ignoring(NoSuchElementException.class);
  }

  /** Starts a browser with a fresh profile under {@code dir}, logging the driver under target. */
  static HeadlessChromium start(Path dir, String logName) throws Exception {
    Optional<Path> chromium = onPath("chromium");
    Optional<Path> chromedriver = onPath("chromedriver");
    assumeTrue(chromium.isPresent(), "chromium is not on the PATH");
    assumeTrue(chromedriver.isPresent(), "chromedriver is not on the PATH");
    Path logs = Path.of("target", "it-logs", logName).toAbsolutePath();
    Files.createDirectories(logs);
    ChromeDriverService service =
        new ChromeDriverService.Builder()
            .usingDriverExecutable(chromedriver.get().toFile())
            .usingAnyFreePort()
            .withLogFile(logs.resolve("chromedriver.log").toFile())
            .build();
    ChromeOptions options = new ChromeOptions();
    options.setBinary(chromium.get().toFile());
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
    return new HeadlessChromium(new ChromeDriver(service, options));
  }

  /** Waits until the element shows the text. */
  void waitForText(By locator, String text) {
    Function<WebDriver, Boolean> shows = d -> d.findElement(locator).getText().contains(text);
    wait.withMessage(() -> locator + " to show '" + text + "'; the page says:\n" + pageText())
        .until(shows);
  }

  /** Clicks the element, finding it again if a refresh replaced it between lookup and click. */
  void click(By locator) {
    wait.withMessage(() -> "to click " + locator + "; the page says:\n" + pageText())
        .until(
            d -> {
              d.findElement(locator).click();
              return true;
            });
  }

  /** Replaces the text of a form field. */
  void type(By locator, String text) {
    var field = driver.findElement(locator);
    field.clear();
    field.sendKeys(text);
  }

  String pageText() {
    try {
      return driver.findElement(By.tagName("body")).getText();
    } catch (RuntimeException e) {
      return "(unreadable: " + e + ")";
    }
  }

  /** The inner width of the window, which {@link #resize} sets. */
  void resize(int width, int height) {
    driver.manage().window().setSize(new Dimension(width, height));
    long inner = ((Number) driver.executeScript("return window.innerWidth")).longValue();
    if (inner != width) {
      // Headless windows may add nothing or a border; correct once for the difference.
      driver.manage().window().setSize(new Dimension(width + (int) (width - inner), height));
    }
  }

  /**
   * How far the page reaches past the window's right edge, in CSS pixels (0: no sideways scroll).
   */
  long overflowX() {
    return ((Number)
            driver.executeScript("return document.documentElement.scrollWidth - window.innerWidth"))
        .longValue();
  }

  /** Saves a screenshot of the window as {@code target/screenshots/<name>.png}. */
  Path screenshot(String name) throws Exception {
    Files.createDirectories(SCREENSHOTS);
    Path target = SCREENSHOTS.resolve(name + ".png");
    Files.copy(
        driver.getScreenshotAs(OutputType.FILE).toPath(),
        target,
        StandardCopyOption.REPLACE_EXISTING);
    return target;
  }

  @Override
  public void close() {
    driver.quit();
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
