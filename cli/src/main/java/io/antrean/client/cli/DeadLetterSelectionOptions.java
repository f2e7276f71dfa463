package io.antrean.client.cli;

import io.antrean.client.DeadLetterSelection;
import java.time.Instant;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;

/**
 * How {@code dlq redrive} and {@code dlq purge} name their dead letters: ids, filter options, or
 * {@code --all}, exactly one of the three. Mixing them is a usage error rather than a guess,
 * because the protocol would silently ignore the filter next to ids. Not thread-safe.
 */
final class DeadLetterSelectionOptions {
  @Parameters(paramLabel = "ID", arity = "0..*", description = "The dead letters' job ids.")
  List<Long> ids;

  @Mixin DeadLetterFilterOptions filter;

  @Option(names = "--all", description = "Every dead letter of every queue.")
  boolean all;

  /** Whether the dead letters were named by id (rather than by a filter or --all). */
  boolean byIds() {
    return ids != null && !ids.isEmpty();
  }

  /**
   * The selection the options describe.
   *
   * @param verb what the command does, for messages: {@code redrive}, {@code purge}
   * @throws ParameterException unless exactly one of ids, filter options and --all was given
   */
  DeadLetterSelection resolve(CommandLine commandLine, Instant now, String verb) {
    boolean byFilter = !filter.isEmpty();
    int ways = (byIds() ? 1 : 0) + (byFilter ? 1 : 0) + (all ? 1 : 0);
    if (ways == 0) {
      throw new ParameterException(
          commandLine,
          "say which dead letters to "
              + verb
              + ": IDs, filter options (--queue, --type, --error, --since, --until) or --all");
    }
    if (ways > 1) {
      throw new ParameterException(
          commandLine,
          "give IDs, filter options or --all, not more than one of them: the filter does not"
              + " narrow IDs, and --all takes no filter");
    }
    if (all) {
      return DeadLetterSelection.all();
    }
    if (byIds()) {
      return DeadLetterSelection.ofIds(ids);
    }
    try {
      return DeadLetterSelection.matching(filter.toFilter(now, commandLine));
    } catch (IllegalArgumentException emptyFilter) {
      // Only empty option values (--queue '') get here: they filter on nothing.
      throw new ParameterException(commandLine, "filter options must not be empty", emptyFilter);
    }
  }
}
