package io.antrean.client.cli;

import io.antrean.client.AntreanClient;
import io.antrean.client.JobSpec;
import io.antrean.proto.v1.DependencyFailure;
import io.antrean.proto.v1.EnqueueResponse;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

/** {@code antrean enqueue}: adds one job and prints its id. */
@Command(
    name = "enqueue",
    mixinStandardHelpOptions = true,
    header = "Adds one job and prints its id.",
    description =
        "Prints the new job's id, followed by ' deduplicated' when the idempotency key matched an"
            + " existing job (nothing new was stored). With --json, prints the EnqueueResponse"
            + " (job and deduplicated) instead.")
final class EnqueueCommand implements Callable<Integer> {
  private static final String JSON = "application/json";

  @ParentCommand private AntreanCli cli;
  @Spec private CommandSpec spec;

  @Option(names = "--type", required = true, description = "The job type (selects the handler).")
  private String type;

  @Option(names = "--queue", description = "The queue (default: the coordinator's 'default').")
  private String queue;

  @ArgGroup(exclusive = true)
  private PayloadSource payload;

  @Option(
      names = "--content-type",
      defaultValue = JSON,
      description =
          "The payload's MIME type (default: ${DEFAULT-VALUE}); JSON payloads are checked.")
  private String contentType;

  @Option(names = "--priority", description = "Higher runs first (default: 0).")
  private Integer priority;

  @Option(
      names = "--delay",
      paramLabel = "DURATION",
      converter = DurationConverter.class,
      description = "Run no earlier than this from now, e.g. 5s, 2m.")
  private Duration delay;

  @Option(names = "--idempotency-key", paramLabel = "KEY", description = "Deduplicates enqueues.")
  private String idempotencyKey;

  @Option(
      names = "--concurrency-key",
      paramLabel = "KEY",
      description = "The key the queue's per-key concurrency limit counts the job under.")
  private String concurrencyKey;

  @Option(
      names = "--unique-key",
      paramLabel = "KEY",
      description =
          "Unique while active: refused (exit code 1, naming the active job) while a job of the"
              + " queue with this key is pending or running.")
  private String uniqueKey;

  @Option(
      names = "--return-existing",
      description = "With --unique-key: print the active job instead of refusing.")
  private boolean returnExisting;

  @Option(
      names = "--depends-on",
      paramLabel = "ID",
      split = ",",
      description =
          "Jobs this job waits for (ID[,ID..]): it stays WAITING until all of them succeeded.")
  private List<Long> dependsOn = List.of();

  @Option(
      names = "--on-dependency-failure",
      paramLabel = "POLICY",
      converter = DependencyFailureConverter.class,
      description =
          "cancel (default) or dead-letter: what becomes of the job if a job it depends on"
              + " fails or is cancelled.")
  private DependencyFailure onDependencyFailure;

  @Option(names = "--max-attempts", paramLabel = "N", description = "Attempts in all, 1 = none.")
  private Integer maxAttempts;

  @Option(names = "--json", description = "Print the response as JSON.")
  private boolean json;

  /** {@code cancel} or {@code dead-letter}, as the proto enum. */
  static final class DependencyFailureConverter implements ITypeConverter<DependencyFailure> {
    @Override
    public DependencyFailure convert(String value) {
      return switch (value) {
        case "cancel" -> DependencyFailure.DEPENDENCY_FAILURE_CANCEL;
        case "dead-letter" -> DependencyFailure.DEPENDENCY_FAILURE_DEAD_LETTER;
        default ->
            throw new TypeConversionException("must be cancel or dead-letter, got '" + value + "'");
      };
    }
  }

  /** Exactly one way of giving the payload, or none. */
  static final class PayloadSource {
    @Option(names = "--payload", paramLabel = "JSON", description = "The payload text.")
    String text;

    @Option(
        names = "--payload-file",
        paramLabel = "FILE",
        description = "Read the payload from FILE ('-' for stdin).")
    Path file;
  }

  @Override
  public Integer call() {
    JobSpec jobSpec = jobSpec();
    try (AntreanClient client = cli.connect()) {
      EnqueueResponse response = client.enqueue(jobSpec);
      if (json) {
        cli.out().println(JsonOutput.print(response));
      } else {
        long id = response.getJob().getId();
        cli.out().println(response.getDeduplicated() ? id + " deduplicated" : String.valueOf(id));
      }
    }
    return ExitCodes.OK;
  }

  private JobSpec jobSpec() {
    try {
      JobSpec.Builder builder = JobSpec.builder(type);
      if (queue != null) {
        builder.queue(queue);
      }
      byte[] bytes = payloadBytes();
      if (bytes != null) {
        builder.payload(bytes, contentType);
      }
      if (priority != null) {
        builder.priority(priority);
      }
      if (delay != null) {
        builder.delay(delay);
      }
      if (idempotencyKey != null) {
        builder.idempotencyKey(idempotencyKey);
      }
      if (concurrencyKey != null) {
        builder.concurrencyKey(concurrencyKey);
      }
      if (uniqueKey != null) {
        builder.uniqueKey(uniqueKey, returnExisting);
      }
      if (maxAttempts != null) {
        builder.maxAttempts(maxAttempts);
      }
      builder.dependsOn(dependsOn.stream().mapToLong(Long::longValue).toArray());
      if (onDependencyFailure != null) {
        builder.onDependencyFailure(onDependencyFailure);
      }
      return builder.build();
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage(), e);
    }
  }

  private byte[] payloadBytes() {
    if (payload == null) {
      return null;
    }
    byte[] bytes =
        payload.text != null
            ? payload.text.getBytes(StandardCharsets.UTF_8)
            : readFile(payload.file);
    if (contentType.contains("json")) {
      String problem = JsonOutput.jsonProblem(new String(bytes, StandardCharsets.UTF_8));
      if (problem != null) {
        throw new ParameterException(spec.commandLine(), "payload is not valid JSON: " + problem);
      }
    }
    return bytes;
  }

  private byte[] readFile(Path file) {
    try {
      if (file.toString().equals("-")) {
        InputStream in = System.in;
        return in.readAllBytes();
      }
      return Files.readAllBytes(file);
    } catch (IOException e) {
      throw new ParameterException(
          spec.commandLine(), "cannot read payload file " + file + ": " + e, e);
    }
  }
}
