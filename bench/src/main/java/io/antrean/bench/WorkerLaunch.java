package io.antrean.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import javax.annotation.Nullable;

/**
 * How the bench starts one worker process: the command up to the worker's own options, such as
 * {@code java -jar worker-runner/target/antrean-worker-runner.jar}. The bench appends {@code
 * --coordinator}, {@code --queue}, {@code --concurrency}, {@code --types bench.noop} and {@code
 * --worker-id}. Immutable.
 *
 * @param command the program and its arguments before the worker's options
 */
record WorkerLaunch(List<String> command) {
  /** A JVM option that chooses a garbage collector (or turns one off). */
  private static final Pattern COLLECTOR_OPTION = Pattern.compile("-XX:[+-]Use\\w*GC");

  /**
   * How far C2 inlines in a worker, as {@code bin/antrean worker} runs it: less deep than the JDK's
   * defaults, so a fresh worker spends half as long compiling (docs/benchmarks.md, "Shallower
   * inlining"). Before the user's options, which win.
   */
  static final List<String> INLINING_OPTIONS =
      List.of("-XX:FreqInlineSize=100", "-XX:InlineSmallCode=1000", "-XX:MaxInlineLevel=9");

  /**
   * Options by which the user chooses the worker's compilers or compiler files: with any of them
   * the bench adds none of its own ({@link #compilerOptions}).
   */
  private static final List<String> COMPILER_CHOICES =
      List.of(
          "TieredStopAtLevel",
          "-TieredCompilation",
          "CompilerDirectivesFile",
          "CompileCommandFile",
          "CompileThresholdScaling");

  /** Where the runnable worker's jar lies in a checkout, from its root. */
  static final Path JAR_IN_CHECKOUT =
      Path.of("worker-runner", "target", "antrean-worker-runner.jar");

  WorkerLaunch {
    command = List.copyOf(command);
  }

  /**
   * {@code java [jvmOptions] -jar JAR} with this JVM's {@code java}: {@code jar} when given, else
   * the checkout's (under {@code ANTREAN_HOME}, which {@code bin/antrean} sets, else the checkout
   * the bench's own jar or classes lie in).
   *
   * @throws BenchFailedException if the jar is not there, saying how to build it
   */
  static WorkerLaunch runnableJar(@Nullable Path jar, List<String> jvmOptions) {
    Path chosen = jar != null ? jar : checkoutJar();
    if (!Files.isRegularFile(chosen)) {
      throw new BenchFailedException(
          "the runnable worker "
              + chosen
              + " is not there; build it with ./mvnw -B -DskipTests package, or name one with"
              + " --worker-jar, or use --in-process-workers");
    }
    List<String> command = new ArrayList<>();
    command.add(javaBinary());
    command.addAll(INLINING_OPTIONS);
    command.addAll(compilerOptions(chosen, jvmOptions));
    command.addAll(collectorOptions(jvmOptions));
    command.addAll(jvmOptions);
    command.addAll(classArchiveOptions(chosen, jvmOptions));
    command.add("-jar");
    command.add(chosen.toString());
    return new WorkerLaunch(command);
  }

  /**
   * The JVM options that give the worker the JIT compiler files beside its jar ({@code
   * antrean-worker-runner.compiler-directives.json} and {@code .compile-commands}, which the build
   * puts there), as {@code bin/antrean worker} does: the worker's own code, gRPC, Netty and
   * protobuf compiled by C1 alone after a tenth of the JDK's invocation counts, the handlers and
   * the JDK by both compilers, so a fresh worker's path is compiled within its first seconds
   * (docs/benchmarks.md, "The transport by C1 alone"). None if either file is missing or {@code
   * jvmOptions} choose the compilers or their files themselves.
   */
  static List<String> compilerOptions(Path jar, List<String> jvmOptions) {
    String name = jar.getFileName().toString();
    boolean ownCompilers =
        jvmOptions.stream().anyMatch(o -> COMPILER_CHOICES.stream().anyMatch(o::contains));
    if (!name.endsWith(".jar") || ownCompilers) {
      return List.of();
    }
    String base = name.substring(0, name.length() - ".jar".length());
    Path directives = jar.resolveSibling(base + ".compiler-directives.json");
    Path commands = jar.resolveSibling(base + ".compile-commands");
    if (!Files.isRegularFile(directives) || !Files.isRegularFile(commands)) {
      return List.of();
    }
    return List.of(
        "-XX:+UnlockDiagnosticVMOptions",
        "-XX:CompilerDirectivesFile=" + directives,
        "-XX:CompileCommandFile=" + commands);
  }

  /**
   * The parallel collector, as {@code bin/antrean worker} runs the worker, unless {@code
   * jvmOptions} choose a collector of their own (a JVM given two refuses to start): a worker's live
   * heap is small, and the default G1's barriers cost CPU on every job (docs/benchmarks-history.md,
   * "The garbage collector").
   */
  static List<String> collectorOptions(List<String> jvmOptions) {
    boolean ownCollector = jvmOptions.stream().anyMatch(o -> COLLECTOR_OPTION.matcher(o).matches());
    return ownCollector ? List.of() : List.of("-XX:+UseParallelGC");
  }

  /**
   * The JVM options that load the worker's classes from the class-data-sharing archive beside its
   * jar ({@code antrean-worker-runner.jsa}, which {@code bin/antrean worker} leaves there), when it
   * is newer than the jar and {@code jvmOptions} choose no class sharing of their own: a worker
   * then starts in about 1.0 s instead of 1.6 s, with 1.2 s of CPU instead of 2.1 s, on two cores.
   * An archive the JVM cannot use is ignored, silently.
   */
  static List<String> classArchiveOptions(Path jar, List<String> jvmOptions) {
    String name = jar.getFileName().toString();
    boolean ownSharing =
        jvmOptions.stream()
            .anyMatch(
                o ->
                    o.startsWith("-Xshare:")
                        || o.contains("SharedArchiveFile")
                        || o.contains("ArchiveClassesAtExit"));
    if (!name.endsWith(".jar") || ownSharing) {
      return List.of();
    }
    Path archive = jar.resolveSibling(name.substring(0, name.length() - ".jar".length()) + ".jsa");
    try {
      if (Files.isRegularFile(archive)
          && Files.getLastModifiedTime(archive).compareTo(Files.getLastModifiedTime(jar)) > 0) {
        return List.of("-XX:SharedArchiveFile=" + archive, "-Xlog:cds*=off");
      }
    } catch (IOException e) {
      // Unreadable times: start without the archive.
    }
    return List.of();
  }

  private static Path checkoutJar() {
    String home = System.getenv("ANTREAN_HOME");
    if (home != null && !home.isBlank()) {
      return Path.of(home).resolve(JAR_IN_CHECKOUT);
    }
    try {
      // bench/target/antrean-bench.jar or bench/target/classes: three levels below the root.
      Path here =
          Path.of(BenchMain.class.getProtectionDomain().getCodeSource().getLocation().toURI());
      Path root = here.getParent().getParent().getParent();
      return root.resolve(JAR_IN_CHECKOUT);
    } catch (Exception e) {
      return JAR_IN_CHECKOUT.toAbsolutePath();
    }
  }

  /** {@code ANTREAN_WORKER_JAVA_OPTS} split on spaces: extra JVM options for worker processes. */
  static List<String> jvmOptionsFromEnv() {
    String options = System.getenv("ANTREAN_WORKER_JAVA_OPTS");
    if (options == null || options.isBlank()) {
      return List.of();
    }
    return List.of(options.strip().split("\\s+"));
  }

  /** The {@code java} running the bench, so workers run on the same Java. */
  static String javaBinary() {
    return ProcessHandle.current().info().command().orElse("java");
  }
}
