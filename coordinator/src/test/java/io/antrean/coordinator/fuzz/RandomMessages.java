package io.antrean.coordinator.fuzz;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.EnumDescriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.WireFormat;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Random;

/**
 * Random protobuf messages of any type, built from the descriptor, biased towards values that break
 * things: extreme numbers, times far outside any range, empty and huge strings, unknown enum
 * numbers, many repeated items; and byte-level damage of encoded messages (flipped, dropped,
 * inserted bytes; invalid UTF-8 in a string field). Deterministic for a given {@link Random}.
 */
final class RandomMessages {
  private static final long[] LONGS = {
    0,
    1,
    -1,
    2,
    42,
    1000,
    Integer.MAX_VALUE,
    Integer.MIN_VALUE,
    Long.MAX_VALUE,
    Long.MIN_VALUE,
    10_000_000_000_000L,
    -10_000_000_000_000L,
    315_576_000_000L,
    315_576_000_001L,
    253_402_300_799L,
    253_402_300_800L,
    -62_135_596_800L,
    -62_135_596_801L,
    1L << 53,
    999_999_999,
    1_000_000_000
  };
  private static final double[] DOUBLES = {
    0,
    1,
    -1,
    0.5,
    2,
    100,
    101,
    1e308,
    -1e308,
    Double.MAX_VALUE,
    Double.MIN_VALUE,
    Double.NaN,
    Double.POSITIVE_INFINITY,
    Double.NEGATIVE_INFINITY,
    1e-300,
    100_000,
    100_001
  };
  private static final List<String> STRINGS =
      List.of(
          "",
          "default",
          "x",
          "email.send",
          "a b",
          "../../etc/passwd",
          "%ZZ",
          "\u0000",
          "é",
          "\uD83D\uDE00",
          "DROP TABLE jobs;",
          "null",
          "-1",
          "9223372036854775808",
          "queue.name-1_2",
          "\uFFFF",
          "w1");

  private final Random random;

  RandomMessages(Random random) {
    this.random = random;
  }

  /** A message of the type with random fields set; nested messages to a few levels. */
  DynamicMessage message(Descriptor type) {
    return message(type, 0);
  }

  private DynamicMessage message(Descriptor type, int depth) {
    DynamicMessage.Builder b = DynamicMessage.newBuilder(type);
    for (FieldDescriptor f : type.getFields()) {
      if (random.nextInt(3) == 0) {
        continue;
      }
      if (f.isMapField()) {
        continue;
      }
      if (f.isRepeated()) {
        int n = repeatCount();
        for (int i = 0; i < n; i++) {
          Object v = value(f, depth);
          if (v != null) {
            b.addRepeatedField(f, v);
          }
        }
      } else {
        Object v = value(f, depth);
        if (v != null) {
          b.setField(f, v);
        }
      }
    }
    return b.build();
  }

  private int repeatCount() {
    return switch (random.nextInt(10)) {
      case 0 -> 0;
      case 1 -> random.nextInt(4) == 0 ? 1000 + random.nextInt(200) : 20 + random.nextInt(50);
      case 2 -> random.nextInt(20);
      default -> 1 + random.nextInt(3);
    };
  }

  private Object value(FieldDescriptor f, int depth) {
    return switch (f.getJavaType()) {
      case INT -> (int) number();
      case LONG -> number();
      case FLOAT -> (float) decimal();
      case DOUBLE -> decimal();
      case BOOLEAN -> random.nextBoolean();
      case STRING -> string();
      case BYTE_STRING -> ByteString.copyFrom(bytes());
      case ENUM -> enumValue(f.getEnumType());
      case MESSAGE -> depth > 3 ? null : message(f.getMessageType(), depth + 1);
    };
  }

  long number() {
    return switch (random.nextInt(4)) {
      case 0 -> random.nextLong();
      case 1 -> random.nextInt(10);
      default -> LONGS[random.nextInt(LONGS.length)];
    };
  }

  private double decimal() {
    return random.nextBoolean()
        ? DOUBLES[random.nextInt(DOUBLES.length)]
        : random.nextDouble() * 10;
  }

  String string() {
    return switch (random.nextInt(12)) {
      case 0 -> "q".repeat(random.nextBoolean() ? 65 : 129);
      case 1 -> "s".repeat(random.nextInt(16) == 0 ? 100_000 : 1000 + random.nextInt(3000));
      case 2 -> randomText(1 + random.nextInt(40));
      default -> STRINGS.get(random.nextInt(STRINGS.size()));
    };
  }

  private String randomText(int n) {
    StringBuilder sb = new StringBuilder(n);
    for (int i = 0; i < n; i++) {
      sb.appendCodePoint(
          random.nextInt(4) == 0 ? random.nextInt(0x2FFFF) : 32 + random.nextInt(95));
    }
    return sb.toString().replaceAll("[\\uD800-\\uDFFF]", "?");
  }

  byte[] bytes() {
    int n =
        switch (random.nextInt(10)) {
          case 0 -> 0;
          case 1 -> random.nextInt(20) == 0 ? (1 << 20) + random.nextInt(10) : random.nextInt(4096);
          default -> random.nextInt(64);
        };
    byte[] b = new byte[n];
    random.nextBytes(b);
    return b;
  }

  private Object enumValue(EnumDescriptor type) {
    if (random.nextInt(4) == 0) {
      return type.findValueByNumberCreatingIfUnknown(random.nextInt(1000) - 500);
    }
    return type.getValues().get(random.nextInt(type.getValues().size()));
  }

  /** Encoded bytes with random damage: flipped, dropped, inserted or truncated. */
  byte[] mutate(byte[] encoded) {
    if (encoded.length == 0) {
      return bytes();
    }
    byte[] out = encoded.clone();
    int edits = 1 + random.nextInt(4);
    for (int i = 0; i < edits && out.length > 0; i++) {
      int at = random.nextInt(out.length);
      switch (random.nextInt(4)) {
        case 0 -> out[at] = (byte) random.nextInt(256);
        case 1 -> out[at] ^= (byte) (1 << random.nextInt(8));
        case 2 -> out = java.util.Arrays.copyOf(out, at);
        default -> {
          byte[] grown = new byte[out.length + 1];
          System.arraycopy(out, 0, grown, 0, at);
          grown[at] = (byte) random.nextInt(256);
          System.arraycopy(out, at, grown, at + 1, out.length - at);
          out = grown;
        }
      }
    }
    return out;
  }

  /** The message's bytes plus one string field whose value is not UTF-8 (or a random field). */
  byte[] withInvalidUtf8(Descriptor type, byte[] encoded) {
    List<FieldDescriptor> strings =
        type.getFields().stream().filter(f -> f.getType() == FieldDescriptor.Type.STRING).toList();
    int number =
        strings.isEmpty()
            ? 1 + random.nextInt(20)
            : strings.get(random.nextInt(strings.size())).getNumber();
    try {
      ByteArrayOutputStream buffer = new ByteArrayOutputStream();
      buffer.write(encoded);
      CodedOutputStream out = CodedOutputStream.newInstance(buffer);
      out.writeTag(number, WireFormat.WIRETYPE_LENGTH_DELIMITED);
      out.writeByteArrayNoTag(
          new byte[] {(byte) 0xff, (byte) 0xc3, 0x28, (byte) 0xed, (byte) 0xa0});
      out.flush();
      return buffer.toByteArray();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
