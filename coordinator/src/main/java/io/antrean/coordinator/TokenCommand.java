package io.antrean.coordinator;

import io.antrean.coordinator.security.Role;
import io.antrean.coordinator.security.TokenFile;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code antrean token}: creates and revokes the bearer tokens of a coordinator's token file. */
@Command(
    name = "token",
    mixinStandardHelpOptions = true,
    description = "Creates and revokes bearer tokens in a token file (--token-file).",
    subcommands = {TokenCommand.Create.class, TokenCommand.Revoke.class})
final class TokenCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    spec.commandLine().usage(spec.commandLine().getErr());
    return 2;
  }

  /** {@code antrean token create}. */
  @Command(
      name = "create",
      mixinStandardHelpOptions = true,
      description = {
        "Creates a token for a new identity, appends its SHA-256 to the file and prints the token"
            + " once on standard output. It is stored nowhere else: keep it in a secret store.",
        "A running coordinator picks the new entry up within seconds."
      })
  static final class Create implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Option(names = "--name", required = true, description = "The identity's unique name.")
    String name;

    @Option(
        names = "--role",
        required = true,
        paramLabel = "ROLE",
        description = "producer, worker, admin or reader; repeatable.")
    List<String> roles = new ArrayList<>();

    @Option(
        names = "--queue",
        paramLabel = "QUEUE",
        description = "A queue the identity may use; repeatable. Default: every queue.")
    List<String> queues = new ArrayList<>();

    @Option(names = "--file", required = true, description = "The token file (created if missing).")
    Path file;

    @Override
    public Integer call() throws Exception {
      Set<Role> parsed = new LinkedHashSet<>();
      for (String r : roles) {
        parsed.add(Role.parse(r));
      }
      String token =
          TokenFile.create(file, name, parsed, new LinkedHashSet<>(queues), Instant.now());
      spec.commandLine().getOut().println(token);
      spec.commandLine().getOut().flush();
      return 0;
    }
  }

  /** {@code antrean token revoke}. */
  @Command(
      name = "revoke",
      mixinStandardHelpOptions = true,
      description = "Removes an identity's entry; its token stops working within seconds.")
  static final class Revoke implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Option(names = "--name", required = true, description = "The identity to remove.")
    String name;

    @Option(names = "--file", required = true, description = "The token file.")
    Path file;

    @Override
    public Integer call() throws Exception {
      if (!TokenFile.revoke(file, name)) {
        spec.commandLine()
            .getErr()
            .println("antrean token: no identity named '" + name + "' in " + file);
        return 1;
      }
      return 0;
    }
  }
}
