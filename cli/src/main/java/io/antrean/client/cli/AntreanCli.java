package io.antrean.client.cli;

import io.antrean.channel.ChannelSecurity;
import io.antrean.channel.CoordinatorChannels;
import io.antrean.client.AntreanClient;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * The {@code antrean} command line: enqueue, look at and cancel jobs, work the dead-letter queue,
 * and pause and resume queues. Each subcommand opens one connection to the coordinator, makes its
 * calls and closes it.
 *
 * <p>Exit codes are in {@link ExitCodes} and in every command's help.
 */
@Command(
    name = "antrean",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = {
      "Talks to an Antrean coordinator: enqueue, look at and cancel jobs; inspect, redrive and"
          + " purge the dead-letter queue (dlq); list, pause and resume queues (queue).",
      "Global options go before the command: antrean --coordinator HOST:PORT list",
      "--coordinator takes HOST:PORT, a comma-separated list, or dns:///name:port; with several"
          + " coordinators calls go round-robin to the healthy ones."
    },
    synopsisSubcommandLabel = "COMMAND",
    subcommands = {
      EnqueueCommand.class,
      GetCommand.class,
      DependenciesCommand.class,
      ListCommand.class,
      CancelCommand.class,
      WatchCommand.class,
      StatsCommand.class,
      DlqCommand.class,
      QueueCommand.class,
      ScheduleCommand.class,
      WorkersCommand.class,
      SamplesCommand.class,
      CommandLine.HelpCommand.class
    })
public final class AntreanCli implements Callable<Integer> {

  @Option(
      names = "--coordinator",
      paramLabel = "TARGET",
      defaultValue = "${env:ANTREAN_COORDINATOR:-127.0.0.1:7400}",
      description =
          "The coordinator's gRPC address: HOST:PORT, a comma-separated list, or"
              + " dns:///name:port (env ANTREAN_COORDINATOR; default: ${DEFAULT-VALUE}).")
  private String coordinator;

  @Option(
      names = "--tls-ca",
      paramLabel = "PEM",
      description = "Connect over TLS, trusting these CA certificates (PEM).")
  private Path tlsCa;

  @Option(
      names = "--tls-cert",
      paramLabel = "PEM",
      description = "Client certificate chain (PEM) for mutual TLS, with --tls-key.")
  private Path tlsCert;

  @Option(names = "--tls-key", paramLabel = "PEM", description = "Private key (PEM) of --tls-cert.")
  private Path tlsKey;

  @Option(
      names = "--token-file",
      paramLabel = "FILE",
      description =
          "File holding the bearer token (default: the ANTREAN_TOKEN environment variable).")
  private Path tokenFile;

  @Option(
      names = "--timeout",
      paramLabel = "DURATION",
      defaultValue = "10s",
      converter = DurationConverter.class,
      description =
          "Deadline of each call to the coordinator, e.g. 500ms, 10s (default: ${DEFAULT-VALUE}).")
  private Duration timeout;

  @Spec private CommandSpec spec;

  private final ClientConnector connector;
  private final Clock clock;

  AntreanCli(ClientConnector connector, Clock clock) {
    this.connector = connector;
    this.clock = clock;
  }

  /** Runs the command line and exits the JVM with its exit code. */
  public static void main(String[] args) {
    IsoLogFormatter.install();
    System.exit(commandLine(ClientConnector.GRPC, Clock.systemUTC()).execute(args));
  }

  /**
   * The command line wired to {@code connector}, with the CLI's error handling and exit codes.
   *
   * @param clock what relative times such as {@code --since 1h} count back from
   */
  static CommandLine commandLine(ClientConnector connector, Clock clock) {
    AntreanCli cli = new AntreanCli(connector, clock);
    CommandLine commandLine = new CommandLine(cli);
    commandLine.setCaseInsensitiveEnumValuesAllowed(true);
    commandLine.setExecutionExceptionHandler(new FailureReporter(() -> cli.coordinator));
    commandLine.setParameterExceptionHandler(AntreanCli::reportUsageError);
    addExitCodes(commandLine);
    return commandLine;
  }

  private static void addExitCodes(CommandLine commandLine) {
    commandLine.getCommandSpec().usageMessage().exitCodeListHeading("%nExit codes:%n");
    commandLine.getCommandSpec().usageMessage().exitCodeList(ExitCodes.helpList());
    commandLine.getSubcommands().values().forEach(AntreanCli::addExitCodes);
  }

  /** Prints the mistake and where to find help, not the whole usage text. */
  private static int reportUsageError(ParameterException e, String[] args) {
    CommandLine command = e.getCommandLine();
    PrintWriter err = command.getErr();
    err.println("antrean: " + e.getMessage());
    UnmatchedArgumentException.printSuggestions(e, err);
    err.printf("Try '%s --help' for more information.%n", command.getCommandSpec().qualifiedName());
    err.flush();
    return ExitCodes.USAGE;
  }

  /** Runs when no command is given: a usage error. */
  @Override
  public Integer call() {
    throw new ParameterException(spec.commandLine(), "Missing command");
  }

  /**
   * Opens a client to the chosen coordinator with the chosen deadline; the caller closes it. A
   * malformed {@code --coordinator} is a usage error.
   */
  AntreanClient connect() {
    try {
      CoordinatorChannels.forTargets(coordinator);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), "--coordinator: " + e.getMessage(), e);
    }
    ChannelSecurity security;
    try {
      security = ChannelSecurity.of(tlsCa, tlsCert, tlsKey, tokenFile, System.getenv());
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage(), e);
    }
    return connector.connect(coordinator, timeout, security);
  }

  /** The current time, for options given relative to now. */
  Instant now() {
    return clock.instant();
  }

  /** Where commands print their results. */
  PrintWriter out() {
    return spec.commandLine().getOut();
  }

  /** Where commands print diagnostics. */
  PrintWriter err() {
    return spec.commandLine().getErr();
  }
}
