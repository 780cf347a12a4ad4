/* The nocsim database: an SQLite file of GA runs, their per-generation
 * statistics, their recorded chromosomes, GA checkpoints and collective
 * schedules.  The schema is the SQL text in store/schema.c, documented for
 * direct `sqlite3` use in store/SCHEMA.md.
 *
 * Conventions
 * - Every function that can fail takes (char *err, size_t errlen): on failure
 *   it writes one line (no newline) naming the file and the cause there and
 *   returns STORE_ERROR (or NULL).  err may be NULL.  Nothing is printed.
 * - Lookups return STORE_NOTFOUND when the row does not exist; chromosome
 *   insertion returns STORE_EXISTS when the run already has that CRC.
 * - Integers that may be unknown use STORE_NONE (-1) for NULL; run ids start
 *   at 1, so 0 means "no run".
 * - Listing functions call a callback per row; a non-zero return from the
 *   callback stops the listing (which then returns STORE_OK).  Pointers in
 *   the record passed to a callback are valid only during that call.
 * - Write functions outside store_begin/store_commit commit on their own.  The
 *   GA writes its generation rows and records with the checkpoint that holds
 *   them, in one transaction at most once a second (store/SCHEMA.md), so a
 *   process killed at any moment leaves a valid database (WAL mode).
 * - No global state: a store handle must be used by one thread at a time. */
#ifndef NOCSIM_STORE_H
#define NOCSIM_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/fault.h"

/* Version 2 added load_points; a version-1 file is migrated when it is first
 * opened for writing, and read as it is (with no load points) read-only. */
#define STORE_SCHEMA_VERSION 2
#define STORE_APPLICATION_ID 0x4E6F4373 /* "NoCs", in the SQLite header */
#define STORE_DEFAULT_PATH "nocsim.db"
#define STORE_UUID_LEN 32               /* 128 bits as lower-case hex */
#define STORE_NONE (-1)

enum { STORE_OK = 0, STORE_NOTFOUND = 1, STORE_EXISTS = 2, STORE_ERROR = -1 };

/* store_open flags */
enum {
    STORE_CREATE = 1,   /* create the file and the schema if missing */
    STORE_READONLY = 2, /* open read-only; the file must exist */
};

typedef struct store store;

/* What kind of failure an error is, so that every command maps it to the
 * same exit status: STORE_FAULT_INPUT is bad input (exit 2), the others are
 * run-time failures (exit 1).  Messages of STORE_FAULT_DAMAGED contain
 * "database is damaged: ". */
typedef enum {
    STORE_FAULT_NONE = 0,
    STORE_FAULT_INPUT,    /* the path names no database of ours: missing (without STORE_CREATE),
                             in a missing directory, a directory, empty, not SQLite, a foreign
                             SQLite file, another schema version */
    STORE_FAULT_DAMAGED,  /* a nocsim database whose contents are corrupt or fail validation */
    STORE_FAULT_IO,       /* I/O, permissions, full disk, locks, out of memory */
} store_fault;

/* The shared kind (util/fault.h) of a store fault: bad input for
 * STORE_FAULT_INPUT, I/O for a damaged file and for STORE_FAULT_IO (SQLite
 * does not always say whether memory or the disk failed). */
static inline fault_kind store_fault_kind(store_fault f)
{
    return f == STORE_FAULT_NONE ? FAULT_NONE : f == STORE_FAULT_INPUT ? FAULT_INPUT : FAULT_IO;
}

/* Open (and with STORE_CREATE create) a nocsim database.  Fails, writing
 * nothing, when the file is missing (without STORE_CREATE), is not a nocsim
 * database, has another schema version, or cannot be written (unless
 * STORE_READONLY).
 * - Creation is race-free: the file is built complete under a private name
 *   beside path and linked into place; when several processes create the
 *   same file at once, one wins and the others open its file.  On failure
 *   nothing is left behind, and no file this process did not create is
 *   ever removed.
 * - A writable open first removes the private creation files a process
 *   killed while creating path left beside it (PATH.new-PID-K and its
 *   journal: the process no longer exists and the file is over a minute
 *   old).
 * - STORE_READONLY never writes and leaves no -wal/-shm beside the file (it
 *   opens the file as immutable unless a writer's -wal or -journal is
 *   present), so a database in a read-only directory can be queried.
 * *fault (may be NULL) says what kind of failure it was (STORE_FAULT_NONE
 * on success). */
NOCSIM_MUST_USE
store *store_open_fault(const char *path, int flags, store_fault *fault, char *err, size_t errlen);
/* store_open_fault without the kind. */
NOCSIM_MUST_USE
store *store_open(const char *path, int flags, char *err, size_t errlen);
/* The kind of the last failure of a call on s (STORE_FAULT_NONE if none). */
store_fault store_last_fault(const store *s);
/* The same as util/fault.h's kind, for a caller that passes a store failure
 * on (fault_rc(store_last_kind(s)) is its int result). */
static inline fault_kind store_last_kind(const store *s) { return store_fault_kind(store_last_fault(s)); }
void store_close(store *s);                       /* NULL is fine */
const char *store_path(const store *s);

/* SQLite's PRAGMA quick_check of the whole file: STORE_OK, or STORE_ERROR
 * with "PATH: database is damaged: <SQLite's first finding>". */
NOCSIM_MUST_USE
int store_quick_check(store *s, char *err, size_t errlen);

/* One write transaction (BEGIN IMMEDIATE); no nesting. */
NOCSIM_MUST_USE
int store_begin(store *s, char *err, size_t errlen);
NOCSIM_MUST_USE
int store_commit(store *s, char *err, size_t errlen);
NOCSIM_MUST_USE
int store_rollback(store *s, char *err, size_t errlen);

/* ---- runs ---------------------------------------------------------------- */
typedef struct {
    int64_t id;                       /* set by store_run_create */
    char uuid[STORE_UUID_LEN + 1];    /* stable identity across files; "" = new random */
    const char *kind;                 /* "ga", "cc", "replay", "stack", ... (required) */
    const char *version;              /* nocsim version, or NULL */
    const char *started, *finished;   /* ISO-8601 UTC; started NULL = now */
    const char *status;               /* "unfinished" | "finished" | "failed" */
    uint64_t seed;
    const char *traffic;              /* traffic pattern name, or NULL */
    int32_t size, slices, flits;      /* N of the N x N network (a rectangle's width; its height is
                                         params "height"), S, l_c; STORE_NONE if unknown */
    const char *genes;                /* gene subset, e.g. "V,I,C,Q", or NULL */
    const char *algorithm;            /* free text naming the search that ran, or NULL */
    const char *params;               /* JSON object of every parameter, or NULL */
    int64_t best_score;               /* fitness of the best chromosome (lower is better) */
    int64_t best_duration;            /* its duration at `slices` slices */
    int64_t best_crc;                 /* its CRC-32 (0..2^32-1); all three STORE_NONE if none */
    int64_t base_stacking;            /* simple-stacking baseline duration, or STORE_NONE */
    int64_t base_nonsplit;            /* non-split baseline duration, or STORE_NONE */
    int64_t parent;                   /* run this one derives from (replay, extrapolation), or 0 */
    int64_t synonyms;                 /* output only: chromosomes with the run's best score */
    void *priv_;                      /* owned copy of the strings (store_run_get) */
} store_run;

/* A run with kind set and every other field unknown (seed 0). */
store_run store_run_init(const char *kind);
/* Insert r as a new run with status "unfinished" (r->status and r->finished
 * are ignored; r->started NULL means now).  Sets r->id, and r->uuid when it
 * was "". */
NOCSIM_MUST_USE
int store_run_create(store *s, store_run *r, char *err, size_t errlen);
/* Set status ("unfinished" clears `finished`; any other sets it to now). */
NOCSIM_MUST_USE
int store_run_set_status(store *s, int64_t run, const char *status, char *err, size_t errlen);
NOCSIM_MUST_USE
int store_run_set_best(store *s, int64_t run, int64_t score, int64_t duration, uint32_t crc,
                       char *err, size_t errlen);
NOCSIM_MUST_USE
int store_run_set_baselines(store *s, int64_t run, int64_t base_stacking, int64_t base_nonsplit,
                            char *err, size_t errlen);
/* Merge the JSON object text patch into the run's params (RFC 7396, SQLite's
 * json_patch: members replaced or added, a null member removed), so a result
 * known only at the end (nocsim load's saturation point) is kept with the
 * run.  STORE_NOTFOUND if run does not exist; STORE_ERROR if patch is not
 * JSON. */
NOCSIM_MUST_USE
int store_run_patch_params(store *s, int64_t run, const char *patch, char *err, size_t errlen);
/* Make `parent` (0 = none) the parent of run (store/lineage.c).  Returns
 * STORE_NOTFOUND if run does not exist; the parent is not checked here (the
 * foreign key is, on commit). */
NOCSIM_MUST_USE
int store_run_set_parent(store *s, int64_t run, int64_t parent, char *err, size_t errlen);
/* Fill *out (strings owned by *out: release with store_run_clear). */
NOCSIM_MUST_USE
int store_run_get(store *s, int64_t run, store_run *out, char *err, size_t errlen);
NOCSIM_MUST_USE
int store_run_find_uuid(store *s, const char *uuid, int64_t *run, char *err, size_t errlen);
void store_run_clear(store_run *r);

typedef struct {
    const char *traffic;   /* NULL = any */
    int32_t slices;        /* 0 = any */
    const char *kind;      /* NULL = any */
} store_run_filter;

typedef int (*store_run_cb)(const store_run *r, void *ctx);
/* Runs matching f (NULL = all), by id. */
NOCSIM_MUST_USE
int store_runs_list(store *s, const store_run_filter *f, store_run_cb cb, void *ctx,
                    char *err, size_t errlen);
/* For each pattern (traffic, size, a rectangle's height (params "height"),
 * slices, flits, and for randperm the seed
 * that drew the permutation) among the runs matching f that have a best
 * duration: the run with the lowest best duration (ties: lowest id). */
NOCSIM_MUST_USE
int store_runs_best(store *s, const store_run_filter *f, store_run_cb cb, void *ctx,
                    char *err, size_t errlen);

/* ---- generations --------------------------------------------------------- */
typedef struct {
    int64_t run, generation;
    int64_t best;          /* best duration so far (cycles) */
    double average;        /* average duration of the population */
    int64_t evaluations;   /* evaluations in this generation */
    double elapsed;        /* seconds since the run started */
} store_gen;

/* Insert, or replace the row of the same (run, generation). */
NOCSIM_MUST_USE
int store_gen_add(store *s, const store_gen *g, char *err, size_t errlen);
typedef int (*store_gen_cb)(const store_gen *g, void *ctx);
NOCSIM_MUST_USE
int store_gen_list(store *s, int64_t run, store_gen_cb cb, void *ctx, char *err, size_t errlen);

/* ---- chromosomes --------------------------------------------------------- */
typedef struct {
    int64_t id, run, generation;
    uint32_t crc;                     /* CRC-32 of genes, computed by the caller */
    int64_t score;                    /* the fitness the search minimised */
    int64_t duration, t_d, t_e, ir, or_, ib, ob, lb;
    bool is_synonym;                  /* scored the run's best when recorded */
    const uint8_t *genes;             /* canonical encoding (opaque here) */
    size_t genes_len;
    void *priv_;                      /* owned genes (store_chrom_get) */
} store_chrom;

/* Record c (genes compressed with zlib); sets *id (may be NULL).  Returns
 * STORE_EXISTS, writing nothing, if c->run already has c->crc. */
NOCSIM_MUST_USE
int store_chrom_add(store *s, const store_chrom *c, int64_t *id, char *err, size_t errlen);
/* Every read that returns genes (store_chrom_get, store_chrom_find_crc,
 * store_chrom_list with with_genes) checks that their CRC-32 is the recorded
 * crc, and fails with STORE_ERROR, fault STORE_FAULT_DAMAGED and "PATH:
 * database is damaged: chromosome ID: ..." when it is not. */
/* Fill *out with genes decompressed into memory owned by *out (store_chrom_clear). */
NOCSIM_MUST_USE
int store_chrom_get(store *s, int64_t id, store_chrom *out, char *err, size_t errlen);
/* The chromosome with this CRC in run (0 = any run; the lowest id wins). */
NOCSIM_MUST_USE
int store_chrom_find_crc(store *s, int64_t run, uint32_t crc, store_chrom *out,
                         char *err, size_t errlen);
/* 1 if run has crc, 0 if not, STORE_ERROR on failure. */
NOCSIM_MUST_USE
int store_chrom_has_crc(store *s, int64_t run, uint32_t crc, char *err, size_t errlen);
void store_chrom_clear(store_chrom *c);

/* --where expressions (store/filter.c):
 *   expr   := term { "or" term }        term := factor { "and" factor }
 *   factor := "not" factor | "(" expr ")" | value op value
 *   value  := metric | integer (decimal, or 0x hex; optional leading '-')
 *   op     := < <= > >= = == != <>
 *   metric := duration score t_d t_e ir or ib ob lb generation crc id
 * Keywords and metrics are case-insensitive.  The SQL produced names only
 * whitelisted columns and binds every literal as a parameter. */
typedef struct store_filter store_filter;
/* NULL on error: err says what was expected at which position (0-based byte
 * offset, also stored in *errpos if not NULL). */
NOCSIM_MUST_USE
store_filter *store_filter_parse(const char *expr, int *errpos, char *err, size_t errlen);
void store_filter_free(store_filter *f);
const char *store_filter_sql(const store_filter *f);   /* e.g. "(c.lb < ?)" */
int store_filter_nbinds(const store_filter *f);
int64_t store_filter_bind(const store_filter *f, int i);
/* Validate "--order-by": a metric name, optionally followed by "asc"/"desc".
 * Writes the SQL ORDER BY term (e.g. "c.ob DESC") into sql. */
NOCSIM_MUST_USE
int store_order_parse(const char *order, char *sql, size_t sqllen, char *err, size_t errlen);

typedef struct {
    int64_t run;                 /* required */
    bool synonyms_only;          /* only chromosomes with the run's lowest score */
    const store_filter *where;   /* NULL = all */
    const char *order_by;        /* store_order_parse syntax; NULL = by id */
    int64_t limit;               /* 0 = no limit */
    bool with_genes;             /* decompress genes for the callback */
} store_chrom_query;

typedef int (*store_chrom_cb)(const store_chrom *c, void *ctx);
NOCSIM_MUST_USE
int store_chrom_list(store *s, const store_chrom_query *q, store_chrom_cb cb, void *ctx,
                     char *err, size_t errlen);
/* Number of chromosomes the query selects (limit and with_genes ignored). */
NOCSIM_MUST_USE
int store_chrom_count(store *s, const store_chrom_query *q, int64_t *n, char *err, size_t errlen);

/* ---- checkpoints: one opaque blob per run, replaced on every put --------- */
NOCSIM_MUST_USE
int store_checkpoint_put(store *s, int64_t run, int64_t generation, const void *data, size_t len,
                         char *err, size_t errlen);
/* *data is malloc'd (caller frees); STORE_NOTFOUND if the run has none. */
NOCSIM_MUST_USE
int store_checkpoint_get(store *s, int64_t run, int64_t *generation, uint8_t **data, size_t *len,
                         char *err, size_t errlen);

/* ---- collective-communication schedules --------------------------------- */
typedef struct {
    int64_t id, run;
    int64_t steps;             /* steps of the schedule */
    int64_t bound;             /* lower bound it was compared with, or STORE_NONE */
    const char *schedule;      /* JSON text */
    void *priv_;
} store_cc;

NOCSIM_MUST_USE
int store_cc_add(store *s, const store_cc *c, int64_t *id, char *err, size_t errlen);
NOCSIM_MUST_USE
int store_cc_get(store *s, int64_t id, store_cc *out, char *err, size_t errlen);
void store_cc_clear(store_cc *c);
typedef int (*store_cc_cb)(const store_cc *c, void *ctx);
NOCSIM_MUST_USE
int store_cc_list(store *s, int64_t run, store_cc_cb cb, void *ctx, char *err, size_t errlen);

/* ---- merging ------------------------------------------------------------- */
typedef struct {
    int64_t runs_added, runs_skipped;     /* skipped: uuid already present */
    int64_t generations, chromosomes, checkpoints, schedules;
    int64_t load_points;
} store_merge_stats;

/* Copy every run of the nocsim database at other_path whose uuid is not in s
 * (with its generations, chromosomes, checkpoint, schedules and open-loop
 * points) under new ids, in one transaction.  A run already in s that has
 * no open-loop points gets those of the other file's run of its uuid (a
 * merge by an earlier nocsim left them behind).  Parent links are translated through uuids.
 * other_path is opened read-only.  stats may be NULL.  Only the file's
 * form is checked here (a nocsim database of this version); callers check
 * its contents first (nocsim db merge runs ga_db_check, ga/dbcheck.h). */
NOCSIM_MUST_USE
int store_merge(store *s, const char *other_path, store_merge_stats *stats,
                char *err, size_t errlen);

/* ---- open-loop curves (store/load.c) ------------------------------------- */
/* One point of a curve, as sim/openloop.h's ol_point (the store uses
 * nothing of ours, so it has its own copy of the fields). */
typedef struct {
    double rate, offered, accepted, latency, ci95, network_latency, hops;
    int64_t p50, p99, max, tagged, tagged_done, warmup_cycles, drain_cycles, cycles;
    int steady;
    int saturated;                    /* the OL_SAT_* bits, 0 for a stable point */
} store_load_point;

/* Add a point to run (one statement, its own transaction outside
 * store_begin).  STORE_EXISTS if the run already has that rate. */
NOCSIM_MUST_USE
int store_load_add(store *s, int64_t run, const store_load_point *p, char *err, size_t errlen);
typedef int (*store_load_cb)(const store_load_point *p, void *ctx);
/* The points of run by ascending rate (none for a version-1 file opened
 * read-only). */
NOCSIM_MUST_USE
int store_load_list(store *s, int64_t run, store_load_cb cb, void *ctx, char *err, size_t errlen);
/* Remove the points of run above rate (all of them when rate <= 0), so the
 * stored curve is the one kept (points that ran on other threads past the
 * first saturated one are dropped from the curve).  *removed (may be NULL)
 * gets how many went. */
NOCSIM_MUST_USE
int store_load_trim(store *s, int64_t run, double rate, int64_t *removed, char *err, size_t errlen);

#endif
