package io.antrean.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import com.google.protobuf.util.JsonFormat;
import java.util.List;

/** Reads back the JSON document that a bench run with {@code --json} prints. */
final class BenchJson {
  private BenchJson() {}

  /** The one result row of a run of one scenario; asserts that there is exactly one. */
  static Struct onlyResult(BenchHarness.Result result) throws Exception {
    List<Value> rows = results(result);
    assertThat(rows).hasSize(1);
    return rows.get(0).getStructValue();
  }

  /** The result rows of a run, one per scenario run. */
  static List<Value> results(BenchHarness.Result result) throws Exception {
    return parse(result.out()).getFieldsOrThrow("results").getListValue().getValuesList();
  }

  /** The whole document. */
  static Struct parse(String json) throws Exception {
    Struct.Builder document = Struct.newBuilder();
    JsonFormat.parser().merge(json, document);
    return document.build();
  }
}
