/* Shared by the files of store/: the handle and small helpers.  Not part of
 * the public API. */
#ifndef NOCSIM_STORE_INTERNAL_H
#define NOCSIM_STORE_INTERNAL_H

#include <sqlite3.h>
#include "store/store.h"

struct store {
    sqlite3 *db;
    char *path;
    bool readonly;
};

extern const char store_schema_sql[];

/* printf into err (if not NULL); returns STORE_ERROR. */
int store_err(char *err, size_t errlen, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* "PATH: WHAT: <sqlite's message>"; returns STORE_ERROR. */
int store_sqlerr(const store *s, char *err, size_t errlen, const char *what);
/* Run SQL without results. */
int store_exec(store *s, const char *sql, char *err, size_t errlen, const char *what);
/* Prepare sql; NULL with the message in err on failure. */
sqlite3_stmt *store_prepare(store *s, const char *sql, char *err, size_t errlen, const char *what);

#endif
