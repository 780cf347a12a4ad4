/* Shared by the files of store/: the handle and small helpers.  Not part of
 * the public API. */
#ifndef NOCSIM_STORE_INTERNAL_H
#define NOCSIM_STORE_INTERNAL_H

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

#endif
