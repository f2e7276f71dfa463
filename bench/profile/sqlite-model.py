#!/usr/bin/env python3
"""What SQLite itself spends per job on the end-to-end path, and on variants of the schema.

    sqlite-model.py DATABASE VARIANTS [JOBS]

DATABASE is a coordinator's SQLite file (its schema is copied, not its rows); VARIANTS is a
comma-separated list of:

  base          each group of 50 jobs as the coordinator writes it under load: one multi-row
                insert, the lease's pick and UPDATE ... RETURNING, the attempts' insert, the
                completions' UPDATE and the attempts' end, the counts, one commit;
  noqueuestate  the same without the jobs_queue_state index;
  nofinished    the same without the jobs_finished index;
  noattempts    the same without the attempts rows;
  fold          each job written once, already finished (SUCCEEDED with its finished attempt), as a
                store that kept a job's life in memory and a log would fold it into SQLite;
  journal       the fold, and before it the log itself as rows of a table journal (seq INTEGER
                PRIMARY KEY, record BLOB) in the same database: three records per job (160, 70
                and 60 bytes: the new job, its lease, its completion), deleted again by the fold.

Every variant has its own database in /dev/shm (no fsync: the CPU of SQLite's own work, not the
disk's), and the variants take turns, one group of 50 each, so that the machine's changes of speed
hit them alike; the CPU is each variant's thread time. Statements go through Python's sqlite3, so
the figures are SQLite's work plus a thin binding: compare variants with each other, not with the
coordinator's JDBC path. docs/benchmarks.md says which runs used it.
"""
import os
import sqlite3
import sys
import time

GROUP = 50
JOB_COLUMNS = (
    "id, queue, type, payload, content_type, priority, run_at, idempotency_key, max_attempts,"
    " initial_backoff_micros, backoff_multiplier, max_backoff_micros, max_lease_expiries, attempts,"
    " lease_expiries, releases, state, result, result_content_type, last_error, created_at,"
    " updated_at, finished_at, lease_worker_id, lease_token, lease_expires_at, progress,"
    " cancel_requested, trace_parent, concurrency_key, lease_id_sha256")
NEW_COLUMNS = (
    "queue, type, payload, content_type, priority, run_at, max_attempts, initial_backoff_micros,"
    " backoff_multiplier, max_backoff_micros, max_lease_expiries, state, created_at, updated_at")
PAYLOAD = b'{"n":' + b"1" * 90 + b"}"
DIGEST = b"x" * 32


def rows(n, k):
    return ", ".join(["(" + ", ".join(["?"] * k) + ")"] * n)


INSERT = "INSERT INTO jobs (%s) VALUES %s" % (NEW_COLUMNS, rows(GROUP, 14))
PICK = ("SELECT id FROM jobs INDEXED BY jobs_pending WHERE queue = ? AND state = 'PENDING'"
        " AND run_at <= ? ORDER BY priority DESC, run_at, id LIMIT ?")
GRANT = ("UPDATE jobs SET state = 'RUNNING', attempts = attempts + 1, lease_token = lease_token + 1,"
         " lease_worker_id = ?, lease_expires_at = ?, lease_id_sha256 = g.column2, updated_at = ?"
         " FROM (VALUES %s) AS g WHERE jobs.id = g.column1 AND jobs.state = 'PENDING' RETURNING %s"
         % (rows(GROUP, 2), JOB_COLUMNS))
OPEN = ("INSERT INTO attempts (leased_at, job_id, attempt, worker_id, fencing_token,"
        " lease_id_sha256, outcome) SELECT ?, column1, column2, column3, column4, column5,"
        " 'RUNNING' FROM (VALUES %s)" % rows(GROUP, 5))
END = ("UPDATE attempts INDEXED BY attempts_job SET ended_at = ?, outcome = 'SUCCEEDED',"
       " error_kind = NULL, error_type = NULL, error_message = NULL, stack_trace = NULL"
       " FROM (VALUES %s) AS e WHERE attempts.job_id = e.column1"
       " AND attempts.fencing_token = e.column2 AND attempts.outcome = 'RUNNING'" % rows(GROUP, 2))
COUNT = ("INSERT INTO queue_counts (queue, state, jobs) VALUES (?, ?, ?)"
         " ON CONFLICT (queue, state) DO UPDATE SET jobs = jobs + excluded.jobs")
FOLD = ("INSERT INTO jobs (%s, attempts, lease_token, finished_at) VALUES %s RETURNING id"
        % (NEW_COLUMNS, rows(GROUP, 17)))
FOLD_ATTEMPTS = ("INSERT INTO attempts (leased_at, ended_at, job_id, attempt, worker_id,"
                 " fencing_token, lease_id_sha256, outcome) VALUES %s" % rows(GROUP, 8))


def succeed_sql():
    ids, result, content_type, holds = [], "CASE id", "CASE id", "CASE id"
    for i in range(GROUP):
        k = 3 + 5 * i
        ids.append("?%d" % k)
        result += " WHEN ?%d THEN ?%d" % (k, k + 1)
        content_type += " WHEN ?%d THEN ?%d" % (k, k + 2)
        holds += " WHEN ?%d THEN lease_token = ?%d AND lease_id_sha256 = ?%d" % (k, k + 3, k + 4)
    return ("UPDATE jobs SET state = 'SUCCEEDED', result = %s END, result_content_type = %s END,"
            " finished_at = ?1, updated_at = ?2, lease_worker_id = NULL, lease_expires_at = NULL"
            " WHERE id IN (%s) AND state = 'RUNNING' AND lease_worker_id = ?%d AND %s END"
            " AND NOT has_dependents RETURNING id, queue"
            % (result, content_type, ", ".join(ids), 3 + 5 * GROUP, holds))


SUCCEED = succeed_sql()
LEFT_OUT = {"noqueuestate": "INDEX jobs_queue_state", "nofinished": "INDEX jobs_finished"}


class Variant:
    def __init__(self, name, schema, number):
        self.name = name
        path = "/dev/shm/antrean-model-%d-%s.db" % (number, name)
        for p in (path, path + "-wal", path + "-shm"):
            if os.path.exists(p):
                os.remove(p)
        self.path = path
        self.db = sqlite3.connect(path, isolation_level=None)
        for pragma in ("journal_mode=wal", "synchronous=off", "cache_size=-65536",
                       "temp_store=memory", "foreign_keys=on"):
            self.db.execute("PRAGMA " + pragma)
        for statement in schema:
            if name in LEFT_OUT and LEFT_OUT[name] in statement:
                continue
            self.db.execute(statement)
        if name == "journal":
            self.db.execute("CREATE TABLE journal (seq INTEGER PRIMARY KEY, record BLOB NOT NULL)")
        self.seq = 0
        self.seconds = 0.0

    def group(self, now):
        started = time.thread_time()
        db = self.db
        db.execute("BEGIN")
        if self.name == "journal":
            first = self.seq + 1
            for size in (160, 70, 60):
                args = []
                for _ in range(GROUP):
                    self.seq += 1
                    args += [self.seq, b"r" * size]
                db.execute("INSERT INTO journal (seq, record) VALUES " + rows(GROUP, 2), args)
        if self.name in ("fold", "journal"):
            args = []
            for _ in range(GROUP):
                args += ["bench", "bench.noop", PAYLOAD, "application/json", 0, now, 3, 1000000,
                         2.0, 60000000, 3, "SUCCEEDED", now, now, 1, 1, now]
            ids = [r[0] for r in db.execute(FOLD, args)]
            args = []
            for i in ids:
                args += [now, now, i, 1, "w1", 1, DIGEST, "SUCCEEDED"]
            db.execute(FOLD_ATTEMPTS, args)
            db.execute(COUNT, ("bench", "SUCCEEDED", GROUP))
            if self.name == "journal":
                db.execute("DELETE FROM journal WHERE seq >= ?", (first,))
        else:
            args = []
            for _ in range(GROUP):
                args += ["bench", "bench.noop", PAYLOAD, "application/json", 0, now, 3, 1000000,
                         2.0, 60000000, 3, "PENDING", now, now]
            db.execute(INSERT, args)
            ids = [r[0] for r in db.execute(PICK, ("bench", now, GROUP))]
            args = ["w1", now + 30_000_000, now]
            for i in ids:
                args += [i, DIGEST]
            leased = db.execute(GRANT, args).fetchall()
            if self.name != "noattempts":
                args = [now]
                for job in leased:
                    args += [job[0], job[13], "w1", job[24], DIGEST]
                db.execute(OPEN, args)
            db.execute(COUNT, ("bench", "PENDING", -GROUP))
            db.execute(COUNT, ("bench", "RUNNING", GROUP))
            args = [now, now]
            for job in leased:
                args += [job[0], None, None, job[24], DIGEST]
            args.append("w1")
            assert len(db.execute(SUCCEED, args).fetchall()) == GROUP
            if self.name != "noattempts":
                args = [now]
                for job in leased:
                    args += [job[0], job[24]]
                db.execute(END, args)
            db.execute(COUNT, ("bench", "RUNNING", -GROUP))
            db.execute(COUNT, ("bench", "SUCCEEDED", GROUP))
        db.execute("COMMIT")
        self.seconds += time.thread_time() - started


def main():
    source, names = sys.argv[1], sys.argv[2].split(",")
    jobs = int(sys.argv[3]) if len(sys.argv) > 3 else 20000
    with sqlite3.connect("file:%s?mode=ro" % source, uri=True) as db:
        schema = [r[0] for r in db.execute(
            "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%'"
            " AND name NOT LIKE 'flyway%' ORDER BY CASE type WHEN 'table' THEN 0"
            " WHEN 'index' THEN 1 ELSE 2 END")]
    variants = [Variant(n, schema, i) for i, n in enumerate(names)]
    now = 1_700_000_000_000_000
    for r in range(jobs // GROUP):
        now += 1000
        for v in variants if r % 2 == 0 else reversed(variants):
            v.group(now)
    for v in variants:
        print("%-14s %.1f us of CPU per job" % (v.name, 1e6 * v.seconds / jobs))
        v.db.close()
        for p in (v.path, v.path + "-wal", v.path + "-shm"):
            if os.path.exists(p):
                os.remove(p)


if __name__ == "__main__":
    main()
