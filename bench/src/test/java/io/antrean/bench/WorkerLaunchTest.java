package io.antrean.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How the bench starts a runnable worker: its jar, its collector, and the class archive and the JIT
 * compiler files beside it if usable.
 */
class WorkerLaunchTest {
  private static final Instant BUILT = Instant.parse("2026-12-02T06:00:00Z");

  @TempDir Path dir;
  private Path jar;
  private Path archive;

  @BeforeEach
  void build() throws Exception {
    jar = Files.createFile(dir.resolve("antrean-worker-runner.jar"));
    Files.setLastModifiedTime(jar, FileTime.from(BUILT));
    archive = dir.resolve("antrean-worker-runner.jsa");
  }

  @Test
  void anArchiveNewerThanTheJarIsLoadedBeforeTheJar() throws Exception {
    archived(BUILT.plusSeconds(60));

    List<String> command = WorkerLaunch.runnableJar(jar, List.of("-Xmx256m")).command();

    assertThat(command)
        .containsSubsequence(
            "-Xmx256m",
            "-XX:SharedArchiveFile=" + archive,
            "-Xlog:cds*=off",
            "-jar",
            jar.toString());
  }

  @Test
  void anArchiveOlderThanTheJarIsLeftAloneItsClassesMayBeStale() throws Exception {
    archived(BUILT.minusSeconds(60));

    assertThat(WorkerLaunch.runnableJar(jar, List.of()).command())
        .noneMatch(option -> option.contains("SharedArchiveFile"));
  }

  @Test
  void workersInlineLessDeeplyUnlessTheUsersOptionsSayOtherwise() {
    List<String> command =
        WorkerLaunch.runnableJar(jar, List.of("-XX:MaxInlineLevel=15")).command();

    assertThat(command)
        .containsSubsequence(
            "-XX:FreqInlineSize=100",
            "-XX:InlineSmallCode=1000",
            "-XX:MaxInlineLevel=9",
            "-XX:MaxInlineLevel=15",
            "-jar");
  }

  @Test
  void noArchiveNoOption() {
    assertThat(WorkerLaunch.runnableJar(jar, List.of()).command())
        .noneMatch(option -> option.contains("SharedArchiveFile"));
  }

  @Test
  void classSharingOptionsOfTheUserWin() throws Exception {
    archived(BUILT.plusSeconds(60));

    for (String own :
        List.of("-Xshare:off", "-XX:SharedArchiveFile=/x.jsa", "-XX:ArchiveClassesAtExit=/y.jsa")) {
      assertThat(WorkerLaunch.runnableJar(jar, List.of(own)).command())
          .as(own)
          .containsOnlyOnce(own)
          .noneMatch(option -> option.equals("-XX:SharedArchiveFile=" + archive));
    }
  }

  @Test
  void workersRunTheParallelCollectorBeforeTheUsersOptions() {
    assertThat(WorkerLaunch.runnableJar(jar, List.of("-Xmx256m")).command())
        .containsSubsequence("-XX:+UseParallelGC", "-Xmx256m", "-jar", jar.toString());
  }

  @Test
  void aCollectorOfTheUsersIsTheOnlyOne() {
    for (String own : List.of("-XX:+UseG1GC", "-XX:+UseZGC", "-XX:+UseSerialGC")) {
      assertThat(WorkerLaunch.runnableJar(jar, List.of(own, "-Xmx1g")).command())
          .as(own)
          .containsOnlyOnce(own)
          .doesNotContain("-XX:+UseParallelGC");
    }
  }

  @Test
  void theCompilerFilesBesideTheJarAreGivenBeforeTheUsersOptions() throws Exception {
    Path directives = compilerFile("antrean-worker-runner.compiler-directives.json");
    Path commands = compilerFile("antrean-worker-runner.compile-commands");

    assertThat(WorkerLaunch.runnableJar(jar, List.of("-Xmx256m")).command())
        .containsSubsequence(
            "-XX:+UnlockDiagnosticVMOptions",
            "-XX:CompilerDirectivesFile=" + directives,
            "-XX:CompileCommandFile=" + commands,
            "-Xmx256m",
            "-jar");
  }

  @Test
  void withoutBothCompilerFilesTheWorkerKeepsTheJdksCompilers() throws Exception {
    compilerFile("antrean-worker-runner.compiler-directives.json");

    assertThat(WorkerLaunch.runnableJar(jar, List.of()).command())
        .noneMatch(option -> option.startsWith("-XX:Compile"))
        .doesNotContain("-XX:+UnlockDiagnosticVMOptions");
  }

  @Test
  void compilersChosenByTheUserWin() throws Exception {
    compilerFile("antrean-worker-runner.compiler-directives.json");
    compilerFile("antrean-worker-runner.compile-commands");

    for (String own :
        List.of(
            "-XX:TieredStopAtLevel=4",
            "-XX:-TieredCompilation",
            "-XX:CompilerDirectivesFile=/mine.json",
            "-XX:CompileCommandFile=/mine",
            "-XX:CompileThresholdScaling=0.5")) {
      assertThat(WorkerLaunch.runnableJar(jar, List.of(own)).command())
          .as(own)
          .containsOnlyOnce(own)
          .noneMatch(option -> option.contains("antrean-worker-runner.compile"));
    }
  }

  private Path compilerFile(String name) throws Exception {
    return Files.writeString(dir.resolve(name), "[]");
  }

  private void archived(Instant at) throws Exception {
    Files.writeString(archive, "archive");
    Files.setLastModifiedTime(archive, FileTime.from(at));
  }
}
