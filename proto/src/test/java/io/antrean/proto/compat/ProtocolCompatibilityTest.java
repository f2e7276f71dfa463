package io.antrean.proto.compat;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.DescriptorProtos.FileDescriptorSet;
import com.google.protobuf.Descriptors.FileDescriptor;
import com.google.protobuf.TextFormat;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The build's breaking-change check: {@code antrean.v1} as compiled now against the descriptor set
 * committed in {@code proto/baseline/}. Additions pass; anything {@link BreakingChanges} reports
 * fails the build. After a deliberate, released change the baseline is rewritten with {@code
 * -Dantrean.proto.updateBaseline=true} (see docs/protocol.md, "Compatibility").
 */
class ProtocolCompatibilityTest {
  static final Path BASELINE = Path.of("baseline", "antrean-v1.txtpb");
  private static final Path SOURCES = Path.of("src", "main", "proto", "antrean", "v1");
  private static final Pattern OUTER_CLASS =
      Pattern.compile("option\\s+java_outer_classname\\s*=\\s*\"(\\w+)\"");
  private static final Pattern JAVA_PACKAGE =
      Pattern.compile("option\\s+java_package\\s*=\\s*\"([\\w.]+)\"");

  @Test
  void antreanV1HasNoBreakingChangeAgainstTheBaseline() throws Exception {
    FileDescriptorSet current = current();
    if (Boolean.getBoolean("antrean.proto.updateBaseline")) {
      Files.writeString(
          BASELINE, TextFormat.printer().printToString(current), StandardCharsets.UTF_8);
    }
    assertThat(BreakingChanges.between(baseline(), current))
        .as("breaking changes to antrean.v1 against %s", BASELINE)
        .isEmpty();
  }

  @Test
  void everyProtoFileOfAntreanV1IsChecked() throws Exception {
    try (Stream<Path> files = Files.list(SOURCES)) {
      List<String> names =
          files
              .map(f -> "antrean/v1/" + f.getFileName())
              .filter(n -> n.endsWith(".proto"))
              .toList();
      assertThat(current().getFileList())
          .extracting(f -> f.getName())
          .containsExactlyInAnyOrderElementsOf(names);
    }
  }

  static FileDescriptorSet baseline() throws IOException {
    FileDescriptorSet.Builder set = FileDescriptorSet.newBuilder();
    TextFormat.merge(Files.readString(BASELINE, StandardCharsets.UTF_8), set);
    return set.build();
  }

  /** Every file under src/main/proto/antrean/v1 as the build compiled it, sorted by name. */
  static FileDescriptorSet current() throws Exception {
    FileDescriptorSet.Builder set = FileDescriptorSet.newBuilder();
    try (Stream<Path> files = Files.list(SOURCES)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".proto")).sorted().toList()) {
        set.addFile(compiled(file).toProto());
      }
    }
    return set.build();
  }

  private static FileDescriptor compiled(Path file) throws Exception {
    String source = Files.readString(file, StandardCharsets.UTF_8);
    String outerClass = option(OUTER_CLASS, source, file);
    String javaPackage = option(JAVA_PACKAGE, source, file);
    return (FileDescriptor)
        Class.forName(javaPackage + "." + outerClass).getMethod("getDescriptor").invoke(null);
  }

  private static String option(Pattern pattern, String source, Path file) {
    Matcher m = pattern.matcher(source);
    if (!m.find()) {
      throw new IllegalStateException(file + " must set " + pattern.pattern().split("\\\\s")[0]);
    }
    return m.group(1);
  }
}
