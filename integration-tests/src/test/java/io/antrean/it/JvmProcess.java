package io.antrean.it;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A separate JVM running one of Antrean's runnable jars, with its output in a log file. Killed for
 * real: {@link #kill9()} sends SIGKILL, {@link #terminate()} sends SIGTERM.
 */
final class JvmProcess implements AutoCloseable {
  private final String name;
  private final Process process;
  private final Path log;

  private JvmProcess(String name, Process process, Path log) {
    this.name = name;
    this.process = process;
    this.log = log;
  }

  static JvmProcess start(String name, Path jar, Path logDir, List<String> args)
      throws IOException {
    return start(name, jar, logDir, List.of(), args);
  }

  /** As {@link #start(String, Path, Path, List)}, with extra JVM options (before {@code -jar}). */
  static JvmProcess start(
      String name, Path jar, Path logDir, List<String> jvmOptions, List<String> args)
      throws IOException {
    if (!Files.isRegularFile(jar)) {
      throw new IllegalStateException(jar + " is missing; run the package phase first");
    }
    List<String> what = new ArrayList<>(jvmOptions);
    what.addAll(List.of("-jar", jar.toString()));
    return launch(name, logDir, what, args);
  }

  /** Runs {@code mainClass} from {@code classPath} (entries joined with the path separator). */
  static JvmProcess startMain(
      String name, String classPath, String mainClass, Path logDir, List<String> args)
      throws IOException {
    return launch(name, logDir, List.of("-cp", classPath, mainClass), args);
  }

  private static JvmProcess launch(String name, Path logDir, List<String> what, List<String> args)
      throws IOException {
    Files.createDirectories(logDir);
    Path log = logDir.resolve(name + ".log");
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-Xmx256m");
    cmd.add("-XX:+UseSerialGC");
    cmd.add("-XX:TieredStopAtLevel=1");
    cmd.addAll(what);
    cmd.addAll(args);
    Process p =
        new ProcessBuilder(cmd)
            .redirectErrorStream(true)
            // A fresh log per run: tests read it back, and target/ survives between local runs.
            .redirectOutput(ProcessBuilder.Redirect.to(log.toFile()))
            .start();
    return new JvmProcess(name, p, log);
  }

  String name() {
    return name;
  }

  long pid() {
    return process.pid();
  }

  boolean isAlive() {
    return process.isAlive();
  }

  /** SIGKILL: the process gets no chance to clean up. */
  void kill9() throws InterruptedException {
    process.destroyForcibly();
    process.waitFor(10, TimeUnit.SECONDS);
  }

  /** SIGTERM: the process may shut down gracefully. */
  void terminate() {
    process.destroy();
  }

  /**
   * @return the exit code
   * @throws AssertionError if the process did not exit within the timeout
   */
  int awaitExit(Duration timeout) throws InterruptedException {
    if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      throw new AssertionError(name + " did not exit within " + timeout + "\n" + logText());
    }
    return process.exitValue();
  }

  String logText() {
    try {
      return Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8) : "";
    } catch (IOException e) {
      return "(log unreadable: " + e + ")";
    }
  }

  Path log() {
    return log;
  }

  @Override
  public void close() throws InterruptedException {
    if (process.isAlive()) {
      process.destroyForcibly();
      process.waitFor(10, TimeUnit.SECONDS);
    }
  }
}
