package io.antrean.client.cli;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.MessageOrBuilder;
import com.google.protobuf.Value;
import com.google.protobuf.util.JsonFormat;

/**
 * The {@code --json} output: protobuf messages in the proto3 JSON mapping with the proto's own
 * field names ({@code next_page_token}, {@code run_at}), exactly as the coordinator's HTTP API
 * writes them, and with fields at their default values included so that scripts always find them.
 * Also checks JSON input.
 */
final class JsonOutput {
  private static final JsonFormat.Printer PRINTER =
      JsonFormat.printer().alwaysPrintFieldsWithNoPresence().preservingProtoFieldNames();

  private JsonOutput() {}

  /** The message as indented JSON. */
  static String print(MessageOrBuilder message) {
    try {
      return PRINTER.print(message);
    } catch (InvalidProtocolBufferException e) {
      // Only messages holding an Any of an unknown type fail; antrean.v1 responses hold none.
      throw new IllegalStateException("cannot print " + message.getClass().getSimpleName(), e);
    }
  }

  /**
   * Checks that {@code text} is one JSON value.
   *
   * @return {@code null} if it is, otherwise the parser's complaint
   */
  static String jsonProblem(String text) {
    try {
      JsonFormat.parser().merge(text, Value.newBuilder());
      return null;
    } catch (InvalidProtocolBufferException | RuntimeException e) {
      return e.getMessage();
    }
  }
}
