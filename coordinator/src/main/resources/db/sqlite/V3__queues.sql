-- Queue control: a queue has a row once it was first paused, paused_at NULL when it is not.
CREATE TABLE queues (name TEXT PRIMARY KEY, paused_at INTEGER) WITHOUT ROWID;
