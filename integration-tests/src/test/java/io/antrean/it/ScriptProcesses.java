package io.antrean.it;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The Python and Node example programs of {@code examples/} as real processes, with their output in
 * target/it-logs; stopped after each test, their logs printed when it failed. A test that needs an
 * interpreter which is not installed (Debian's {@code /usr/bin/python3} with grpcio and grpc-tools,
 * or {@code node} with the example's {@code node_modules}) is skipped through an assumption.
 */
final class ScriptProcesses implements AfterEachCallback {
  static final String PYTHON = "/usr/bin/python3";
  static final Path EXAMPLES = Path.of("").toAbsolutePath().getParent().resolve("examples");

  private final List<Script> started = new ArrayList<>();
  private Path logDir;

  void setUp(String testName) {
    logDir = Path.of("target", "it-logs", testName).toAbsolutePath();
  }

  /** Skips the test unless Debian's python3 can import grpc and grpc_tools. */
  static void assumePython() throws InterruptedException {
    assumeTrue(
        Files.isExecutable(Path.of(PYTHON))
            && succeeds(List.of(PYTHON, "-c", "import grpc, grpc_tools")),
        PYTHON + " with python3-grpcio and python3-grpc-tools is not installed");
  }

  /** Skips the test unless node runs and the Node example's dependencies are installed. */
  static void assumeNode() throws InterruptedException {
    assumeTrue(
        succeeds(List.of("node", "--version"))
            && Files.isDirectory(EXAMPLES.resolve("node/node_modules/@grpc/grpc-js")),
        "node, or examples/node/node_modules (npm ci in examples/node), is missing");
  }

  Script python(String name, String script, String... args) throws IOException {
    List<String> command = new ArrayList<>(List.of(PYTHON, "-u", script));
    command.addAll(List.of(args));
    return start(name, EXAMPLES.resolve("python"), command);
  }

  Script node(String name, String script, String... args) throws IOException {
    List<String> command = new ArrayList<>(List.of("node", script));
    command.addAll(List.of(args));
    return start(name, EXAMPLES.resolve("node"), command);
  }

  private Script start(String name, Path workDir, List<String> command) throws IOException {
    Files.createDirectories(logDir);
    Path log = logDir.resolve(name + ".log");
    Process process =
        new ProcessBuilder(command)
            .directory(workDir.toFile())
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.to(log.toFile()))
            .start();
    Script script = new Script(name, process, log);
    started.add(script);
    return script;
  }

  private static boolean succeeds(List<String> command) throws InterruptedException {
    try {
      Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
      p.getInputStream().transferTo(java.io.OutputStream.nullOutputStream());
      return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
    } catch (IOException e) {
      return false;
    }
  }

  @Override
  public void afterEach(ExtensionContext context) throws Exception {
    boolean failed = context.getExecutionException().isPresent();
    for (Script s : started) {
      s.signal("CONT");
      if (s.process.isAlive()) {
        s.process.destroyForcibly();
        s.process.waitFor(10, TimeUnit.SECONDS);
      }
      if (failed) {
        System.out.println("===== log of " + s.name + " =====\n" + s.logText());
      }
    }
  }

  /** One running example program. */
  static final class Script {
    private final String name;
    private final Process process;
    private final Path log;

    private Script(String name, Process process, Path log) {
      this.name = name;
      this.process = process;
      this.log = log;
    }

    long pid() {
      return process.pid();
    }

    /** Sends a signal by name (TERM, STOP, CONT) with kill(1). */
    void signal(String signal) throws IOException, InterruptedException {
      if (!process.isAlive()) {
        return;
      }
      Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid())).start();
      if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
        throw new AssertionError("kill -" + signal + " " + pid() + " failed");
      }
    }

    int awaitExit(Duration timeout) throws InterruptedException {
      if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        throw new AssertionError(name + " did not exit within " + timeout + "\n" + logText());
      }
      return process.exitValue();
    }

    /** Waits (bounded) until the program's output contains {@code text}. */
    void awaitLog(String text, Duration atMost) {
      Awaitility.await(name + " logs \"" + text + "\"")
          .atMost(atMost)
          .pollInterval(Duration.ofMillis(100))
          .until(() -> logText().contains(text) || !process.isAlive());
      if (!logText().contains(text)) {
        throw new AssertionError(name + " exited before logging \"" + text + "\"\n" + logText());
      }
    }

    String logText() {
      try {
        return Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8) : "";
      } catch (IOException e) {
        return "(log unreadable: " + e + ")";
      }
    }
  }
}
