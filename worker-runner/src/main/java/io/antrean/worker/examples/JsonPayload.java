package io.antrean.worker.examples;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import com.google.protobuf.util.JsonFormat;
import io.antrean.worker.JobContext;
import io.antrean.worker.PermanentException;
import java.nio.charset.StandardCharsets;

/**
 * Minimal JSON reading for the example handlers: a payload is a JSON object whose fields are read
 * one by one. Anything malformed is a {@link PermanentException}, because retrying cannot fix a
 * payload. Stateless.
 */
final class JsonPayload {
  private JsonPayload() {}

  /** Parses the payload as a JSON object; an empty payload is an empty object. */
  static Struct parse(JobContext ctx) {
    String text = ctx.payloadUtf8();
    Struct.Builder object = Struct.newBuilder();
    if (text.isBlank()) {
      return object.build();
    }
    try {
      JsonFormat.parser().merge(text, object);
    } catch (InvalidProtocolBufferException e) {
      // The parser's message quotes the payload; it stays in the cause, out of logged messages.
      throw new PermanentException("payload of job " + ctx.jobId() + " is not a JSON object", e);
    }
    return object.build();
  }

  /**
   * Reads a whole-number field between {@code min} and {@code max}, or {@code fallback} when it is
   * absent.
   */
  static long wholeNumber(Struct payload, String field, long fallback, long min, long max) {
    Value value = payload.getFieldsOrDefault(field, null);
    if (value == null || value.hasNullValue()) {
      return fallback;
    }
    double number = value.getNumberValue();
    if (!value.hasNumberValue() || number != Math.rint(number) || number < min || number > max) {
      throw new PermanentException(
          "payload field \"" + field + "\" must be a whole number from " + min + " to " + max);
    }
    return (long) number;
  }

  /** Reads a text field, or null when it is absent; a non-text value is permanent trouble. */
  static String text(Struct payload, String field) {
    Value value = payload.getFieldsOrDefault(field, null);
    if (value == null || value.hasNullValue()) {
      return null;
    }
    if (!value.hasStringValue()) {
      throw new PermanentException("payload field \"" + field + "\" must be a string");
    }
    return value.getStringValue();
  }

  /** Encodes a JSON document for a handler's result. */
  static byte[] utf8(String json) {
    return json.getBytes(StandardCharsets.UTF_8);
  }

  /** Quotes {@code text} as a JSON string. */
  static String quote(String text) {
    StringBuilder out = new StringBuilder(text.length() + 2).append('"');
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        default -> {
          if (c < 0x20) {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    return out.append('"').toString();
  }
}
