package io.antrean.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The JIT compiler files the build leaves beside the coordinator's and the runnable worker's jars,
 * which {@code bin/antrean} gives their JVMs: in a JVM given a jar's files, code in the transport's
 * packages (and in the worker, in Antrean's own) is compiled by C1's tiers only and ends in C1's
 * plain tier (1), while a handler's code, and the coordinator's own, reach C2 (tier 4). Without
 * them everything reaches C2, so the files are what keeps the code from C2. Read from {@code
 * -XX:+PrintCompilation}, every compile waited for ({@code -Xbatch}) so that a loaded machine sees
 * the same tiers.
 */
@Timeout(60)
final class CompilerFilesIT {
  private static final Path COORDINATOR_JAR =
      Path.of(System.getProperty("antrean.coordinator.jar"));
  private static final Path WORKER_JAR = Path.of(System.getProperty("antrean.worker.jar"));
  private static final String OWN = "io.antrean.it.CompilerProbe::ownWork";
  private static final String TRANSPORT = "io.grpc.antreanprobe.TransportWork::work";
  private static final String HANDLER = "com.example.handlers.ProbeWork::work";

  // "   25    9    b  1       io.antrean.it.CompilerProbe::ownWork (31 bytes)": the time, the
  // compile id, flags (% for a loop's compile, b for a blocking one), the tier, the method.
  private static final Pattern COMPILED =
      Pattern.compile("^\\s*\\d+\\s+\\d+\\s+[%sbn! ]*?([0-4])\\s+(\\S+::\\S+)");

  @TempDir Path dir;

  @Test
  void theWorkerKeepsItsOwnCodeAndTheTransportFromC2AndLeavesTheHandlersToIt() throws Exception {
    List<String> lines = run(filesOf(WORKER_JAR));

    for (String method : List.of(OWN, TRANSPORT)) {
      assertThat(tiers(lines, method)).as("tiers of %s", method).contains(1).doesNotContain(4);
      assertThat(lastTier(lines, method)).as("last tier of %s", method).isEqualTo(1);
    }
    assertThat(tiers(lines, HANDLER)).as("tiers of %s", HANDLER).contains(4);
  }

  @Test
  void theCoordinatorKeepsTheTransportFromC2AndItsOwnCodeWithIt() throws Exception {
    List<String> lines = run(filesOf(COORDINATOR_JAR));

    assertThat(tiers(lines, TRANSPORT)).as("tiers of %s", TRANSPORT).contains(1).doesNotContain(4);
    assertThat(lastTier(lines, TRANSPORT)).isEqualTo(1);
    assertThat(tiers(lines, OWN)).as("tiers of %s", OWN).contains(4);
    assertThat(tiers(lines, HANDLER)).as("tiers of %s", HANDLER).contains(4);
  }

  @Test
  void withoutTheFilesEverythingReachesC2() throws Exception {
    List<String> lines = run(List.of());

    for (String method : List.of(OWN, TRANSPORT, HANDLER)) {
      assertThat(tiers(lines, method)).as("tiers of %s", method).contains(4);
    }
  }

  /** The options {@code bin/antrean} gives {@code jar}'s JVM for the files beside it. */
  private static List<String> filesOf(Path jar) {
    String base = jar.getFileName().toString().replaceFirst("\\.jar$", "");
    Path directives = jar.resolveSibling(base + ".compiler-directives.json");
    Path commands = jar.resolveSibling(base + ".compile-commands");
    assertThat(directives).as("built by process-resources").isRegularFile();
    assertThat(commands).as("built by process-resources").isRegularFile();
    return List.of(
        "-XX:+UnlockDiagnosticVMOptions",
        "-XX:CompilerDirectivesFile=" + directives,
        "-XX:CompileCommandFile=" + commands);
  }

  private List<String> run(List<String> options) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(options);
    command.add("-Xbatch");
    command.add("-XX:+PrintCompilation");
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(CompilerProbe.class.getName());
    Path output = dir.resolve("compilation.txt");
    Process process =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(output.toFile())
            .start();
    assertThat(process.waitFor(30, TimeUnit.SECONDS)).as("the probe ends").isTrue();
    List<String> lines = Files.readAllLines(output, StandardCharsets.UTF_8);
    assertThat(process.exitValue()).as("exit status; output: %s", lines).isZero();
    assertThat(lines).noneMatch(line -> line.startsWith("CompileCommand:"));
    return lines;
  }

  /** The tiers {@code method} was compiled at, its loops' compiles included. */
  private static Set<Integer> tiers(List<String> lines, String method) {
    Set<Integer> tiers = new TreeSet<>();
    for (String line : lines) {
      Matcher compiled = compiled(line, method);
      if (compiled != null) {
        tiers.add(Integer.parseInt(compiled.group(1)));
      }
    }
    return tiers;
  }

  /** The tier of {@code method}'s last whole-method compile, or -1. */
  private static int lastTier(List<String> lines, String method) {
    int last = -1;
    for (String line : lines) {
      Matcher compiled = compiled(line, method);
      if (compiled != null && !line.contains(" % ")) {
        last = Integer.parseInt(compiled.group(1));
      }
    }
    return last;
  }

  private static Matcher compiled(String line, String method) {
    Matcher compiled = COMPILED.matcher(line);
    boolean matches =
        compiled.find() && compiled.group(2).equals(method) && !line.contains("made not");
    return matches ? compiled : null;
  }
}
