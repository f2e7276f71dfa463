package io.antrean.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The JVM options {@code bin/antrean} gives each program: the bench, a load generator, compiles
 * with C1 only so that its compiler leaves the cores to what it measures, while the coordinator and
 * the worker keep both compilers, inlining less deeply than the JDK's defaults; the coordinator,
 * the worker and the bench run the parallel collector unless the user chose one; the user's {@code
 * ANTREAN_JAVA_OPTS} come last and win; the coordinator and the worker also get the JIT compiler
 * files beside their jars unless the user chose the compilers. The launcher runs in a temporary
 * tree with empty jars and a {@code java} that prints its arguments.
 */
@Timeout(60)
final class LauncherJvmOptionsIT {
  private static final Path LAUNCHER =
      Path.of("").toAbsolutePath().getParent().resolve("bin").resolve("antrean");
  private static final String C1_ONLY = "-XX:TieredStopAtLevel=1";
  private static final String PARALLEL_COLLECTOR = "-XX:+UseParallelGC";
  private static final Map<String, String> PROGRAM_JARS =
      Map.of(
          "coordinator", "coordinator/target/antrean-coordinator.jar",
          "worker", "worker-runner/target/antrean-worker-runner.jar");

  @TempDir Path home;
  private Path launcher;
  private Path java;

  @BeforeEach
  void install() throws IOException {
    for (String jar :
        List.of(
            "coordinator/target/antrean-coordinator.jar",
            "worker-runner/target/antrean-worker-runner.jar",
            "bench/target/antrean-bench.jar",
            "cli/target/antrean-cli.jar")) {
      Path path = home.resolve(jar);
      Files.createDirectories(path.getParent());
      Files.createFile(path);
    }
    launcher = Files.createDirectories(home.resolve("bin")).resolve("antrean");
    Files.copy(LAUNCHER, launcher);
    java = home.resolve("java");
    Files.writeString(java, "#!/bin/sh\nprintf '%s\\n' \"$@\"\n", StandardCharsets.UTF_8);
    for (Path script : List.of(launcher, java)) {
      Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
  }

  @Test
  void theBenchCompilesWithC1OnlyAndKeepsItsArguments() throws Exception {
    List<String> args = run("", "--coordinator", "127.0.0.1:7400", "bench", "enqueue-1");

    assertThat(args)
        .containsSubsequence(
            C1_ONLY,
            "-jar",
            home.resolve("bench/target/antrean-bench.jar").toString(),
            "--coordinator",
            "127.0.0.1:7400",
            "enqueue-1");
  }

  @Test
  void theUsersOptionsComeAfterTheLaunchersSoTheyWin() throws Exception {
    List<String> args = run("-XX:TieredStopAtLevel=4 -Xmx64m", "bench", "enqueue-1");

    assertThat(args)
        .containsSubsequence(C1_ONLY, "-XX:TieredStopAtLevel=4", "-Xmx64m", "-jar")
        .containsOnlyOnce(C1_ONLY);
  }

  @Test
  void theCoordinatorAndTheWorkerKeepBothCompilers() throws Exception {
    List<String> coordinator = run("", "coordinator", "--grpc-port", "0");
    List<String> worker = run("", "worker", "--queue", "q");

    assertThat(coordinator)
        .contains(home.resolve("coordinator/target/antrean-coordinator.jar").toString())
        .noneMatch(arg -> arg.startsWith("-XX:TieredStopAtLevel"));
    assertThat(worker)
        .contains(home.resolve("worker-runner/target/antrean-worker-runner.jar").toString())
        .noneMatch(arg -> arg.startsWith("-XX:TieredStopAtLevel"));
  }

  @Test
  void theCoordinatorAndTheWorkerInlineLessDeeplyAndTheUsersOptionsWin() throws Exception {
    for (List<String> arguments :
        List.of(List.of("coordinator", "--grpc-port", "0"), List.of("worker", "--queue", "q"))) {
      assertThat(run("-XX:MaxInlineLevel=15", arguments.toArray(String[]::new)))
          .as("%s", arguments)
          .containsSubsequence(
              "-XX:FreqInlineSize=100",
              "-XX:InlineSmallCode=1000",
              "-XX:MaxInlineLevel=9",
              "-XX:MaxInlineLevel=15",
              "-jar");
    }
    for (String program : List.of("bench", "stats")) {
      assertThat(run("", program))
          .as(program)
          .noneMatch(arg -> arg.startsWith("-XX:MaxInlineLevel"));
    }
  }

  @Test
  void theCoordinatorAndTheWorkerGetTheCompilerFilesBesideTheirJarsAndTheUsersChoiceWins()
      throws Exception {
    for (String program : List.of("coordinator", "worker")) {
      String base = PROGRAM_JARS.get(program).replaceFirst("\\.jar$", "");
      Path directives = home.resolve(base + ".compiler-directives.json");
      Path commands = home.resolve(base + ".compile-commands");
      Files.writeString(directives, "[]");
      Files.writeString(commands, "quiet");

      assertThat(run("-Xmx64m", program))
          .as(program)
          .containsSubsequence(
              "-XX:+UnlockDiagnosticVMOptions",
              "-XX:CompilerDirectivesFile=" + directives,
              "-XX:CompileCommandFile=" + commands,
              "-Xmx64m",
              "-jar",
              home.resolve(PROGRAM_JARS.get(program)).toString());
      for (String own :
          List.of("-XX:TieredStopAtLevel=4", "-XX:CompilerDirectivesFile=/mine.json")) {
        assertThat(run(own, program))
            .as("%s with %s", program, own)
            .containsOnlyOnce(own)
            .noneMatch(arg -> arg.contains(".compile"));
      }
    }
    for (String program : List.of("bench", "stats")) {
      assertThat(run("", program)).as(program).noneMatch(arg -> arg.startsWith("-XX:Compile"));
    }
  }

  @Test
  void withoutTheirCompilerFilesTheCoordinatorAndTheWorkerKeepTheJdksCompilers() throws Exception {
    for (String program : List.of("coordinator", "worker")) {
      assertThat(run("", program))
          .as(program)
          .noneMatch(arg -> arg.startsWith("-XX:Compile"))
          .doesNotContain("-XX:+UnlockDiagnosticVMOptions");
    }
  }

  @Test
  void theCoordinatorTheWorkerAndTheBenchRunTheParallelCollector() throws Exception {
    for (List<String> arguments :
        List.of(
            List.of("coordinator", "--grpc-port", "0"),
            List.of("worker", "--queue", "q"),
            List.of("bench", "enqueue-1"))) {
      assertThat(run("-Xmx64m", arguments.toArray(String[]::new)))
          .as("%s", arguments)
          .containsSubsequence(PARALLEL_COLLECTOR, "-Xmx64m", "-jar")
          .containsOnlyOnce(PARALLEL_COLLECTOR);
    }
  }

  @Test
  void aCollectorChosenByTheUserIsTheOnlyOne() throws Exception {
    for (String own : List.of("-XX:+UseG1GC", "-XX:+UseZGC", "-XX:+UseSerialGC")) {
      for (String program : List.of("coordinator", "worker", "bench")) {
        assertThat(run("-Xmx64m " + own, program, "enqueue-1"))
            .as("%s with %s", program, own)
            .containsOnlyOnce(own)
            .doesNotContain(PARALLEL_COLLECTOR);
      }
    }
  }

  @Test
  void aCollectorChosenByTheUserReplacesTheClientsSerialOne() throws Exception {
    assertThat(run("-XX:+UseG1GC", "stats"))
        .containsOnlyOnce("-XX:+UseG1GC")
        .doesNotContain("-XX:+UseSerialGC", PARALLEL_COLLECTOR);
  }

  @Test
  void theClientKeepsItsSerialCollector() throws Exception {
    assertThat(run("", "stats")).contains("-XX:+UseSerialGC").doesNotContain(PARALLEL_COLLECTOR);
  }

  /** Runs the launcher with the fake java; returns the arguments java was given. */
  private List<String> run(String javaOptions, String... arguments)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(launcher.toString());
    command.addAll(List.of(arguments));
    Path output = home.resolve("java-args.txt");
    ProcessBuilder builder =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile());
    builder.environment().put("JAVA", java.toString());
    builder.environment().put("ANTREAN_JAVA_OPTS", javaOptions);
    builder.environment().put("ANTREAN_CDS", "0");
    Process process = builder.start();
    assertThat(process.waitFor(30, TimeUnit.SECONDS)).as("the launcher ends").isTrue();
    List<String> printed = Files.readAllLines(output, StandardCharsets.UTF_8);
    assertThat(process.exitValue()).as("exit status; output: %s", printed).isZero();
    return printed;
  }
}
