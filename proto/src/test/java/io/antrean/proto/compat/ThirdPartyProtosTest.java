package io.antrean.proto.compat;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FileDescriptor;
import io.grpc.health.v1.HealthCheckRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The copies in {@code proto/third_party} that clients compile stay in step with the classes the
 * Java build takes from the protobuf and gRPC jars, stay compilable by older generators, and are
 * not compiled into this module (which would duplicate those classes).
 */
class ThirdPartyProtosTest {
  private static final Path THIRD_PARTY = Path.of("third_party");
  private static final Pattern TOP_LEVEL_MESSAGE = Pattern.compile("(?m)^message\\s+(\\w+)");
  private static final Pattern PACKAGE = Pattern.compile("(?m)^package\\s+([\\w.]+);");
  private static final Pattern EXPLICIT_OPTIONAL =
      Pattern.compile("(?m)^\\s*optional\\s+[\\w.]+\\s+\\w+\\s*=");

  @Test
  void eachCopyDeclaresWhatTheJarsDescriptorDeclares() throws Exception {
    check("google/rpc/status.proto", com.google.rpc.Status.getDescriptor().getFile());
    check("google/rpc/error_details.proto", com.google.rpc.ErrorInfo.getDescriptor().getFile());
    check("grpc/health/v1/health.proto", HealthCheckRequest.getDescriptor().getFile());
    assertThat(read("google/rpc/code.proto"))
        .contains("package google.rpc;")
        .contains("FAILED_PRECONDITION = 9;");
  }

  @Test
  void noCopyUsesAnExplicitOptionalLabel() throws Exception {
    try (Stream<Path> files = Files.walk(THIRD_PARTY)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".proto")).toList()) {
        assertThat(EXPLICIT_OPTIONAL.matcher(Files.readString(file)).find())
            .as("%s has an explicit 'optional' label, which Debian's grpc-tools rejects", file)
            .isFalse();
      }
    }
  }

  @Test
  void theCopiesAreNotCompiledIntoThisModule() {
    Path classes = Path.of("target", "classes");
    assertThat(classes.resolve("com/google/rpc")).doesNotExist();
    assertThat(classes.resolve("io/grpc/health")).doesNotExist();
    assertThat(classes.resolve("google/rpc")).doesNotExist();
    assertThat(com.google.rpc.Status.class.getProtectionDomain().getCodeSource().getLocation())
        .asString()
        .endsWith(".jar");
  }

  private static void check(String copy, FileDescriptor jar) throws Exception {
    String source = read(copy);
    Matcher pkg = PACKAGE.matcher(source);
    assertThat(pkg.find()).as("%s declares a package", copy).isTrue();
    assertThat(pkg.group(1)).isEqualTo(jar.getPackage());
    List<String> messages = new ArrayList<>();
    Matcher m = TOP_LEVEL_MESSAGE.matcher(source);
    while (m.find()) {
      messages.add(m.group(1));
    }
    assertThat(messages)
        .as("top-level messages of %s against %s in the jar", copy, jar.getName())
        .containsExactlyInAnyOrderElementsOf(
            jar.getMessageTypes().stream().map(Descriptor::getName).toList());
  }

  private static String read(String copy) throws Exception {
    return Files.readString(THIRD_PARTY.resolve(copy), StandardCharsets.UTF_8);
  }
}
