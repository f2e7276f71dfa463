-- The young jobs' log (store/sqlite/young, off unless asked for): the position of the last record
-- whose job was folded into this database. A replay after a restart skips the records up to it.
CREATE TABLE young_log_folds (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  folded_up_to INTEGER NOT NULL
);
INSERT INTO young_log_folds (id, folded_up_to) VALUES (1, 0);
