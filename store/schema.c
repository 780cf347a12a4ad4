/* The database schema, in one place.  store/SCHEMA.md documents every table
 * and column for people who query the file with `sqlite3` directly; keep the
 * two in step, and bump STORE_SCHEMA_VERSION (store.h) on any change.
 *
 * The file is marked by PRAGMA application_id = STORE_APPLICATION_ID and
 * PRAGMA user_version = STORE_SCHEMA_VERSION (both set by store_open when it
 * creates the schema, in the same transaction). */
#include "store/store_internal.h"

/* The table added by schema version 2, also run on a version-1 file when it
 * is first opened for writing (store.c, migrate). */
#define STORE_LOAD_SQL \
    "CREATE TABLE load_points (\n" \
    "  run           INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,\n" \
    "  rate          REAL    NOT NULL CHECK (rate > 0 AND rate <= 1),\n" \
    "  offered       REAL    NOT NULL,\n" \
    "  accepted      REAL    NOT NULL,\n" \
    "  latency       REAL    NOT NULL,\n" \
    "  ci95          REAL    NOT NULL,\n" \
    "  network_latency REAL  NOT NULL,\n" \
    "  p50           INTEGER NOT NULL,\n" \
    "  p99           INTEGER NOT NULL,\n" \
    "  max           INTEGER NOT NULL,\n" \
    "  hops          REAL    NOT NULL,\n" \
    "  tagged        INTEGER NOT NULL,\n" \
    "  tagged_done   INTEGER NOT NULL,\n" \
    "  warmup_cycles INTEGER NOT NULL,\n" \
    "  drain_cycles  INTEGER NOT NULL,\n" \
    "  cycles        INTEGER NOT NULL,\n" \
    "  steady        INTEGER NOT NULL CHECK (steady IN (0, 1)),\n" \
    "  saturated     INTEGER NOT NULL CHECK (saturated >= 0),\n" \
    "  PRIMARY KEY (run, rate)\n" \
    ");\n"

const char store_load_sql[] = STORE_LOAD_SQL;

const char store_schema_sql[] =
    /* One row per run of any search or command that records results. */
    "CREATE TABLE runs (\n"
    "  id            INTEGER PRIMARY KEY,\n"
    "  uuid          TEXT    NOT NULL UNIQUE CHECK (length(uuid) = 32),\n"
    "  kind          TEXT    NOT NULL,\n"
    "  version       TEXT,\n"
    "  started       TEXT    NOT NULL,\n"
    "  finished      TEXT,\n"
    "  status        TEXT    NOT NULL DEFAULT 'unfinished'\n"
    "                CHECK (status IN ('unfinished', 'finished', 'failed')),\n"
    "  seed          INTEGER NOT NULL DEFAULT 0,\n"
    "  traffic       TEXT,\n"
    "  size          INTEGER,\n"
    "  slices        INTEGER,\n"
    "  flits         INTEGER,\n"
    "  genes         TEXT,\n"
    "  algorithm     TEXT,\n"
    "  params        TEXT    CHECK (params IS NULL OR json_valid(params)),\n"
    "  best_score    INTEGER,\n"
    "  best_duration INTEGER,\n"
    "  best_crc      INTEGER CHECK (best_crc BETWEEN 0 AND 4294967295),\n"
    "  base_stacking INTEGER,\n"
    "  base_nonsplit INTEGER,\n"
    "  parent        INTEGER REFERENCES runs(id) ON DELETE SET NULL\n"
    ");\n"
    "CREATE INDEX runs_by_pattern ON runs (traffic, size, slices, flits, best_duration);\n"
    "CREATE INDEX runs_by_parent ON runs (parent);\n"
    /* Per-generation statistics of a GA run. */
    "CREATE TABLE generations (\n"
    "  run         INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,\n"
    "  generation  INTEGER NOT NULL CHECK (generation >= 0),\n"
    "  best        INTEGER NOT NULL,\n"
    "  average     REAL    NOT NULL,\n"
    "  evaluations INTEGER NOT NULL,\n"
    "  elapsed     REAL    NOT NULL,\n"
    "  PRIMARY KEY (run, generation)\n"
    ") WITHOUT ROWID;\n"
    /* Recorded chromosomes: every new best and every synonym of the best. */
    "CREATE TABLE chromosomes (\n"
    "  id          INTEGER PRIMARY KEY,\n"
    "  run         INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,\n"
    "  generation  INTEGER NOT NULL,\n"
    "  crc         INTEGER NOT NULL CHECK (crc BETWEEN 0 AND 4294967295),\n"
    "  score       INTEGER NOT NULL,\n"
    "  duration    INTEGER NOT NULL,\n"
    "  t_d         INTEGER NOT NULL,\n"
    "  t_e         INTEGER NOT NULL,\n"
    "  ir          INTEGER NOT NULL,\n"
    "  or_         INTEGER NOT NULL,\n"
    "  ib          INTEGER NOT NULL,\n"
    "  ob          INTEGER NOT NULL,\n"
    "  lb          INTEGER NOT NULL,\n"
    "  is_synonym  INTEGER NOT NULL CHECK (is_synonym IN (0, 1)),\n"
    "  genes_len   INTEGER NOT NULL CHECK (genes_len >= 0),\n"
    "  genes       BLOB    NOT NULL,\n"
    "  UNIQUE (run, crc)\n"
    ");\n"
    "CREATE INDEX chromosomes_by_score ON chromosomes (run, score);\n"
    "CREATE INDEX chromosomes_by_crc ON chromosomes (crc);\n"
    /* The GA's resume state: one blob per run, replaced every generation. */
    "CREATE TABLE checkpoints (\n"
    "  run         INTEGER PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,\n"
    "  generation  INTEGER NOT NULL,\n"
    "  updated     TEXT    NOT NULL,\n"
    "  data_len    INTEGER NOT NULL CHECK (data_len >= 0),\n"
    "  data        BLOB    NOT NULL\n"
    ");\n"
    /* Schedules found by the collective-scheduling subsystem. */
    "CREATE TABLE cc_schedules (\n"
    "  id          INTEGER PRIMARY KEY,\n"
    "  run         INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,\n"
    "  steps       INTEGER NOT NULL,\n"
    "  bound       INTEGER,\n"
    "  schedule    TEXT    NOT NULL CHECK (json_valid(schedule))\n"
    ");\n"
    "CREATE INDEX cc_schedules_by_run ON cc_schedules (run);\n"
    /* One row per point of an open-loop curve (kind 'load'). */
    STORE_LOAD_SQL
    /* Convenience view: the chromosomes that have their run's best score. */
    "CREATE VIEW synonyms AS\n"
    "  SELECT c.* FROM chromosomes c\n"
    "  WHERE c.score = (SELECT MIN(b.score) FROM chromosomes b WHERE b.run = c.run);\n";
