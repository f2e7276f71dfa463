package io.antrean.coordinator.http;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.EnumDescriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import com.google.protobuf.util.Durations;
import com.google.protobuf.util.JsonFormat;
import io.antrean.coordinator.core.FieldViolation;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.text.ParseException;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import javax.annotation.Nullable;

/**
 * Checks the values of a JSON request body against its message before protobuf's JSON parser reads
 * it, so that a bad value is reported with the field's name (protobuf's parser only says the body
 * is wrong): an integer out of its type's range, a bytes field that is not base64, an enum name the
 * message does not have, and times and durations, which are parsed strictly ({@code
 * 2026-13-45T99:00:00Z} is an error, not a date in 2027). Unknown fields and malformed JSON are
 * left to the parser. Stateless.
 */
final class JsonFieldCheck {
  private static final BigInteger INT64_MIN = BigInteger.valueOf(Long.MIN_VALUE);
  private static final BigInteger INT64_MAX = BigInteger.valueOf(Long.MAX_VALUE);
  private static final BigInteger UINT32_MAX = BigInteger.valueOf(0xFFFF_FFFFL);
  private static final BigInteger UINT64_MAX =
      BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);
  private static final BigInteger INT32_MIN = BigInteger.valueOf(Integer.MIN_VALUE);
  private static final BigInteger INT32_MAX = BigInteger.valueOf(Integer.MAX_VALUE);
  private static final Pattern DURATION = Pattern.compile("-?[0-9]+(\\.[0-9]{1,9})?s");
  private static final String TIME_EXAMPLE =
      "must be an RFC 3339 time such as 2026-11-30T10:00:00Z";
  private static final JsonFormat.Parser PARSER = JsonFormat.parser();

  private JsonFieldCheck() {}

  /** The faults of a JSON object's values; empty when the text is not a JSON object at all. */
  static List<FieldViolation> violations(String json, Descriptor message) {
    Struct.Builder parsed = Struct.newBuilder();
    try {
      PARSER.merge(json, parsed);
    } catch (InvalidProtocolBufferException | RuntimeException e) {
      return List.of();
    }
    List<FieldViolation> out = new ArrayList<>();
    object(parsed.build(), message, "", out);
    return out;
  }

  private static void object(
      Struct json, Descriptor message, String prefix, List<FieldViolation> out) {
    for (Map.Entry<String, Value> member : json.getFieldsMap().entrySet()) {
      FieldDescriptor field = field(message, member.getKey());
      Value v = member.getValue();
      if (field == null || v.hasNullValue()) {
        continue;
      }
      String path = prefix + field.getName();
      if (field.isMapField()) {
        continue;
      }
      if (field.isRepeated()) {
        if (v.hasListValue()) {
          List<Value> items = v.getListValue().getValuesList();
          for (int i = 0; i < items.size(); i++) {
            single(items.get(i), field, path + "[" + i + "]", out);
          }
        }
      } else {
        single(v, field, path, out);
      }
    }
  }

  @Nullable
  private static FieldDescriptor field(Descriptor message, String name) {
    FieldDescriptor f = message.findFieldByName(name);
    if (f != null) {
      return f;
    }
    for (FieldDescriptor candidate : message.getFields()) {
      if (candidate.getJsonName().equals(name)) {
        return candidate;
      }
    }
    return null;
  }

  private static void single(
      Value v, FieldDescriptor field, String path, List<FieldViolation> out) {
    String problem =
        switch (field.getJavaType()) {
          case INT ->
              unsigned(field)
                  ? integer(v, BigInteger.ZERO, UINT32_MAX)
                  : integer(v, INT32_MIN, INT32_MAX);
          case LONG ->
              unsigned(field)
                  ? integer(v, BigInteger.ZERO, UINT64_MAX)
                  : integer(v, INT64_MIN, INT64_MAX);
          case BYTE_STRING -> base64(v);
          case ENUM -> enumValue(v, field.getEnumType());
          case MESSAGE -> {
            message(v, field.getMessageType(), path, out);
            yield null;
          }
          default -> null;
        };
    if (problem != null) {
      out.add(new FieldViolation(path, problem));
    }
  }

  private static boolean unsigned(FieldDescriptor f) {
    return switch (f.getType()) {
      case UINT32, FIXED32, UINT64, FIXED64 -> true;
      default -> false;
    };
  }

  private static void message(Value v, Descriptor type, String path, List<FieldViolation> out) {
    String name = type.getFullName();
    if (name.equals("google.protobuf.Timestamp")) {
      addIfProblem(out, path, timestamp(v));
    } else if (name.equals("google.protobuf.Duration")) {
      addIfProblem(out, path, duration(v));
    } else if (v.hasStructValue() && !name.startsWith("google.protobuf.")) {
      object(v.getStructValue(), type, path + ".", out);
    }
  }

  private static void addIfProblem(
      List<FieldViolation> out, String path, @Nullable String problem) {
    if (problem != null) {
      out.add(new FieldViolation(path, problem));
    }
  }

  @Nullable
  private static String integer(Value v, BigInteger min, BigInteger max) {
    String range = "must be an integer from " + min + " to " + max;
    BigDecimal number;
    try {
      if (v.hasNumberValue()) {
        double d = v.getNumberValue();
        if (Double.isNaN(d) || Double.isInfinite(d)) {
          return range;
        }
        if (Math.abs(d) >= 0x1p53 && max.bitLength() > 32) {
          // A JSON number this large lost digits on the way here; the parser decides.
          return null;
        }
        number = new BigDecimal(d);
      } else if (v.hasStringValue()) {
        number = new BigDecimal(v.getStringValue().trim());
      } else {
        return range;
      }
    } catch (NumberFormatException e) {
      return range;
    }
    if (number.signum() != 0 && number.stripTrailingZeros().scale() > 0) {
      return range;
    }
    BigInteger whole = number.toBigInteger();
    return whole.compareTo(min) < 0 || whole.compareTo(max) > 0 ? range : null;
  }

  @Nullable
  private static String base64(Value v) {
    if (!v.hasStringValue()) {
      return "must be a base64 string";
    }
    String s = v.getStringValue();
    for (Base64.Decoder decoder : List.of(Base64.getDecoder(), Base64.getUrlDecoder())) {
      try {
        decoder.decode(s);
        return null;
      } catch (IllegalArgumentException e) {
        // try the next alphabet
      }
    }
    return "must be base64 (RFC 4648, standard or URL-safe alphabet)";
  }

  @Nullable
  private static String enumValue(Value v, EnumDescriptor type) {
    if (v.hasNumberValue()) {
      return null;
    }
    if (v.hasStringValue() && type.findValueByName(v.getStringValue()) != null) {
      return null;
    }
    List<String> names = new ArrayList<>();
    type.getValues().forEach(e -> names.add(e.getName()));
    return "must be one of " + String.join(", ", names);
  }

  @Nullable
  private static String timestamp(Value v) {
    return v.hasStringValue() ? timestampProblem(v.getStringValue()) : TIME_EXAMPLE;
  }

  /** What is wrong with an RFC 3339 time, or null when it is one from year 1 to 9999. */
  @Nullable
  static String timestampProblem(String s) {
    try {
      // ISO_OFFSET_DATE_TIME resolves strictly: month 13 or hour 99 fail instead of rolling over.
      OffsetDateTime.parse(s.toUpperCase(Locale.ROOT), DateTimeFormatter.ISO_OFFSET_DATE_TIME);
      com.google.protobuf.util.Timestamps.parse(s);
      return null;
    } catch (ParseException | RuntimeException e) {
      return TIME_EXAMPLE;
    }
  }

  @Nullable
  private static String duration(Value v) {
    String example = "must be a duration in seconds such as \"1.5s\", at most 315576000000s";
    if (!v.hasStringValue() || !DURATION.matcher(v.getStringValue()).matches()) {
      return example;
    }
    try {
      Durations.parse(v.getStringValue());
      return null;
    } catch (ParseException | RuntimeException e) {
      return example;
    }
  }
}
