package io.antrean.coordinator.store.sqlite;

import io.antrean.coordinator.store.jdbc.ErrorText;
import java.sql.Connection;
import java.sql.SQLException;
import javax.annotation.Nullable;
import org.sqlite.Function;

/**
 * Case-insensitive matching that works beyond ASCII. SQLite's own {@code lower()} and {@code LIKE}
 * fold only ASCII letters unless it was built with ICU, so an error message such as "Ungültige
 * Eingabe" would not match "ÜNGÜLTIGE". This class registers {@value #FUNCTION}(text) on a
 * connection: the text folded the same way {@link ErrorText#fold} folds a search term in Java, so
 * {@code instr(fold_case(column), ?) > 0} with a folded term is a case-insensitive substring test.
 */
final class CaseFolding {
  static final String FUNCTION = "fold_case";

  private CaseFolding() {}

  /** Registers {@value #FUNCTION} on the connection; NULL folds to NULL. */
  static void register(Connection connection) throws SQLException {
    Function.create(connection, FUNCTION, new FoldCase(), 1, Function.FLAG_DETERMINISTIC);
  }

  private static final class FoldCase extends Function {
    @Override
    protected void xFunc() throws SQLException {
      @Nullable String text = value_text(0);
      if (text == null) {
        result();
      } else {
        result(ErrorText.fold(text));
      }
    }
  }
}
