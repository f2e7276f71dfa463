package io.antrean.coordinator.http;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import com.google.protobuf.MessageOrBuilder;
import com.google.protobuf.util.JsonFormat;
import io.antrean.coordinator.core.FieldViolation;
import io.antrean.coordinator.core.ValidationException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The HTTP API's one JSON codec: protobuf's canonical JSON mapping, nothing hand-written.
 *
 * <p>Output keeps the proto field names ({@code run_at}, {@code next_page_token}), the same names
 * that query parameters and error details use, and prints every field, zero values included, so a
 * client sees the same keys on every answer. Following the mapping, int64 values (ids, fencing
 * tokens, counts) are JSON strings, bytes are base64, times are RFC 3339 strings and durations are
 * strings such as {@code "1.5s"}. Input accepts the proto names and their lowerCamel forms; an
 * unknown field is an error, never ignored. Thread-safe.
 */
final class ProtoJson {
  private static final JsonFormat.Printer PRINTER =
      JsonFormat.printer()
          .preservingProtoFieldNames()
          .alwaysPrintFieldsWithNoPresence()
          .omittingInsignificantWhitespace();
  private static final JsonFormat.Parser PARSER = JsonFormat.parser();
  private static final Pattern UNKNOWN_FIELD = Pattern.compile("^Cannot find field: (\\S+) in ");

  private ProtoJson() {}

  static byte[] print(MessageOrBuilder message) {
    try {
      return PRINTER.print(message).getBytes(StandardCharsets.UTF_8);
    } catch (InvalidProtocolBufferException e) {
      // Only an Any with an unregistered type fails to print; the API never sends one.
      throw new IllegalStateException("cannot print " + message.getClass().getSimpleName(), e);
    }
  }

  /**
   * Merges a JSON object into {@code builder}.
   *
   * @throws HttpProblem INVALID_JSON when the text is not JSON or not this message
   * @throws ValidationException naming each field whose value is out of its range or malformed
   */
  static void merge(String json, Message.Builder builder) {
    String expected = builder.getDescriptorForType().getFullName();
    if (json.isBlank()) {
      throw HttpProblem.invalidJson("the request body is empty; expected a JSON " + expected, null);
    }
    List<FieldViolation> violations =
        JsonFieldCheck.violations(json, builder.getDescriptorForType());
    if (!violations.isEmpty()) {
      throw new ValidationException(violations);
    }
    try {
      PARSER.merge(json, builder);
    } catch (InvalidProtocolBufferException | RuntimeException e) {
      // The parser's messages may name its own classes; only an unknown field's name is passed on.
      Matcher m = UNKNOWN_FIELD.matcher(String.valueOf(e.getMessage()));
      String unknown = m.find() ? m.group(1) : null;
      throw HttpProblem.invalidJson(
          "the request body is not valid JSON for " + expected + ": see the API's field names",
          unknown);
    }
  }
}
