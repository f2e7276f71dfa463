package io.antrean.worker.examples;

import com.google.protobuf.Struct;
import io.antrean.worker.JobContext;
import io.antrean.worker.JobHandler;
import io.antrean.worker.JobHandlerProvider;
import io.antrean.worker.PermanentException;
import java.nio.charset.StandardCharsets;
import java.util.UUID;

/**
 * Example type {@code email.send}: payload {@code {"to": "someone@example.com"}}. Pretends to send
 * the mail (a few milliseconds) and returns {@code {"messageId": "..."}}. The message id is derived
 * from the job's idempotency key, so a retried job reports the same message, as a real mail API
 * given that key would. A payload that is not JSON or lacks a plausible {@code "to"} fails
 * permanently. Stateless and thread-safe.
 */
public final class EmailSendHandler implements JobHandler, JobHandlerProvider {
  /** The job type this handler serves. */
  public static final String TYPE = "email.send";

  private static final long SEND_MILLIS = 5;

  /** Used by {@link java.util.ServiceLoader}. */
  public EmailSendHandler() {}

  @Override
  public String type() {
    return TYPE;
  }

  @Override
  public JobHandler create() {
    return this;
  }

  @Override
  public byte[] handle(JobContext ctx) throws InterruptedException {
    Struct payload = JsonPayload.parse(ctx);
    String to = JsonPayload.text(payload, "to");
    if (to == null || to.isBlank()) {
      throw new PermanentException("payload field \"to\" is missing or empty");
    }
    if (!isPlausibleAddress(to)) {
      // The address stays out of the message: messages are logged, and addresses are personal data.
      throw new PermanentException("payload field \"to\" is not an email address");
    }
    Thread.sleep(SEND_MILLIS);
    String messageId =
        UUID.nameUUIDFromBytes(ctx.idempotencyKey().getBytes(StandardCharsets.UTF_8)).toString();
    return JsonPayload.utf8("{\"messageId\":" + JsonPayload.quote(messageId) + "}");
  }

  private static boolean isPlausibleAddress(String address) {
    int at = address.indexOf('@');
    return at > 0
        && at == address.lastIndexOf('@')
        && at < address.length() - 1
        && address.chars().noneMatch(Character::isWhitespace);
  }
}
