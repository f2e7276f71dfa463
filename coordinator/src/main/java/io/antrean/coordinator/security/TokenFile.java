package io.antrean.coordinator.security;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.util.JsonFormat;
import com.google.protobuf.util.Timestamps;
import io.antrean.proto.config.v1.TokenEntry;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Reads and appends to the token file: the {@code antrean.config.v1.TokenFile} message as JSON,
 * holding a name, the SHA-256 of the token, roles and queues per identity, never a token itself.
 */
public final class TokenFile {
  private TokenFile() {}

  /**
   * @throws IllegalArgumentException naming the file and the fault, for a file that cannot be used
   */
  public static BearerTokens read(Path file) {
    List<BearerTokens.Entry> entries = new ArrayList<>();
    Set<String> names = new HashSet<>();
    for (TokenEntry e : parse(file).getTokensList()) {
      String at = file + ": token '" + e.getName() + "': ";
      if (e.getName().isBlank()) {
        throw new IllegalArgumentException(file + ": a token has no name");
      }
      if (!names.add(e.getName())) {
        throw new IllegalArgumentException(at + "the name is used twice");
      }
      // An entry without a hash names the subject of a client certificate (mutual TLS).
      if (!e.getSha256().isEmpty() && !e.getSha256().matches("[0-9a-f]{64}")) {
        throw new IllegalArgumentException(at + "sha256 must be 64 lower-case hex digits");
      }
      if (e.getRolesCount() == 0) {
        throw new IllegalArgumentException(at + "has no role");
      }
      Set<Role> roles = new LinkedHashSet<>();
      for (String role : e.getRolesList()) {
        try {
          roles.add(Role.parse(role));
        } catch (IllegalArgumentException bad) {
          throw new IllegalArgumentException(at + bad.getMessage(), bad);
        }
      }
      entries.add(
          new BearerTokens.Entry(
              new Identity(e.getName(), roles, new LinkedHashSet<>(e.getQueuesList())),
              e.getSha256().isEmpty() ? null : HexFormat.of().parseHex(e.getSha256())));
    }
    return new BearerTokens(entries);
  }

  /**
   * Creates a token for a new identity, appends its hash to the file (created, readable by its
   * owner only, when missing) and returns the token, which is stored nowhere else.
   *
   * @throws IllegalArgumentException when the name is taken, or a role or queue is bad
   */
  public static String create(
      Path file, String name, Set<Role> roles, Set<String> queues, Instant now) throws IOException {
    if (name == null || name.isBlank()) {
      throw new IllegalArgumentException("--name must not be blank");
    }
    if (roles.isEmpty()) {
      throw new IllegalArgumentException("give at least one --role");
    }
    io.antrean.proto.config.v1.TokenFile.Builder tokens =
        Files.exists(file)
            ? parse(file).toBuilder()
            : io.antrean.proto.config.v1.TokenFile.newBuilder();
    for (TokenEntry e : tokens.getTokensList()) {
      if (e.getName().equals(name)) {
        throw new IllegalArgumentException(
            file + " already has a token named '" + name + "'; revoke it first or pick another");
      }
    }
    String token = BearerTokens.newToken();
    TokenEntry.Builder entry =
        TokenEntry.newBuilder()
            .setName(name)
            .setSha256(BearerTokens.hashHex(token))
            .addAllQueues(queues)
            .setCreatedAt(Timestamps.fromMillis(now.toEpochMilli()));
    roles.forEach(r -> entry.addRoles(r.label()));
    tokens.addTokens(entry);
    write(file, JsonFormat.printer().print(tokens) + "\n");
    return token;
  }

  /**
   * Removes the identity's entry, so its token stops working once the coordinator reloads.
   *
   * @return false when no entry has this name
   */
  public static boolean revoke(Path file, String name) throws IOException {
    io.antrean.proto.config.v1.TokenFile.Builder tokens = parse(file).toBuilder();
    for (int i = 0; i < tokens.getTokensCount(); i++) {
      if (tokens.getTokens(i).getName().equals(name)) {
        tokens.removeTokens(i);
        write(file, JsonFormat.printer().print(tokens) + "\n");
        return true;
      }
    }
    return false;
  }

  private static io.antrean.proto.config.v1.TokenFile parse(Path file) {
    String json;
    try {
      json = Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot read token file " + file + ": " + e, e);
    }
    io.antrean.proto.config.v1.TokenFile.Builder b =
        io.antrean.proto.config.v1.TokenFile.newBuilder();
    try {
      JsonFormat.parser().merge(json, b);
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalArgumentException(
          "token file " + file + " is not valid: " + e.getMessage(), e);
    }
    return b.build();
  }

  private static void write(Path file, String json) throws IOException {
    Path dir = file.toAbsolutePath().getParent();
    Path tmp = Files.createTempFile(dir, file.getFileName().toString(), ".tmp");
    try {
      try {
        Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rw-------"));
      } catch (UnsupportedOperationException e) {
        // Not a POSIX file system; the directory's permissions protect it.
      }
      Files.writeString(tmp, json, StandardCharsets.UTF_8);
      Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } finally {
      Files.deleteIfExists(tmp);
    }
  }
}
