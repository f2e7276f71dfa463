package io.antrean.coordinator.http;

import com.google.protobuf.ListValue;
import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import java.util.List;
import javax.annotation.Nullable;

/**
 * The body of every HTTP error, built as a {@link Struct} and printed by {@link ProtoJson}, never
 * by concatenating strings:
 *
 * <pre>{@code
 * {"error": {"code": "VALIDATION_FAILED", "message": "...",
 *            "details": [{"field": "type", "message": "unknown job type: send-fax"}]}}
 * }</pre>
 *
 * <p>{@code code} and {@code message} are always there; {@code details} when there are field
 * problems; {@code correlation_id} on {@code INTERNAL} errors, matching the server log's ERROR
 * line.
 */
final class ErrorBodies {
  private ErrorBodies() {}

  /** One field problem: the field's path in the protocol's names and what is wrong with it. */
  record Detail(String field, String message) {}

  /**
   * One error answer.
   *
   * @param status the HTTP status
   * @param code a stable machine-readable code, for example {@code JOB_NOT_FOUND}
   * @param allow the {@code Allow} header of a 405, else null
   */
  record ErrorBody(
      int status,
      String code,
      String message,
      List<Detail> details,
      @Nullable String correlationId,
      @Nullable String allow) {
    ErrorBody {
      details = List.copyOf(details);
    }

    byte[] json() {
      Struct.Builder error =
          Struct.newBuilder().putFields("code", text(code)).putFields("message", text(message));
      if (!details.isEmpty()) {
        ListValue.Builder list = ListValue.newBuilder();
        for (Detail d : details) {
          list.addValues(
              Value.newBuilder()
                  .setStructValue(
                      Struct.newBuilder()
                          .putFields("field", text(d.field()))
                          .putFields("message", text(d.message()))));
        }
        error.putFields("details", Value.newBuilder().setListValue(list).build());
      }
      if (correlationId != null) {
        error.putFields("correlation_id", text(correlationId));
      }
      return ProtoJson.print(
          Struct.newBuilder()
              .putFields("error", Value.newBuilder().setStructValue(error).build())
              .build());
    }
  }

  private static Value text(String s) {
    return Value.newBuilder().setStringValue(s).build();
  }
}
