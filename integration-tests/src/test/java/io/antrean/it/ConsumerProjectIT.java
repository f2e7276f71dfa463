package io.antrean.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.antrean.proto.v1.Job;
import io.antrean.proto.v1.JobState;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.jar.JarFile;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Java service built on the published libraries: src/it/consumer, compiled by the
 * maven-invoker-plugin against the artifacts it installed into target/it-repo (the BOM,
 * antrean-client, antrean-worker), runs its producer and its worker as processes against a real
 * coordinator.
 */
@Timeout(180)
class ConsumerProjectIT {
  private static final Path CONSUMER = Path.of(System.getProperty("antrean.consumer.dir"));
  private static final Path IT_REPO = Path.of(System.getProperty("antrean.it.repo"));
  private static final String VERSION = System.getProperty("antrean.version");
  private static final Path SOURCES = Path.of("src", "it", "consumer", "src", "main", "java");
  private static final Duration WAIT = Duration.ofSeconds(90);

  @RegisterExtension final Cluster cluster = new Cluster();
  @TempDir Path dir;
  private Path logDir;

  @BeforeEach
  void setUp(TestInfo info) throws Exception {
    String name = info.getTestMethod().orElseThrow().getName();
    cluster.setUp(dir, name);
    logDir = Path.of("target", "it-logs", name).toAbsolutePath();
  }

  @Test
  void theConsumersWorkerRunsTheJobItsProducerEnqueuedAndDrainsOnSigterm() throws Exception {
    cluster.startCoordinator();

    try (JvmProcess producer = consumer("consumer-producer", "com.example.SignupProducer")) {
      // The worker starts once the job is in, so the producer's wait is part of the test.
      Awaitility.await("the producer's job enqueued")
          .atMost(WAIT)
          .ignoreExceptions()
          .until(() -> Jobs.get(cluster.jobs(), 1).getState() == JobState.JOB_STATE_PENDING);
      try (JvmProcess worker = consumer("consumer-worker", "com.example.EmailWorker")) {
        assertThat(producer.awaitExit(WAIT)).as(producer.logText()).isZero();
        assertThat(producer.logText()).contains("job 1 JOB_STATE_SUCCEEDED {\"sent\":true}");
        assertThat(worker.logText()).contains("sending {\"to\":\"ada@example.com\"}");
        Job job = Jobs.get(cluster.jobs(), 1);
        assertThat(job.getState()).isEqualTo(JobState.JOB_STATE_SUCCEEDED);
        assertThat(job.getResult().toStringUtf8()).isEqualTo("{\"sent\":true}");

        worker.terminate();
        // The JVM reports SIGTERM as 143 once the shutdown hook (the worker's drain) has returned.
        assertThat(worker.awaitExit(WAIT)).as(worker.logText()).isEqualTo(143);
      }
    }
  }

  @Test
  void theConsumersWorkerDeadLettersAPermanentFailure() throws Exception {
    cluster.startCoordinator();
    long id = Jobs.enqueue(cluster.jobs(), "email.send", "{\"subject\":\"hi\"}");

    try (JvmProcess worker = consumer("consumer-worker", "com.example.EmailWorker")) {
      Job failed = Jobs.awaitState(cluster.jobs(), id, JobState.JOB_STATE_FAILED, WAIT);
      assertThat(failed.getAttempts()).isEqualTo(1);
      assertThat(failed.getHistory(0).getErrorMessage()).contains("no recipient");
      assertThat(worker.isAlive()).isTrue();
    }
  }

  @Test
  void theLibrariesAreThinJarsWhosePomsBringTheirDependencies() throws IOException {
    List<String> jars = libraryJars();

    assertThat(jars)
        .contains(
            "antrean-client-" + VERSION + ".jar",
            "antrean-worker-" + VERSION + ".jar",
            "antrean-proto-" + VERSION + ".jar",
            "antrean-channel-" + VERSION + ".jar")
        .anyMatch(name -> name.startsWith("grpc-netty-shaded-"))
        .anyMatch(name -> name.startsWith("protobuf-java-"))
        .noneMatch(name -> name.startsWith("picocli-"))
        .noneMatch(name -> name.startsWith("logback-"))
        .noneMatch(name -> name.startsWith("antrean-cli-"))
        .noneMatch(name -> name.startsWith("antrean-worker-runner-"))
        .noneMatch(name -> name.startsWith("antrean-coordinator-"));
    assertThat(classes("antrean-client"))
        .contains("io/antrean/client/AntreanClient.class")
        .noneMatch(entry -> entry.startsWith("io/antrean/client/cli/"))
        .noneMatch(entry -> entry.startsWith("io/antrean/proto/") || entry.startsWith("io/grpc/"));
    assertThat(classes("antrean-worker"))
        .contains("io/antrean/worker/Worker.class")
        .noneMatch(entry -> entry.startsWith("io/antrean/worker/examples/"))
        .doesNotContain("io/antrean/worker/WorkerMain.class");
    assertThat(entries("antrean-worker")).doesNotContain("logback.xml");
  }

  @Test
  void theInstalledRepositoryHoldsWhatMvnwInstallPublishes() {
    for (String artifact : List.of("antrean-client", "antrean-worker")) {
      Path folder = IT_REPO.resolve(Path.of("io", "antrean", artifact, VERSION));
      assertThat(folder.resolve(artifact + "-" + VERSION + ".jar")).isRegularFile();
      assertThat(folder.resolve(artifact + "-" + VERSION + ".pom")).isRegularFile();
    }
    assertThat(IT_REPO.resolve(Path.of("io", "antrean", "antrean-bom", VERSION)))
        .isDirectoryContaining("glob:**/antrean-bom-" + VERSION + ".pom");
  }

  @Test
  void theReadmeShowsTheConsumersProducerAndWorkerAsTheyCompile() throws IOException {
    String readme = Files.readString(Path.of("..", "README.md"), StandardCharsets.UTF_8);

    for (String program : List.of("SignupProducer", "EmailWorker")) {
      String source =
          Files.readString(SOURCES.resolve(Path.of("com", "example", program + ".java")));
      assertThat(readme).as(program).contains(source.substring(source.indexOf("import ")));
    }
  }

  private JvmProcess consumer(String name, String mainClass) throws IOException {
    Path classes = CONSUMER.resolve(Path.of("target", "classes"));
    assertThat(classes.resolve(mainClass.replace('.', '/') + ".class"))
        .as("the invoker-built consumer project")
        .isRegularFile();
    String classPath =
        Stream.concat(
                Stream.of(classes.toString()),
                libraryJars().stream().map(jar -> CONSUMER.resolve("target/lib/" + jar).toString()))
            .collect(Collectors.joining(File.pathSeparator));
    return JvmProcess.startMain(name, classPath, mainClass, logDir, List.of(cluster.target()));
  }

  private static List<String> libraryJars() throws IOException {
    try (Stream<Path> files = Files.list(CONSUMER.resolve(Path.of("target", "lib")))) {
      return files.map(path -> path.getFileName().toString()).sorted().toList();
    }
  }

  private static List<String> classes(String artifact) throws IOException {
    return entries(artifact).stream().filter(name -> name.endsWith(".class")).toList();
  }

  private static List<String> entries(String artifact) throws IOException {
    Path jar = CONSUMER.resolve(Path.of("target", "lib", artifact + "-" + VERSION + ".jar"));
    try (JarFile file = new JarFile(jar.toFile())) {
      return file.stream().map(entry -> entry.getName()).toList();
    }
  }
}
