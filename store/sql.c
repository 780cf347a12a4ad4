/* How the files of store/ talk to SQLite (store_internal.h): one-line
 * messages that record the fault kind, preparing and stepping statements,
 * the row plumbing of lookups and listings, and zlib for the blobs
 * (chromosome genes, checkpoints). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "store/store_internal.h"

/* One line: SQLite's findings (a schema's CREATE text, quick_check's list)
 * span several, and a control byte would reach the terminal. */
static void flatten(char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s < 0x20) *s = ' ';
}

int store_err(char *err, size_t errlen, const char *fmt, ...)
{
    if (err && errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
        flatten(err);
    }
    return STORE_ERROR;
}

int store_sqlerr(store *s, char *err, size_t errlen, const char *what)
{
    int code = s->db ? sqlite3_errcode(s->db) & 0xff : SQLITE_NOMEM;
    const char *msg = s->db ? sqlite3_errmsg(s->db) : "out of memory";
    if (code == SQLITE_CORRUPT || code == SQLITE_NOTADB) {
        s->fault = STORE_FAULT_DAMAGED;
        return store_err(err, errlen, "%s: database is damaged: %s: %s", s->path, what, msg);
    }
    s->fault = STORE_FAULT_IO;
    return store_err(err, errlen, "%s: %s: %s", s->path, what, msg);
}

int store_damaged(store *s, char *err, size_t errlen, const char *fmt, ...)
{
    s->fault = STORE_FAULT_DAMAGED;
    int n = snprintf(err, err ? errlen : 0, "%s: database is damaged: ", s->path);
    if (err && n >= 0 && (size_t)n < errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
        va_end(ap);
        flatten(err);
    }
    return STORE_ERROR;
}

int store_exec(store *s, const char *sql, char *err, size_t errlen, const char *what)
{
    char *msg = NULL;
    if (sqlite3_exec(s->db, sql, NULL, NULL, &msg) != SQLITE_OK) {
        store_err(err, errlen, "%s: %s: %s", s->path, what, msg ? msg : sqlite3_errmsg(s->db));
        sqlite3_free(msg);
        return STORE_ERROR;
    }
    return STORE_OK;
}

sqlite3_stmt *store_prepare(store *s, const char *sql, char *err, size_t errlen, const char *what)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK) {
        store_sqlerr(s, err, errlen, what);
        sqlite3_finalize(st);
        return NULL;
    }
    return st;
}


int store_step_done(store *s, sqlite3_stmt *st, char *err, size_t errlen, const char *what)
{
    int rc = sqlite3_step(st);
    int ret = rc == SQLITE_DONE ? STORE_OK : store_sqlerr(s, err, errlen, what);
    sqlite3_finalize(st);
    return ret;
}

int store_bind_failed(store *s, sqlite3_stmt *st, char *err, size_t errlen, const char *what)
{
    store_err(err, errlen, "%s: %s: cannot bind a value (%s)", s->path, what,
              sqlite3_errmsg(s->db));
    sqlite3_finalize(st);
    return STORE_ERROR;
}

int store_step_update_run(store *s, sqlite3_stmt *st, int64_t run, char *err, size_t errlen,
                          const char *what)
{
    if (store_step_done(s, st, err, errlen, what) != STORE_OK)
        return STORE_ERROR;
    if (sqlite3_changes(s->db) == 0) {
        store_err(err, errlen, "%s: %s: no run %lld", s->path, what, (long long)run);
        return STORE_NOTFOUND;
    }
    return STORE_OK;
}

sqlite3_stmt *store_prepare_key(store *s, const char *sql, int64_t key, char *err, size_t errlen,
                                const char *what)
{
    sqlite3_stmt *st = store_prepare(s, sql, err, errlen, what);
    if (st && !bind_i64(st, 1, key)) {
        store_bind_failed(s, st, err, errlen, what);
        return NULL;
    }
    return st;
}

int store_one_row(store *s, sqlite3_stmt *st, one_fn fn, void *out, char *err, size_t errlen,
                  const char *what, const char *notfound)
{
    if (!st)
        return STORE_ERROR;
    int rc = sqlite3_step(st), ret;
    if (rc == SQLITE_ROW)
        ret = fn(s, st, out, err, errlen);
    else if (rc == SQLITE_DONE)
        ret = STORE_NOTFOUND, store_err(err, errlen, "%s: %s", s->path, notfound);
    else
        ret = store_sqlerr(s, err, errlen, what);
    sqlite3_finalize(st);
    return ret;
}

int store_zip(const store *s, const void *in, size_t n, uint8_t **out, size_t *outn,
              char *err, size_t errlen)
{
    uLong bound = compressBound((uLong)n);
    uLongf dl = bound;
    uint8_t *buf = malloc(bound ? bound : 1);
    if (!buf)
        return store_err(err, errlen, "%s: out of memory compressing %zu bytes", s->path, n);
    int rc = compress2(buf, &dl, n ? in : (const void *)"", (uLong)n, Z_DEFAULT_COMPRESSION);
    if (rc != Z_OK) {
        free(buf);
        return store_err(err, errlen, "%s: zlib compress2 failed (%d)", s->path, rc);
    }
    *out = buf;
    *outn = dl;
    return STORE_OK;
}

/* zlib never expands more than about 1032:1: a larger claim is damage,
 * refused before anything is allocated for it. */
int store_unzip(store *s, const void *in, size_t inn, size_t n, uint8_t **out,
                char *err, size_t errlen, const char *what, int64_t id)
{
    if (n / 1032 > inn + 64)
        return store_damaged(s, err, errlen, "%s %lld: %zu bytes claimed from %zu compressed", what,
                             (long long)id, n, inn);
    uint8_t *buf = malloc(n ? n : 1);
    if (!buf) {
        s->fault = STORE_FAULT_IO;
        return store_err(err, errlen, "%s: out of memory for %s %lld (%zu bytes)", s->path, what,
                         (long long)id, n);
    }
    uLongf dl = n;
    int rc = uncompress(buf, &dl, in ? in : (const void *)"", (uLong)inn);
    if (rc != Z_OK || dl != n) {
        free(buf);
        return store_damaged(s, err, errlen, "%s %lld: corrupt compressed data (zlib %d, %lu of %zu bytes)",
                             what, (long long)id, rc, (unsigned long)dl, n);
    }
    *out = buf;
    return STORE_OK;
}

int store_each_row(store *s, sqlite3_stmt *st, row_fn fn, const struct cbs *cb, char *err,
                   size_t errlen, const char *what)
{
    int rc, ret = STORE_OK;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        int r = fn(s, st, cb, err, errlen);
        if (r == STORE_ERROR) {
            ret = STORE_ERROR;
            break;
        }
        if (r != 0)
            break;
    }
    if (ret == STORE_OK && rc != SQLITE_ROW && rc != SQLITE_DONE)
        ret = store_sqlerr(s, err, errlen, what);
    sqlite3_finalize(st);
    return ret;
}
