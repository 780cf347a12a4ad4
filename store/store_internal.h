/* Shared by the files of store/: the handle, and the helpers of sql.c
 * through which every file talks to SQLite.  Not part of the public API. */
#ifndef NOCSIM_STORE_INTERNAL_H
#define NOCSIM_STORE_INTERNAL_H

#include <limits.h>
#include <sqlite3.h>
#include "store/store.h"
#include "util/fault.h"

struct store {
    sqlite3 *db;
    char *path;
    bool readonly;
    store_fault fault;   /* of the last failure (store_last_fault) */
};

extern const char store_schema_sql[];
/* The load_points table alone (schema version 2's addition). */
extern const char store_load_sql[];

/* printf into err (if not NULL), control bytes (newlines of SQLite's
 * findings) made spaces so it is one line; returns STORE_ERROR. */
int store_err(char *err, size_t errlen, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* "PATH: WHAT: <sqlite's message>" ("PATH: database is damaged: ..." when
 * SQLite found the file corrupt); records the fault; returns STORE_ERROR. */
int store_sqlerr(store *s, char *err, size_t errlen, const char *what);
/* "PATH: database is damaged: <fmt>"; records the fault; STORE_ERROR. */
int store_damaged(store *s, char *err, size_t errlen, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
/* "file:PATH?mode=..." for sqlite3_open_v2 and ATTACH (malloc'd; NULL when
 * out of memory): read-write, or read-only as store_open_fault documents
 * (immutable when no writer's -wal or -journal is beside the file). */
char *store_uri(const char *path, bool ro);
/* Run SQL without results. */
NOCSIM_MUST_USE
int store_exec(store *s, const char *sql, char *err, size_t errlen, const char *what);
/* Prepare sql; NULL with the message in err on failure. */
NOCSIM_MUST_USE
sqlite3_stmt *store_prepare(store *s, const char *sql, char *err, size_t errlen, const char *what);

/* Bind helpers: true on success.  Optional values bind NULL. */
static inline bool bind_i64(sqlite3_stmt *st, int i, int64_t v)
{
    return sqlite3_bind_int64(st, i, v) == SQLITE_OK;
}
static inline bool bind_opt(sqlite3_stmt *st, int i, int64_t v)
{
    return (v == STORE_NONE ? sqlite3_bind_null(st, i) : sqlite3_bind_int64(st, i, v)) == SQLITE_OK;
}
static inline bool bind_text(sqlite3_stmt *st, int i, const char *t)
{
    return (t ? sqlite3_bind_text(st, i, t, -1, SQLITE_TRANSIENT) : sqlite3_bind_null(st, i))
           == SQLITE_OK;
}
static inline bool bind_blob(sqlite3_stmt *st, int i, const void *p, size_t n)
{
    if (n > INT_MAX)
        return false;
    return sqlite3_bind_blob(st, i, n ? p : "", (int)n, SQLITE_TRANSIENT) == SQLITE_OK;
}
static inline int64_t col_opt(sqlite3_stmt *st, int i)
{
    return sqlite3_column_type(st, i) == SQLITE_NULL ? STORE_NONE : sqlite3_column_int64(st, i);
}
static inline const char *col_text(sqlite3_stmt *st, int i)
{
    return (const char *)sqlite3_column_text(st, i);
}

/* Step a statement that returns no rows, then finalize it. */
NOCSIM_MUST_USE
int store_step_done(store *s, sqlite3_stmt *st, char *err, size_t errlen, const char *what);
/* A statement's binds failed: report, finalize; returns STORE_ERROR. */
int store_bind_failed(store *s, sqlite3_stmt *st, char *err, size_t errlen, const char *what);
/* An UPDATE of one run: STORE_NOTFOUND if no row changed. */
NOCSIM_MUST_USE
int store_step_update_run(store *s, sqlite3_stmt *st, int64_t run, char *err, size_t errlen,
                          const char *what);
/* Prepare sql and bind its single parameter to key (NULL: failed, reported). */
NOCSIM_MUST_USE
sqlite3_stmt *store_prepare_key(store *s, const char *sql, int64_t key, char *err, size_t errlen,
                                const char *what);

/* Fills a record from the single row of a lookup. */
typedef int (*one_fn)(store *s, sqlite3_stmt *st, void *out, char *err, size_t errlen);
/* Step a lookup (NULL: already failed) that gives at most one row, then
 * finalize it.  No row: STORE_NOTFOUND with "PATH: notfound". */
NOCSIM_MUST_USE
int store_one_row(store *s, sqlite3_stmt *st, one_fn fn, void *out, char *err, size_t errlen,
                  const char *what, const char *notfound);

/* Row callback plumbing shared by every listing: step st, let fn convert
 * each row and call the user's callback from cb (0: go on, 1: stop, or
 * STORE_ERROR). */
struct cbs {
    store_run_cb run;
    store_gen_cb gen;
    store_chrom_cb chrom;
    store_cc_cb cc;
    void *ctx;
    bool genes;
};
typedef int (*row_fn)(store *s, sqlite3_stmt *st, const struct cbs *cb, char *err, size_t errlen);
NOCSIM_MUST_USE
int store_each_row(store *s, sqlite3_stmt *st, row_fn fn, const struct cbs *cb, char *err,
                   size_t errlen, const char *what);

/* zlib: n bytes compressed into *out (malloc'd, *outn bytes). */
NOCSIM_MUST_USE
int store_zip(const store *s, const void *in, size_t n, uint8_t **out, size_t *outn,
              char *err, size_t errlen);
/* inn compressed bytes into *out (malloc'd), which must come to exactly n
 * bytes: anything else is damage to "WHAT ID". */
NOCSIM_MUST_USE
int store_unzip(store *s, const void *in, size_t inn, size_t n, uint8_t **out,
                char *err, size_t errlen, const char *what, int64_t id);

/* The current time as the store writes it (ISO-8601 UTC). */
#define NOW_SQL "strftime('%Y-%m-%dT%H:%M:%SZ', 'now')"

#endif
