package io.antrean.worker;

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
 * The runnable worker's JIT compiler files, as the build leaves them beside its jar: in a JVM given
 * them, a method of the worker's packages is compiled by C1's tiers only and ends in C1's plain
 * tier (1), while a method of a handler's package reaches C2 (tier 4). Without them both reach C2,
 * so the files are what keeps the worker's code from C2. Read from {@code -XX:+PrintCompilation},
 * with every compile waited for ({@code -Xbatch}).
 */
@Timeout(60)
class WorkerCompilerFilesTest {
  private static final Path DIRECTIVES =
      Path.of("target", "antrean-worker-runner.compiler-directives.json");
  private static final Path COMMANDS = Path.of("target", "antrean-worker-runner.compile-commands");
  private static final String LIBRARY_METHOD = "io.antrean.worker.CompilerProbe::libraryWork";
  private static final String HANDLER_METHOD = "com.example.handlers.ProbeWork::work";

  // "   25    9       1       io.antrean.worker.CompilerProbe::libraryWork (31 bytes)": the time,
  // the compile id, flags (% for a loop's compile), the tier, the method.
  private static final Pattern COMPILED =
      Pattern.compile("^\\s*\\d+\\s+\\d+\\s+[%sbn! ]*?([0-4])\\s+(\\S+::\\S+)");

  @TempDir Path dir;

  @Test
  void theWorkersCodeEndsInC1sPlainTierAndTheHandlersReachesC2() throws Exception {
    List<String> lines =
        run(
            "-XX:+UnlockDiagnosticVMOptions",
            "-XX:CompilerDirectivesFile=" + DIRECTIVES,
            "-XX:CompileCommandFile=" + COMMANDS);

    assertThat(tiers(lines, LIBRARY_METHOD))
        .as("tiers of %s", LIBRARY_METHOD)
        .contains(1)
        .doesNotContain(4);
    assertThat(lastTier(lines, LIBRARY_METHOD)).isEqualTo(1);
    assertThat(tiers(lines, HANDLER_METHOD)).as("tiers of %s", HANDLER_METHOD).contains(4);
    assertThat(lines).noneMatch(line -> line.startsWith("CompileCommand:"));
  }

  @Test
  void withoutTheFilesTheWorkersCodeReachesC2Too() throws Exception {
    List<String> lines = run();

    assertThat(tiers(lines, LIBRARY_METHOD)).contains(4);
    assertThat(tiers(lines, HANDLER_METHOD)).contains(4);
  }

  private List<String> run(String... options) throws IOException, InterruptedException {
    assertThat(DIRECTIVES).as("built by process-resources").isRegularFile();
    assertThat(COMMANDS).as("built by process-resources").isRegularFile();
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(List.of(options));
    // Each compile finishes before the code goes on, so a loaded machine sees the same tiers.
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
    return lines;
  }

  private static Set<Integer> tiers(List<String> lines, String method) {
    Set<Integer> tiers = new TreeSet<>();
    for (String line : lines) {
      Matcher compiled = COMPILED.matcher(line);
      if (compiled.find() && compiled.group(2).equals(method) && !line.contains("made not")) {
        tiers.add(Integer.parseInt(compiled.group(1)));
      }
    }
    return tiers;
  }

  private static int lastTier(List<String> lines, String method) {
    int last = -1;
    for (String line : lines) {
      Matcher compiled = COMPILED.matcher(line);
      if (compiled.find()
          && compiled.group(2).equals(method)
          && !line.contains("made not")
          && !line.contains(" % ")) {
        last = Integer.parseInt(compiled.group(1));
      }
    }
    return last;
  }
}
