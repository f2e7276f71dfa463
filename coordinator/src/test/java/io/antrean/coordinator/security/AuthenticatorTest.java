package io.antrean.coordinator.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AuthenticatorTest {
  private static final Instant NOW = Instant.parse("2026-12-01T00:00:00Z");
  @TempDir Path dir;

  @Test
  void aCreatedTokenIdentifiesItsIdentityAndTheFileHoldsOnlyItsHash() throws Exception {
    Path file = dir.resolve("tokens.json");
    String token =
        TokenFile.create(file, "billing", EnumSet.of(Role.PRODUCER), Set.of("mail"), NOW);

    Identity identity = Authenticator.fromFile(file).authenticate("Bearer " + token, null);

    assertThat(identity.name()).isEqualTo("billing");
    assertThat(identity.roles()).containsExactly(Role.PRODUCER);
    assertThat(identity.queues()).containsExactly("mail");
    assertThat(token).startsWith(BearerTokens.PREFIX).hasSizeGreaterThan(40);
    String stored = Files.readString(file);
    assertThat(stored).doesNotContain(token.substring(BearerTokens.PREFIX.length()));
    assertThat(stored).contains(BearerTokens.hashHex(token));
  }

  @Test
  void missingOrUnknownCredentialsAreUnauthenticated() throws Exception {
    Path file = dir.resolve("tokens.json");
    TokenFile.create(file, "w", EnumSet.of(Role.WORKER), Set.of(), NOW);
    Authenticator auth = Authenticator.fromFile(file);

    assertThatThrownBy(() -> auth.authenticate(null, null))
        .isInstanceOfSatisfying(
            AccessDeniedException.class,
            e -> assertThat(e.reason()).isEqualTo("CREDENTIALS_MISSING"));
    assertThatThrownBy(() -> auth.authenticate("Bearer " + BearerTokens.newToken(), null))
        .isInstanceOfSatisfying(
            AccessDeniedException.class,
            e -> assertThat(e.reason()).isEqualTo("CREDENTIALS_INVALID"));
    assertThatThrownBy(() -> auth.authenticate("Basic dzpw", null))
        .isInstanceOf(AccessDeniedException.class);
  }

  @Test
  void aRevokedTokenStopsWorkingOnceTheFileIsReloaded() throws Exception {
    Path file = dir.resolve("tokens.json");
    String kept = TokenFile.create(file, "kept", EnumSet.of(Role.READER), Set.of(), NOW);
    String revoked = TokenFile.create(file, "gone", EnumSet.of(Role.ADMIN), Set.of(), NOW);
    Authenticator auth = Authenticator.fromFile(file);
    assertThat(auth.authenticate("Bearer " + revoked, null).name()).isEqualTo("gone");

    assertThat(TokenFile.revoke(file, "gone")).isTrue();
    Files.setLastModifiedTime(file, FileTime.from(Instant.now().plusSeconds(5)));

    assertThat(auth.reloadIfChanged()).isTrue();
    assertThatThrownBy(() -> auth.authenticate("Bearer " + revoked, null))
        .isInstanceOf(AccessDeniedException.class);
    assertThat(auth.authenticate("bearer " + kept, null).name()).isEqualTo("kept");
    assertThat(auth.reloadIfChanged()).isFalse();
  }

  @Test
  void aBrokenFileOnReloadKeepsTheIdentitiesReadBefore() throws Exception {
    Path file = dir.resolve("tokens.json");
    String token = TokenFile.create(file, "kept", EnumSet.of(Role.READER), Set.of(), NOW);
    Authenticator auth = Authenticator.fromFile(file);

    Files.writeString(file, "{ not json");

    assertThat(auth.reloadIfChanged()).isFalse();
    assertThat(auth.authenticate("Bearer " + token, null).name()).isEqualTo("kept");
  }

  @Test
  void aCertificateNameIsTheIdentityOfTheEntryOfThatName() throws Exception {
    Path file = dir.resolve("tokens.json");
    Files.writeString(file, "{\"tokens\":[{\"name\":\"worker-7\",\"roles\":[\"worker\"]}]}");

    Identity identity = Authenticator.fromFile(file).authenticate(null, "worker-7");

    assertThat(identity.roles()).containsExactly(Role.WORKER);
    assertThatThrownBy(() -> Authenticator.fromFile(file).authenticate(null, "someone-else"))
        .isInstanceOf(AccessDeniedException.class);
  }

  @Test
  void aFileWithAnUnknownRoleOrATakenNameIsRefusedWithTheReason() throws Exception {
    Path file = dir.resolve("tokens.json");
    Files.writeString(
        file,
        "{\"tokens\":[{\"name\":\"x\",\"sha256\":\""
            + "a".repeat(64)
            + "\",\"roles\":[\"root\"]}]}");

    assertThatThrownBy(() -> Authenticator.fromFile(file))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("unknown role 'root'");
    Path other = dir.resolve("other.json");
    TokenFile.create(other, "dup", EnumSet.of(Role.READER), Set.of(), NOW);
    assertThatThrownBy(() -> TokenFile.create(other, "dup", EnumSet.of(Role.READER), Set.of(), NOW))
        .hasMessageContaining("already has a token named 'dup'");
  }
}
