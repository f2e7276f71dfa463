package io.antrean.coordinator.api;

import io.antrean.coordinator.core.FieldViolation;
import io.antrean.coordinator.core.ValidationException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import javax.annotation.Nullable;

/** Opaque page tokens for ListJobs: a version tag and the id the next page starts below. */
public final class PageTokens {
  private static final String PREFIX = "v1:";

  private PageTokens() {}

  public static String encode(@Nullable Long beforeId) {
    if (beforeId == null) {
      return "";
    }
    return Base64.getUrlEncoder()
        .withoutPadding()
        .encodeToString((PREFIX + beforeId).getBytes(StandardCharsets.UTF_8));
  }

  /**
   * @return the id, or null for an empty token
   * @throws ValidationException for a token this server did not issue
   */
  @Nullable
  public static Long decode(String token) {
    if (token.isEmpty()) {
      return null;
    }
    try {
      String s = new String(Base64.getUrlDecoder().decode(token), StandardCharsets.UTF_8);
      if (s.startsWith(PREFIX)) {
        long id = Long.parseLong(s.substring(PREFIX.length()));
        if (id > 0) {
          return id;
        }
      }
    } catch (IllegalArgumentException e) {
      // fall through: not one of ours
    }
    throw new ValidationException(
        List.of(new FieldViolation("page_token", "not a page token issued by this server")));
  }
}
