/* The nocsim SQLite store: opening and validating the file, transactions,
 * runs, generations, chromosomes, checkpoints and cc schedules.  Merging is
 * in merge.c, the --where language in filter.c, the schema in schema.c. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "store/store_internal.h"

#define BUSY_TIMEOUT_MS 10000

/* ---- helpers ------------------------------------------------------------- */

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

/* Bind helpers: true on success.  Optional values bind NULL. */
static bool bind_i64(sqlite3_stmt *st, int i, int64_t v)
{
    return sqlite3_bind_int64(st, i, v) == SQLITE_OK;
}
static bool bind_opt(sqlite3_stmt *st, int i, int64_t v)
{
    return (v == STORE_NONE ? sqlite3_bind_null(st, i) : sqlite3_bind_int64(st, i, v)) == SQLITE_OK;
}
static bool bind_text(sqlite3_stmt *st, int i, const char *t)
{
    return (t ? sqlite3_bind_text(st, i, t, -1, SQLITE_TRANSIENT) : sqlite3_bind_null(st, i))
           == SQLITE_OK;
}
static bool bind_blob(sqlite3_stmt *st, int i, const void *p, size_t n)
{
    if (n > INT_MAX)
        return false;
    return sqlite3_bind_blob(st, i, n ? p : "", (int)n, SQLITE_TRANSIENT) == SQLITE_OK;
}
static int64_t col_opt(sqlite3_stmt *st, int i)
{
    return sqlite3_column_type(st, i) == SQLITE_NULL ? STORE_NONE : sqlite3_column_int64(st, i);
}
static const char *col_text(sqlite3_stmt *st, int i)
{
    return (const char *)sqlite3_column_text(st, i);
}

/* Step a statement that returns no rows, then finalize it. */
static int step_done(store *s, sqlite3_stmt *st, char *err, size_t errlen, const char *what)
{
    int rc = sqlite3_step(st);
    int ret = rc == SQLITE_DONE ? STORE_OK : store_sqlerr(s, err, errlen, what);
    sqlite3_finalize(st);
    return ret;
}

/* A statement's binds failed: report, finalize. */
static int bind_failed(store *s, sqlite3_stmt *st, char *err, size_t errlen, const char *what)
{
    store_err(err, errlen, "%s: %s: cannot bind a value (%s)", s->path, what,
              sqlite3_errmsg(s->db));
    sqlite3_finalize(st);
    return STORE_ERROR;
}

/* An UPDATE of one run: STORE_NOTFOUND if no row changed. */
static int step_update_run(store *s, sqlite3_stmt *st, int64_t run, char *err, size_t errlen,
                           const char *what)
{
    if (step_done(s, st, err, errlen, what) != STORE_OK)
        return STORE_ERROR;
    if (sqlite3_changes(s->db) == 0) {
        store_err(err, errlen, "%s: %s: no run %lld", s->path, what, (long long)run);
        return STORE_NOTFOUND;
    }
    return STORE_OK;
}

/* Prepare sql and bind its single parameter to key. */
static sqlite3_stmt *prepare_key(store *s, const char *sql, int64_t key, char *err, size_t errlen,
                                 const char *what)
{
    sqlite3_stmt *st = store_prepare(s, sql, err, errlen, what);
    if (st && !bind_i64(st, 1, key)) {
        bind_failed(s, st, err, errlen, what);
        return NULL;
    }
    return st;
}

/* Fills a record from the single row of a lookup. */
typedef int (*one_fn)(store *s, sqlite3_stmt *st, void *out, char *err, size_t errlen);

/* Step a lookup (NULL: already failed) that gives at most one row, then
 * finalize it.  No row: STORE_NOTFOUND with "PATH: notfound". */
static int one_row(store *s, sqlite3_stmt *st, one_fn fn, void *out, char *err, size_t errlen,
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

/* zlib */
static int zip(const store *s, const void *in, size_t n, uint8_t **out, size_t *outn,
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
static int unzip(store *s, const void *in, size_t inn, size_t n, uint8_t **out,
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

/* ---- open / close -------------------------------------------------------- */

/* Read application_id, user_version and the number of schema objects, in
 * the caller's transaction. */
static int read_header(store *s, int64_t *appid, int64_t *ver, int64_t *nobj, char *err,
                       size_t errlen)
{
    static const char *const q[3] = {
        "PRAGMA application_id", "PRAGMA user_version", "SELECT COUNT(*) FROM sqlite_master"};
    int64_t *out[3] = {appid, ver, nobj};
    for (int i = 0; i < 3; i++) {
        sqlite3_stmt *st = NULL;
        int rc = sqlite3_prepare_v2(s->db, q[i], -1, &st, NULL);
        if (rc == SQLITE_OK)
            rc = sqlite3_step(st);
        if (rc != SQLITE_ROW) {
            int code = sqlite3_errcode(s->db) & 0xff;
            if (code == SQLITE_NOTADB) {
                s->fault = STORE_FAULT_INPUT;
                store_err(err, errlen, "%s: not a nocsim database (not an SQLite file)", s->path);
            } else {
                store_sqlerr(s, err, errlen, "cannot read the database");
            }
            sqlite3_finalize(st);
            return STORE_ERROR;
        }
        *out[i] = sqlite3_column_int64(st, 0);
        sqlite3_finalize(st);
    }
    return STORE_OK;
}

static bool header_empty(int64_t appid, int64_t ver, int64_t nobj)
{
    return appid == 0 && ver == 0 && nobj == 0;
}

/* Refuse anything but a nocsim database of this schema version. */
static int header_ok(store *s, int64_t appid, int64_t ver, char *err, size_t errlen)
{
    s->fault = STORE_FAULT_INPUT;
    if (appid != STORE_APPLICATION_ID)
        return store_err(err, errlen,
                         "%s: not a nocsim database (an SQLite file with application id %lld)",
                         s->path, (long long)appid);
    if (ver != STORE_SCHEMA_VERSION && ver != 1)
        return store_err(err, errlen,
                         "%s: database schema version %lld, but this nocsim reads version %d "
                         "(use a matching nocsim, or a new file)",
                         s->path, (long long)ver, STORE_SCHEMA_VERSION);
    s->fault = STORE_FAULT_NONE;
    return STORE_OK;
}

static int create_schema(store *s, char *err, size_t errlen)
{
    char pragmas[128];
    snprintf(pragmas, sizeof pragmas, "PRAGMA application_id = %d; PRAGMA user_version = %d;",
             STORE_APPLICATION_ID, STORE_SCHEMA_VERSION);
    if (store_exec(s, store_schema_sql, err, errlen, "cannot create the schema") != STORE_OK ||
        store_exec(s, pragmas, err, errlen, "cannot create the schema") != STORE_OK)
        return STORE_ERROR;
    return STORE_OK;
}

/* Version 1 -> 2: the load_points table, in the caller's transaction. */
static int migrate_to_2(store *s, char *err, size_t errlen)
{
    char pragma[64];
    snprintf(pragma, sizeof pragma, "PRAGMA user_version = %d;", STORE_SCHEMA_VERSION);
    if (store_exec(s, store_load_sql, err, errlen, "cannot migrate the database to schema version 2") != STORE_OK ||
        store_exec(s, pragma, err, errlen, "cannot migrate the database to schema version 2") != STORE_OK)
        return STORE_ERROR;
    return STORE_OK;
}

/* Check the header inside one transaction (a write transaction when an
 * empty file may get the schema, so two processes cannot both see it
 * empty); create the schema when the file is empty and create is set. */
static int check_header(store *s, bool create, char *err, size_t errlen)
{
    const char *what = create ? "cannot create the schema" : "cannot read the database";
    if (store_exec(s, create ? "BEGIN IMMEDIATE" : "BEGIN", err, errlen, what) != STORE_OK)
        return STORE_ERROR;
    int64_t appid, ver, nobj;
    int ret = read_header(s, &appid, &ver, &nobj, err, errlen);
    if (ret == STORE_OK && header_empty(appid, ver, nobj)) {
        if (create) {
            ret = create_schema(s, err, errlen);
            appid = STORE_APPLICATION_ID;
            ver = STORE_SCHEMA_VERSION;
        } else {
            s->fault = STORE_FAULT_INPUT;
            ret = store_err(err, errlen, "%s: not a nocsim database (empty file)", s->path);
        }
    }
    if (ret == STORE_OK)
        ret = header_ok(s, appid, ver, err, errlen);
    if (ret == STORE_OK && ver == 1 && !s->readonly)
        ret = migrate_to_2(s, err, errlen);
    if (ret == STORE_OK)
        ret = store_exec(s, "COMMIT", err, errlen, what);
    if (ret != STORE_OK && !sqlite3_get_autocommit(s->db))
        sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL); /* best effort; error already set */
    return ret;
}

/* WAL mode, so a reader never blocks the GA and a kill leaves a valid
 * file.  Only a read-write handle sets it (persistent in the file). */
static int set_wal(store *s, char *err, size_t errlen)
{
    static const char *const what = "cannot select WAL journal mode";
    sqlite3_stmt *st = store_prepare(s, "PRAGMA journal_mode", err, errlen, what);
    if (!st)
        return STORE_ERROR;
    int rc = sqlite3_step(st);
    bool wal = rc == SQLITE_ROW && col_text(st, 0) && strcmp(col_text(st, 0), "wal") == 0;
    sqlite3_finalize(st);
    if (rc != SQLITE_ROW)
        return store_sqlerr(s, err, errlen, what);
    if (wal)
        return STORE_OK;
    /* Leaving rollback mode needs a moment alone with the file; SQLite does
     * not wait for it through the busy handler, so wait here. */
    for (int waited = 0;; waited += 10) {
        if (!(st = store_prepare(s, "PRAGMA journal_mode = WAL", err, errlen, what)))
            return STORE_ERROR;
        rc = sqlite3_step(st);
        wal = rc == SQLITE_ROW && col_text(st, 0) && strcmp(col_text(st, 0), "wal") == 0;
        char mode[16];
        snprintf(mode, sizeof mode, "%s", rc == SQLITE_ROW && col_text(st, 0) ? col_text(st, 0) : "?");
        sqlite3_finalize(st);
        if (wal)
            return STORE_OK;
        if (rc == SQLITE_ROW) {
            s->fault = STORE_FAULT_IO;
            return store_err(err, errlen, "%s: cannot use the WAL journal (SQLite kept mode '%s')",
                             s->path, mode);
        }
        if ((sqlite3_errcode(s->db) & 0xff) != SQLITE_BUSY || waited >= BUSY_TIMEOUT_MS)
            return store_sqlerr(s, err, errlen, what);
        sqlite3_sleep(10);
    }
}

static int set_pragmas(store *s, char *err, size_t errlen)
{
    if (store_exec(s, "PRAGMA foreign_keys = ON", err, errlen, "cannot enable foreign keys") != STORE_OK)
        return STORE_ERROR;
    if (s->readonly)
        return STORE_OK;
    if (set_wal(s, err, errlen) != STORE_OK)
        return STORE_ERROR;
    return store_exec(s, "PRAGMA synchronous = NORMAL", err, errlen, "cannot set synchronous mode");
}

/* path + suffix, malloc'd (NULL when out of memory). */
static char *path_with(const char *path, const char *suffix)
{
    size_t n = strlen(path) + strlen(suffix) + 1;
    char *p = malloc(n);
    if (p)
        snprintf(p, n, "%s%s", path, suffix);
    return p;
}

static bool exists(const char *path, const char *suffix)
{
    char *p = path_with(path, suffix);
    struct stat sb;
    bool e = p && stat(p, &sb) == 0;
    free(p);
    return e;
}

/* Remove a database file this process created, with its side files. */
static void remove_own(const char *path)
{
    static const char *const suffix[] = {"", "-wal", "-shm", "-journal"};
    for (size_t i = 0; i < sizeof suffix / sizeof *suffix; i++) {
        char *p = path_with(path, suffix[i]);
        if (p)
            (void)unlink(p); /* best effort: our own scratch file */
        free(p);
    }
}

/* Remove the private creation files ("PATH.new-PID-K" and their -journal,
 * -wal, -shm) that a process killed while creating PATH left beside it: the
 * process is gone (no such pid on this machine) and the file is more than a
 * minute old (a creation takes milliseconds; the age keeps files of a live
 * creator on another machine sharing the folder).  Best effort. */
static void remove_stale(const char *path)
{
    const char *slash = strrchr(path, '/');
    char dir[PATH_MAX], prefix[PATH_MAX];
    if (!slash) snprintf(dir, sizeof dir, ".");
    else snprintf(dir, sizeof dir, "%.*s", slash == path ? 1 : (int)(slash - path), path);
    int n = snprintf(prefix, sizeof prefix, "%s.new-", slash ? slash + 1 : path);
    if (n < 0 || (size_t)n >= sizeof prefix) return;
    DIR *d = opendir(dir);
    if (!d) return;
    time_t now = time(NULL);
    struct dirent *e;
    while ((e = readdir(d))) {
        if (strncmp(e->d_name, prefix, (size_t)n) != 0) continue;
        char *end;
        long pid = strtol(e->d_name + n, &end, 10);
        if (end == e->d_name + n || *end != '-' || pid <= 0 || pid == (long)getpid()) continue;
        if (kill((pid_t)pid, 0) == 0 || errno != ESRCH) continue;   /* alive, or not ours to judge */
        char full[PATH_MAX * 2];
        snprintf(full, sizeof full, "%s/%s", dir, e->d_name);
        struct stat sb;
        if (lstat(full, &sb) == 0 && S_ISREG(sb.st_mode) && now - sb.st_mtime > 60) (void)unlink(full);
    }
    closedir(d);
}

/* A path that names nothing usable is the user's typo (bad input); a
 * refusal by the system is a run-time failure. */
static store_fault fault_of_errno(int e)
{
    return e == ENOENT || e == ENOTDIR || e == ENAMETOOLONG || e == ELOOP ? STORE_FAULT_INPUT
                                                                          : STORE_FAULT_IO;
}

/* Whether the directory of a new file lets us create it; a message if not
 * (SQLite's own is only "unable to open database file"). */
static bool can_create(const char *path, store_fault *fault, char *err, size_t errlen)
{
    char *dir = strdup(path);
    if (!dir) {
        store_err(err, errlen, "%s: out of memory", path);
        return false;
    }
    char *slash = strrchr(dir, '/');
    if (slash)
        slash[slash == dir ? 1 : 0] = 0;
    int ok = access(slash ? dir : ".", W_OK | X_OK) == 0, e = errno;
    free(dir);
    if (!ok) {
        *fault = fault_of_errno(e);
        store_err(err, errlen, "%s: cannot create the file: %s", path, strerror(e));
    }
    return ok;
}

char *store_uri(const char *path, bool ro)
{
    char *uri = malloc(strlen(path) * 3 + 32), *p = uri;
    if (!uri)
        return NULL;
    p += sprintf(p, "file:");
    for (const unsigned char *c = (const unsigned char *)path; *c; c++) {
        if ((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ||
            strchr("/._~-", *c))
            *p++ = (char)*c;
        else
            p += sprintf(p, "%%%02X", *c);
    }
    /* Immutable only when no writer's WAL (nor a crashed writer's rollback
     * journal, which a normal connection would replay) is beside the file. */
    bool quiet = ro && !exists(path, "-wal") && !exists(path, "-journal");
    strcpy(p, !ro ? "?mode=rw" : quiet ? "?mode=ro&immutable=1" : "?mode=ro");
    return uri;
}

static int connect(store *s, const char *path, bool ro, char *err, size_t errlen)
{
    char *uri = store_uri(path, ro);
    if (!uri) {
        s->fault = STORE_FAULT_IO;
        return store_err(err, errlen, "%s: out of memory", path);
    }
    int rc = sqlite3_open_v2(uri, &s->db, (ro ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE) |
                                               SQLITE_OPEN_URI, NULL);
    free(uri);
    if (rc != SQLITE_OK) {
        s->fault = STORE_FAULT_IO;
        return store_err(err, errlen, "%s: cannot open: %s", path,
                         s->db ? sqlite3_errmsg(s->db) : sqlite3_errstr(rc));
    }
    if (sqlite3_extended_result_codes(s->db, 1) != SQLITE_OK ||
        sqlite3_busy_timeout(s->db, BUSY_TIMEOUT_MS) != SQLITE_OK)
        return store_sqlerr(s, err, errlen, "cannot configure the connection");
    if (!ro && sqlite3_db_readonly(s->db, "main") != 0) {
        s->fault = STORE_FAULT_IO;
        return store_err(err, errlen, "%s: cannot write to the database file (permission denied)",
                         path);
    }
    return STORE_OK;
}

static store *handle_new(const char *path, bool ro, char *err, size_t errlen)
{
    store *s = calloc(1, sizeof *s);
    if (s && !(s->path = strdup(path))) {
        free(s);
        s = NULL;
    }
    if (!s)
        store_err(err, errlen, "%s: out of memory", path);
    else
        s->readonly = ro;
    return s;
}

/* Build a complete new database (schema, WAL mode) under a private name
 * beside path, then link it to path: the name appears only complete, and
 * if another process got there first (EEXIST) its file is used and ours
 * removed.  Only the private file is ever deleted. */
static int create_file(const char *path, store_fault *fault, char *err, size_t errlen)
{
    if (!can_create(path, fault, err, errlen))
        return STORE_ERROR;
    *fault = STORE_FAULT_IO;
    char suffix[64], *tmp = NULL;
    int fd = -1;
    for (unsigned k = 0; fd < 0 && k < 100; k++) {
        snprintf(suffix, sizeof suffix, ".new-%ld-%u", (long)getpid(), k);
        free(tmp);
        if (!(tmp = path_with(path, suffix)))
            return store_err(err, errlen, "%s: out of memory", path);
        fd = open(tmp, O_RDWR | O_CREAT | O_EXCL, 0666);
        if (fd < 0 && errno != EEXIST) {
            store_err(err, errlen, "%s: cannot create the file: %s", path, strerror(errno));
            free(tmp);
            return STORE_ERROR;
        }
    }
    if (fd < 0) {
        free(tmp);
        return store_err(err, errlen, "%s: cannot create a private file beside it", path);
    }
    close(fd);
    store *s = handle_new(tmp, false, err, errlen);
    int ret = s ? connect(s, tmp, false, err, errlen) : STORE_ERROR;
    if (ret == STORE_OK)
        ret = check_header(s, true, err, errlen);
    if (ret == STORE_OK)
        ret = set_pragmas(s, err, errlen);
    if (s) {
        if (ret != STORE_OK) /* name the user's file, not the private one */
            store_err(err, errlen, "%s: cannot create the database: %s", path,
                      s->db ? sqlite3_errmsg(s->db) : "out of memory");
        store_close(s);
    }
    if (ret == STORE_OK && link(tmp, path) != 0 && errno != EEXIST) {
        /* A file system without hard links: create the file empty in place
         * (O_EXCL: never someone else's); store_open_fault then gives it the
         * schema inside one write transaction.  A failure later leaves it
         * empty, which the next creator initialises. */
        int e = errno, fd2 = open(path, O_RDWR | O_CREAT | O_EXCL, 0666);
        if (fd2 >= 0)
            close(fd2);
        else if (errno != EEXIST)
            ret = store_err(err, errlen, "%s: cannot create the file: %s (after link: %s)", path,
                            strerror(errno), strerror(e));
    }
    remove_own(tmp);
    free(tmp);
    if (ret == STORE_OK)
        *fault = STORE_FAULT_NONE;
    return ret;
}

store *store_open_fault(const char *path, int flags, store_fault *fault, char *err, size_t errlen)
{
    store_fault local;
    if (!fault)
        fault = &local;
    *fault = STORE_FAULT_INPUT;
    if (!path || !*path) {
        store_err(err, errlen, "database path is empty");
        return NULL;
    }
    bool ro = flags & STORE_READONLY;
    bool create = (flags & STORE_CREATE) && !ro;
    if (!ro) remove_stale(path);
    struct stat sb;
    if (stat(path, &sb) != 0) {
        int e = errno;
        if (e != ENOENT || !create) {
            *fault = fault_of_errno(e);
            store_err(err, errlen, "%s: cannot open%s: %s", path, ro ? " read-only" : "",
                      strerror(e));
            return NULL;
        }
        if (create_file(path, fault, err, errlen) != STORE_OK)
            return NULL;
        *fault = STORE_FAULT_INPUT;
    } else if (S_ISDIR(sb.st_mode)) {
        store_err(err, errlen, "%s: is a directory, not a database file", path);
        return NULL;
    } else if (!S_ISREG(sb.st_mode)) {
        /* /dev/null, a FIFO, a terminal: SQLite's pages need a file. */
        store_err(err, errlen, "%s: is not a regular file, not a database file", path);
        return NULL;
    } else if (!ro && sb.st_size > 0) {
        /* Validate through a read-only connection first: closing a writable
         * one could checkpoint a leftover WAL into a file we must refuse. */
        store *v = store_open_fault(path, STORE_READONLY, fault, err, errlen);
        if (!v)
            return NULL;
        store_close(v);
    }

    store *s = handle_new(path, ro, err, errlen);
    if (!s) {
        *fault = STORE_FAULT_IO;
        return NULL;
    }
    if (connect(s, path, ro, err, errlen) != STORE_OK ||
        check_header(s, create, err, errlen) != STORE_OK || set_pragmas(s, err, errlen) != STORE_OK) {
        *fault = s->fault != STORE_FAULT_NONE ? s->fault : STORE_FAULT_IO;
        store_close(s);
        return NULL;
    }
    *fault = STORE_FAULT_NONE;
    return s;
}

store *store_open(const char *path, int flags, char *err, size_t errlen)
{
    return store_open_fault(path, flags, NULL, err, errlen);
}

store_fault store_last_fault(const store *s)
{
    return s->fault;
}

void store_close(store *s)
{
    if (!s)
        return;
    /* sqlite3_close_v2 rolls back an open transaction; every statement is
     * finalized by the function that prepared it, so it cannot be busy. */
    if (s->db)
        (void)sqlite3_close_v2(s->db);
    free(s->path);
    free(s);
}

const char *store_path(const store *s)
{
    return s->path;
}

int store_quick_check(store *s, char *err, size_t errlen)
{
    static const char *const what = "cannot check the database";
    sqlite3_stmt *st = store_prepare(s, "PRAGMA quick_check(1)", err, errlen, what);
    if (!st)
        return STORE_ERROR;
    int rc = sqlite3_step(st), ret = STORE_OK;
    if (rc != SQLITE_ROW)
        ret = store_sqlerr(s, err, errlen, what);
    else if (!col_text(st, 0) || strcmp(col_text(st, 0), "ok") != 0)
        ret = store_damaged(s, err, errlen, "%s", col_text(st, 0) ? col_text(st, 0) : "quick_check failed");
    sqlite3_finalize(st);
    return ret;
}

/* ---- transactions -------------------------------------------------------- */

int store_begin(store *s, char *err, size_t errlen)
{
    if (!sqlite3_get_autocommit(s->db))
        return store_err(err, errlen, "%s: a transaction is already open", s->path);
    return store_exec(s, "BEGIN IMMEDIATE", err, errlen, "cannot begin a transaction");
}

int store_commit(store *s, char *err, size_t errlen)
{
    if (sqlite3_get_autocommit(s->db))
        return store_err(err, errlen, "%s: commit without a transaction", s->path);
    return store_exec(s, "COMMIT", err, errlen, "cannot commit");
}

int store_rollback(store *s, char *err, size_t errlen)
{
    if (sqlite3_get_autocommit(s->db))
        return store_err(err, errlen, "%s: rollback without a transaction", s->path);
    return store_exec(s, "ROLLBACK", err, errlen, "cannot roll back");
}

/* ---- runs ---------------------------------------------------------------- */

store_run store_run_init(const char *kind)
{
    store_run r;
    memset(&r, 0, sizeof r);
    r.kind = kind;
    r.size = r.slices = r.flits = STORE_NONE;
    r.best_score = r.best_duration = r.best_crc = STORE_NONE;
    r.base_stacking = r.base_nonsplit = STORE_NONE;
    return r;
}

#define NOW_SQL "strftime('%Y-%m-%dT%H:%M:%SZ', 'now')"

static bool valid_status(const char *st)
{
    return st && (!strcmp(st, "unfinished") || !strcmp(st, "finished") || !strcmp(st, "failed"));
}

int store_run_create(store *s, store_run *r, char *err, size_t errlen)
{
    static const char *const what = "cannot create a run";
    if (!r->kind || !*r->kind)
        return store_err(err, errlen, "%s: %s: kind is empty", s->path, what);
    if (r->best_crc != STORE_NONE && (r->best_crc < 0 || r->best_crc > 0xffffffffLL))
        return store_err(err, errlen, "%s: %s: best_crc %lld out of range", s->path, what,
                         (long long)r->best_crc);
    sqlite3_stmt *st = store_prepare(s,
        "INSERT INTO runs (uuid, kind, version, started, status, seed, traffic, size, slices, flits,"
        " genes, algorithm, params, best_score, best_duration, best_crc, base_stacking,"
        " base_nonsplit, parent) VALUES (COALESCE(?1, lower(hex(randomblob(16)))), ?2, ?3,"
        " COALESCE(?4, " NOW_SQL "), 'unfinished', ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14,"
        " ?15, ?16, ?17, ?18) RETURNING id, uuid", err, errlen, what);
    if (!st)
        return STORE_ERROR;
    bool ok = bind_text(st, 1, r->uuid[0] ? r->uuid : NULL) && bind_text(st, 2, r->kind) &&
              bind_text(st, 3, r->version) && bind_text(st, 4, r->started) &&
              bind_i64(st, 5, (int64_t)r->seed) && bind_text(st, 6, r->traffic) &&
              bind_opt(st, 7, r->size) && bind_opt(st, 8, r->slices) && bind_opt(st, 9, r->flits) &&
              bind_text(st, 10, r->genes) && bind_text(st, 11, r->algorithm) &&
              bind_text(st, 12, r->params) && bind_opt(st, 13, r->best_score) &&
              bind_opt(st, 14, r->best_duration) && bind_opt(st, 15, r->best_crc) &&
              bind_opt(st, 16, r->base_stacking) && bind_opt(st, 17, r->base_nonsplit) &&
              bind_opt(st, 18, r->parent > 0 ? r->parent : STORE_NONE);
    if (!ok)
        return bind_failed(s, st, err, errlen, what);
    if (sqlite3_step(st) != SQLITE_ROW) {
        store_sqlerr(s, err, errlen, what);
        sqlite3_finalize(st);
        return STORE_ERROR;
    }
    r->id = sqlite3_column_int64(st, 0);
    const char *u = col_text(st, 1);
    snprintf(r->uuid, sizeof r->uuid, "%s", u ? u : "");
    return step_done(s, st, err, errlen, what);
}

int store_run_set_status(store *s, int64_t run, const char *status, char *err, size_t errlen)
{
    static const char *const what = "cannot set the run status";
    if (!valid_status(status))
        return store_err(err, errlen, "%s: %s: '%s' is not unfinished, finished or failed",
                         s->path, what, status ? status : "(null)");
    sqlite3_stmt *st = store_prepare(s,
        "UPDATE runs SET status = ?1, finished = CASE WHEN ?1 = 'unfinished' THEN NULL ELSE "
        NOW_SQL " END WHERE id = ?2", err, errlen, what);
    if (!st)
        return STORE_ERROR;
    if (!bind_text(st, 1, status) || !bind_i64(st, 2, run))
        return bind_failed(s, st, err, errlen, what);
    return step_update_run(s, st, run, err, errlen, what);
}

int store_run_set_best(store *s, int64_t run, int64_t score, int64_t duration, uint32_t crc,
                       char *err, size_t errlen)
{
    static const char *const what = "cannot record the best";
    sqlite3_stmt *st = store_prepare(s,
        "UPDATE runs SET best_score = ?, best_duration = ?, best_crc = ? WHERE id = ?", err, errlen,
        what);
    if (!st)
        return STORE_ERROR;
    if (!bind_opt(st, 1, score) || !bind_opt(st, 2, duration) || !bind_i64(st, 3, crc) ||
        !bind_i64(st, 4, run))
        return bind_failed(s, st, err, errlen, what);
    return step_update_run(s, st, run, err, errlen, what);
}

int store_run_set_baselines(store *s, int64_t run, int64_t base_stacking, int64_t base_nonsplit,
                            char *err, size_t errlen)
{
    static const char *const what = "cannot record the baselines";
    sqlite3_stmt *st = store_prepare(s,
        "UPDATE runs SET base_stacking = ?, base_nonsplit = ? WHERE id = ?", err, errlen, what);
    if (!st)
        return STORE_ERROR;
    if (!bind_opt(st, 1, base_stacking) || !bind_opt(st, 2, base_nonsplit) || !bind_i64(st, 3, run))
        return bind_failed(s, st, err, errlen, what);
    return step_update_run(s, st, run, err, errlen, what);
}

/* Columns of a run, in the order run_from_row reads them. */
#define RUN_COLS                                                                                   \
    "r.id, r.uuid, r.kind, r.version, r.started, r.finished, r.status, r.seed, r.traffic,"        \
    " r.size, r.slices, r.flits, r.genes, r.algorithm, r.params, r.best_score,"                   \
    " r.best_duration, r.best_crc, r.base_stacking, r.base_nonsplit, r.parent,"                   \
    " (SELECT COUNT(*) FROM chromosomes c WHERE c.run = r.id AND c.score ="                        \
    " (SELECT MIN(b.score) FROM chromosomes b WHERE b.run = r.id))"

static int32_t opt32(int64_t v)
{
    return v < INT32_MIN || v > INT32_MAX ? STORE_NONE : (int32_t)v;
}

/* Strings point into the statement (valid until the next step). */
static void run_from_row(sqlite3_stmt *st, store_run *r)
{
    memset(r, 0, sizeof *r);
    r->id = sqlite3_column_int64(st, 0);
    const char *u = col_text(st, 1);
    snprintf(r->uuid, sizeof r->uuid, "%s", u ? u : "");
    r->kind = col_text(st, 2);
    r->version = col_text(st, 3);
    r->started = col_text(st, 4);
    r->finished = col_text(st, 5);
    r->status = col_text(st, 6);
    r->seed = (uint64_t)sqlite3_column_int64(st, 7);
    r->traffic = col_text(st, 8);
    r->size = opt32(col_opt(st, 9));
    r->slices = opt32(col_opt(st, 10));
    r->flits = opt32(col_opt(st, 11));
    r->genes = col_text(st, 12);
    r->algorithm = col_text(st, 13);
    r->params = col_text(st, 14);
    r->best_score = col_opt(st, 15);
    r->best_duration = col_opt(st, 16);
    r->best_crc = col_opt(st, 17);
    r->base_stacking = col_opt(st, 18);
    r->base_nonsplit = col_opt(st, 19);
    int64_t parent = col_opt(st, 20);
    r->parent = parent == STORE_NONE ? 0 : parent;
    r->synonyms = sqlite3_column_int64(st, 21);
}

/* Copy every string of r into one block owned by r. */
static bool run_own_strings(store_run *r)
{
    const char **f[] = {&r->kind, &r->version, &r->started, &r->finished, &r->status,
                        &r->traffic, &r->genes, &r->algorithm, &r->params};
    size_t n = sizeof f / sizeof *f, total = 1;
    for (size_t i = 0; i < n; i++)
        total += *f[i] ? strlen(*f[i]) + 1 : 0;
    char *buf = malloc(total), *p = buf;
    if (!buf)
        return false;
    for (size_t i = 0; i < n; i++) {
        if (!*f[i])
            continue;
        size_t len = strlen(*f[i]) + 1;
        memcpy(p, *f[i], len);
        *f[i] = p;
        p += len;
    }
    r->priv_ = buf;
    return true;
}

void store_run_clear(store_run *r)
{
    if (!r)
        return;
    free(r->priv_);
    memset(r, 0, sizeof *r);
}

static int run_one(store *s, sqlite3_stmt *st, void *out, char *err, size_t errlen)
{
    run_from_row(st, out);
    if (run_own_strings(out))
        return STORE_OK;
    memset(out, 0, sizeof(store_run));
    return store_err(err, errlen, "%s: out of memory", s->path);
}

int store_run_get(store *s, int64_t run, store_run *out, char *err, size_t errlen)
{
    static const char *const what = "cannot read a run";
    memset(out, 0, sizeof *out);
    char nf[48];
    snprintf(nf, sizeof nf, "no run %lld", (long long)run);
    return one_row(s, prepare_key(s, "SELECT " RUN_COLS " FROM runs r WHERE r.id = ?", run, err,
                                  errlen, what),
                   run_one, out, err, errlen, what, nf);
}

static int id_one(store *s, sqlite3_stmt *st, void *out, char *err, size_t errlen)
{
    (void)s, (void)err, (void)errlen;
    *(int64_t *)out = sqlite3_column_int64(st, 0);
    return STORE_OK;
}

int store_run_find_uuid(store *s, const char *uuid, int64_t *run, char *err, size_t errlen)
{
    static const char *const what = "cannot look up a run";
    sqlite3_stmt *st = store_prepare(s, "SELECT id FROM runs WHERE uuid = ?", err, errlen, what);
    if (st && !bind_text(st, 1, uuid))
        return bind_failed(s, st, err, errlen, what);
    char nf[64];
    snprintf(nf, sizeof nf, "no run with uuid %.40s", uuid ? uuid : "");
    return one_row(s, st, id_one, run, err, errlen, what, nf);
}

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

static int each_row(store *s, sqlite3_stmt *st, row_fn fn, const struct cbs *cb, char *err,
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

static int run_row(store *s, sqlite3_stmt *st, const struct cbs *cb, char *err, size_t errlen)
{
    (void)s, (void)err, (void)errlen;
    store_run r;
    run_from_row(st, &r);
    return cb->run(&r, cb->ctx) ? 1 : 0;
}

static int runs_query(store *s, const char *sql, const store_run_filter *f, store_run_cb cb,
                      void *ctx, char *err, size_t errlen)
{
    static const char *const what = "cannot list runs";
    sqlite3_stmt *st = store_prepare(s, sql, err, errlen, what);
    if (!st)
        return STORE_ERROR;
    if (!bind_text(st, 1, f ? f->traffic : NULL) ||
        !bind_opt(st, 2, f && f->slices > 0 ? f->slices : STORE_NONE) ||
        !bind_text(st, 3, f ? f->kind : NULL))
        return bind_failed(s, st, err, errlen, what);
    struct cbs c = {.run = cb, .ctx = ctx};
    return each_row(s, st, run_row, &c, err, errlen, what);
}

#define RUN_FILTER_SQL(r)                                                                          \
    "(?1 IS NULL OR " r ".traffic = ?1) AND (?2 IS NULL OR " r ".slices = ?2) AND "               \
    "(?3 IS NULL OR " r ".kind = ?3)"

int store_runs_list(store *s, const store_run_filter *f, store_run_cb cb, void *ctx, char *err,
                    size_t errlen)
{
    return runs_query(s, "SELECT " RUN_COLS " FROM runs r WHERE " RUN_FILTER_SQL("r")
                      " ORDER BY r.id", f, cb, ctx, err, errlen);
}

int store_runs_best(store *s, const store_run_filter *f, store_run_cb cb, void *ctx, char *err,
                    size_t errlen)
{
    return runs_query(s,
        "SELECT " RUN_COLS " FROM runs r WHERE r.best_duration IS NOT NULL AND "
        RUN_FILTER_SQL("r") " AND r.id = (SELECT r2.id FROM runs r2 WHERE"
        " r2.best_duration IS NOT NULL AND r2.traffic IS r.traffic AND r2.size IS r.size AND"
        " json_extract(r2.params, '$.height') IS json_extract(r.params, '$.height') AND"   /* a rectangle's */
        " r2.slices IS r.slices AND r2.flits IS r.flits AND"
        " (r.traffic IS NOT 'randperm' OR r2.seed IS r.seed) AND " RUN_FILTER_SQL("r2")
        " ORDER BY r2.best_duration, r2.id LIMIT 1)"
        " ORDER BY r.traffic, r.size, r.slices, r.flits, r.seed", f, cb, ctx, err, errlen);
}

/* ---- generations --------------------------------------------------------- */

int store_gen_add(store *s, const store_gen *g, char *err, size_t errlen)
{
    static const char *const what = "cannot record a generation";
    sqlite3_stmt *st = store_prepare(s,
        "INSERT OR REPLACE INTO generations (run, generation, best, average, evaluations, elapsed)"
        " VALUES (?, ?, ?, ?, ?, ?)", err, errlen, what);
    if (!st)
        return STORE_ERROR;
    if (!bind_i64(st, 1, g->run) || !bind_i64(st, 2, g->generation) || !bind_i64(st, 3, g->best) ||
        sqlite3_bind_double(st, 4, g->average) != SQLITE_OK || !bind_i64(st, 5, g->evaluations) ||
        sqlite3_bind_double(st, 6, g->elapsed) != SQLITE_OK)
        return bind_failed(s, st, err, errlen, what);
    return step_done(s, st, err, errlen, what);
}

static int gen_row(store *s, sqlite3_stmt *st, const struct cbs *cb, char *err, size_t errlen)
{
    (void)s, (void)err, (void)errlen;
    store_gen g = {
        .run = sqlite3_column_int64(st, 0), .generation = sqlite3_column_int64(st, 1),
        .best = sqlite3_column_int64(st, 2), .average = sqlite3_column_double(st, 3),
        .evaluations = sqlite3_column_int64(st, 4), .elapsed = sqlite3_column_double(st, 5)};
    return cb->gen(&g, cb->ctx) ? 1 : 0;
}

int store_gen_list(store *s, int64_t run, store_gen_cb cb, void *ctx, char *err, size_t errlen)
{
    static const char *const what = "cannot list generations";
    sqlite3_stmt *st = prepare_key(s,
        "SELECT run, generation, best, average, evaluations, elapsed FROM generations"
        " WHERE run = ? ORDER BY generation", run, err, errlen, what);
    if (!st)
        return STORE_ERROR;
    struct cbs c = {.gen = cb, .ctx = ctx};
    return each_row(s, st, gen_row, &c, err, errlen, what);
}

/* ---- chromosomes --------------------------------------------------------- */

int store_chrom_add(store *s, const store_chrom *c, int64_t *id, char *err, size_t errlen)
{
    static const char *const what = "cannot record a chromosome";
    if (c->genes_len && !c->genes)
        return store_err(err, errlen, "%s: %s: genes missing", s->path, what);
    uint8_t *z = NULL;
    size_t zn = 0;
    if (zip(s, c->genes, c->genes_len, &z, &zn, err, errlen) != STORE_OK)
        return STORE_ERROR;
    sqlite3_stmt *st = store_prepare(s,
        "INSERT INTO chromosomes (run, generation, crc, score, duration, t_d, t_e, ir, or_, ib, ob,"
        " lb, is_synonym, genes_len, genes) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        err, errlen, what);
    if (!st) {
        free(z);
        return STORE_ERROR;
    }
    bool ok = bind_i64(st, 1, c->run) && bind_i64(st, 2, c->generation) && bind_i64(st, 3, c->crc) &&
              bind_i64(st, 4, c->score) && bind_i64(st, 5, c->duration) && bind_i64(st, 6, c->t_d) &&
              bind_i64(st, 7, c->t_e) && bind_i64(st, 8, c->ir) && bind_i64(st, 9, c->or_) &&
              bind_i64(st, 10, c->ib) && bind_i64(st, 11, c->ob) && bind_i64(st, 12, c->lb) &&
              bind_i64(st, 13, c->is_synonym ? 1 : 0) && bind_i64(st, 14, (int64_t)c->genes_len) &&
              bind_blob(st, 15, z, zn);
    free(z);
    if (!ok)
        return bind_failed(s, st, err, errlen, what);
    int rc = sqlite3_step(st), ret = STORE_OK;
    if (rc == SQLITE_DONE) {
        if (id)
            *id = sqlite3_last_insert_rowid(s->db);
    } else if (sqlite3_extended_errcode(s->db) == SQLITE_CONSTRAINT_UNIQUE) {
        store_err(err, errlen, "%s: run %lld already has a chromosome with CRC %08x", s->path,
                  (long long)c->run, (unsigned)c->crc);
        ret = STORE_EXISTS;
    } else {
        ret = store_sqlerr(s, err, errlen, what);
    }
    sqlite3_finalize(st);
    return ret;
}

#define CHROM_COLS                                                                                 \
    "c.id, c.run, c.generation, c.crc, c.score, c.duration, c.t_d, c.t_e, c.ir, c.or_, c.ib,"     \
    " c.ob, c.lb, c.is_synonym, c.genes_len, c.genes"

/* Fill c from a row; with genes, c->priv_ holds the decompressed genes. */
static int chrom_from_row(store *s, sqlite3_stmt *st, store_chrom *c, bool genes, char *err,
                          size_t errlen)
{
    memset(c, 0, sizeof *c);
    c->id = sqlite3_column_int64(st, 0);
    c->run = sqlite3_column_int64(st, 1);
    c->generation = sqlite3_column_int64(st, 2);
    c->crc = (uint32_t)sqlite3_column_int64(st, 3);
    c->score = sqlite3_column_int64(st, 4);
    c->duration = sqlite3_column_int64(st, 5);
    c->t_d = sqlite3_column_int64(st, 6);
    c->t_e = sqlite3_column_int64(st, 7);
    c->ir = sqlite3_column_int64(st, 8);
    c->or_ = sqlite3_column_int64(st, 9);
    c->ib = sqlite3_column_int64(st, 10);
    c->ob = sqlite3_column_int64(st, 11);
    c->lb = sqlite3_column_int64(st, 12);
    c->is_synonym = sqlite3_column_int64(st, 13) != 0;
    int64_t n = sqlite3_column_int64(st, 14);
    c->genes_len = n > 0 ? (size_t)n : 0;
    if (!genes)
        return STORE_OK;
    const void *z = sqlite3_column_blob(st, 15);
    int zn = sqlite3_column_bytes(st, 15);
    uint8_t *out = NULL;
    if (unzip(s, z, zn > 0 ? (size_t)zn : 0, c->genes_len, &out, err, errlen, "chromosome", c->id)
        != STORE_OK)
        return STORE_ERROR;
    /* The signature exists to catch changed genes: check it on every read. */
    uint32_t crc = (uint32_t)crc32(crc32(0L, Z_NULL, 0), out, (uInt)c->genes_len);
    if (crc != c->crc) {
        free(out);
        return store_damaged(s, err, errlen, "chromosome %lld: its genes give signature %08x, the record says %08x",
                             (long long)c->id, crc, c->crc);
    }
    c->genes = out;
    c->priv_ = out;
    return STORE_OK;
}

void store_chrom_clear(store_chrom *c)
{
    if (!c)
        return;
    free(c->priv_);
    memset(c, 0, sizeof *c);
}

static int chrom_one(store *s, sqlite3_stmt *st, void *out, char *err, size_t errlen)
{
    return chrom_from_row(s, st, out, true, err, errlen);
}

int store_chrom_get(store *s, int64_t id, store_chrom *out, char *err, size_t errlen)
{
    static const char *const what = "cannot read a chromosome";
    memset(out, 0, sizeof *out);
    char nf[64];
    snprintf(nf, sizeof nf, "no chromosome %lld", (long long)id);
    return one_row(s, prepare_key(s, "SELECT " CHROM_COLS " FROM chromosomes c WHERE c.id = ?", id,
                                  err, errlen, what),
                   chrom_one, out, err, errlen, what, nf);
}

int store_chrom_find_crc(store *s, int64_t run, uint32_t crc, store_chrom *out, char *err,
                         size_t errlen)
{
    static const char *const what = "cannot look up a chromosome";
    memset(out, 0, sizeof *out);
    sqlite3_stmt *st = store_prepare(s,
        "SELECT " CHROM_COLS " FROM chromosomes c WHERE c.crc = ?1 AND (?2 = 0 OR c.run = ?2)"
        " ORDER BY c.id LIMIT 1", err, errlen, what);
    if (st && (!bind_i64(st, 1, crc) || !bind_i64(st, 2, run)))
        return bind_failed(s, st, err, errlen, what);
    char nf[96];
    if (run)
        snprintf(nf, sizeof nf, "no chromosome with CRC %08x in run %lld", (unsigned)crc,
                 (long long)run);
    else
        snprintf(nf, sizeof nf, "no chromosome with CRC %08x", (unsigned)crc);
    return one_row(s, st, chrom_one, out, err, errlen, what, nf);
}

int store_chrom_has_crc(store *s, int64_t run, uint32_t crc, char *err, size_t errlen)
{
    static const char *const what = "cannot look up a CRC";
    sqlite3_stmt *st = store_prepare(s,
        "SELECT 1 FROM chromosomes WHERE run = ? AND crc = ?", err, errlen, what);
    if (!st)
        return STORE_ERROR;
    if (!bind_i64(st, 1, run) || !bind_i64(st, 2, crc))
        return bind_failed(s, st, err, errlen, what);
    int rc = sqlite3_step(st), ret;
    if (rc == SQLITE_ROW)
        ret = 1;
    else if (rc == SQLITE_DONE)
        ret = 0;
    else
        ret = store_sqlerr(s, err, errlen, what);
    sqlite3_finalize(st);
    return ret;
}

/* Build and bind the SELECT of a chromosome query. */
static sqlite3_stmt *chrom_query(store *s, const store_chrom_query *q, bool count, char *err,
                                 size_t errlen, const char *what)
{
    char order[64] = "c.id";
    if (!count && q->order_by && *q->order_by) {
        char term[48];
        if (store_order_parse(q->order_by, term, sizeof term, err, errlen) != STORE_OK)
            return NULL;
        snprintf(order, sizeof order, "%s, c.id", term);
    }
    const char *where = q->where ? store_filter_sql(q->where) : NULL;
    size_t n = (where ? strlen(where) : 0) + 512;
    char *sql = malloc(n);
    if (!sql) {
        store_err(err, errlen, "%s: out of memory", s->path);
        return NULL;
    }
    snprintf(sql, n, "SELECT %s FROM chromosomes c WHERE c.run = ?%s%s%s%s%s",
             count ? "COUNT(*)" : CHROM_COLS,
             q->synonyms_only ? " AND c.score = (SELECT MIN(b.score) FROM chromosomes b"
                                " WHERE b.run = ?)" : "",
             where ? " AND " : "", where ? where : "",
             count ? "" : " ORDER BY ", count ? "" : order);
    if (!count && q->limit > 0)
        strcat(sql, " LIMIT ?");
    sqlite3_stmt *st = store_prepare(s, sql, err, errlen, what);
    free(sql);
    if (!st)
        return NULL;
    int i = 1;
    bool ok = bind_i64(st, i++, q->run);
    if (q->synonyms_only)
        ok = ok && bind_i64(st, i++, q->run);
    for (int k = 0; where && k < store_filter_nbinds(q->where); k++)
        ok = ok && bind_i64(st, i++, store_filter_bind(q->where, k));
    if (!count && q->limit > 0)
        ok = ok && bind_i64(st, i++, q->limit);
    if (!ok) {
        bind_failed(s, st, err, errlen, what);
        return NULL;
    }
    return st;
}

static int chrom_row(store *s, sqlite3_stmt *st, const struct cbs *cb, char *err, size_t errlen)
{
    store_chrom c;
    if (chrom_from_row(s, st, &c, cb->genes, err, errlen) != STORE_OK)
        return STORE_ERROR;
    int r = cb->chrom(&c, cb->ctx);
    store_chrom_clear(&c);
    return r ? 1 : 0;
}

int store_chrom_list(store *s, const store_chrom_query *q, store_chrom_cb cb, void *ctx,
                     char *err, size_t errlen)
{
    static const char *const what = "cannot list chromosomes";
    sqlite3_stmt *st = chrom_query(s, q, false, err, errlen, what);
    if (!st)
        return STORE_ERROR;
    struct cbs c = {.chrom = cb, .ctx = ctx, .genes = q->with_genes};
    return each_row(s, st, chrom_row, &c, err, errlen, what);
}

int store_chrom_count(store *s, const store_chrom_query *q, int64_t *n, char *err, size_t errlen)
{
    static const char *const what = "cannot count chromosomes";
    sqlite3_stmt *st = chrom_query(s, q, true, err, errlen, what);
    if (!st)
        return STORE_ERROR;
    int ret = STORE_OK;
    if (sqlite3_step(st) == SQLITE_ROW)
        *n = sqlite3_column_int64(st, 0);
    else
        ret = store_sqlerr(s, err, errlen, what);
    sqlite3_finalize(st);
    return ret;
}

/* ---- checkpoints --------------------------------------------------------- */

int store_checkpoint_put(store *s, int64_t run, int64_t generation, const void *data, size_t len,
                         char *err, size_t errlen)
{
    static const char *const what = "cannot write the checkpoint";
    uint8_t *z = NULL;
    size_t zn = 0;
    if (zip(s, data, len, &z, &zn, err, errlen) != STORE_OK)
        return STORE_ERROR;
    sqlite3_stmt *st = store_prepare(s,
        "INSERT OR REPLACE INTO checkpoints (run, generation, updated, data_len, data)"
        " VALUES (?, ?, " NOW_SQL ", ?, ?)", err, errlen, what);
    if (!st) {
        free(z);
        return STORE_ERROR;
    }
    bool ok = bind_i64(st, 1, run) && bind_i64(st, 2, generation) &&
              bind_i64(st, 3, (int64_t)len) && bind_blob(st, 4, z, zn);
    free(z);
    if (!ok)
        return bind_failed(s, st, err, errlen, what);
    return step_done(s, st, err, errlen, what);
}

struct checkpoint_out {
    int64_t run, *generation;
    uint8_t **data;
    size_t *len;
};

static int checkpoint_one(store *s, sqlite3_stmt *st, void *out, char *err, size_t errlen)
{
    struct checkpoint_out *o = out;
    int64_t n = sqlite3_column_int64(st, 1);
    const void *z = sqlite3_column_blob(st, 2);
    int zn = sqlite3_column_bytes(st, 2);
    size_t un = n > 0 ? (size_t)n : 0;
    if (unzip(s, z, zn > 0 ? (size_t)zn : 0, un, o->data, err, errlen, "checkpoint of run", o->run)
        != STORE_OK)
        return STORE_ERROR;
    *o->len = un;
    if (o->generation)
        *o->generation = sqlite3_column_int64(st, 0);
    return STORE_OK;
}

int store_checkpoint_get(store *s, int64_t run, int64_t *generation, uint8_t **data, size_t *len,
                         char *err, size_t errlen)
{
    static const char *const what = "cannot read the checkpoint";
    *data = NULL;
    *len = 0;
    struct checkpoint_out o = {run, generation, data, len};
    char nf[64];
    snprintf(nf, sizeof nf, "run %lld has no checkpoint", (long long)run);
    return one_row(s, prepare_key(s, "SELECT generation, data_len, data FROM checkpoints WHERE run = ?",
                                  run, err, errlen, what),
                   checkpoint_one, &o, err, errlen, what, nf);
}

/* ---- cc schedules -------------------------------------------------------- */

int store_cc_add(store *s, const store_cc *c, int64_t *id, char *err, size_t errlen)
{
    static const char *const what = "cannot record a schedule";
    sqlite3_stmt *st = store_prepare(s,
        "INSERT INTO cc_schedules (run, steps, bound, schedule) VALUES (?, ?, ?, ?)", err, errlen,
        what);
    if (!st)
        return STORE_ERROR;
    if (!bind_i64(st, 1, c->run) || !bind_i64(st, 2, c->steps) || !bind_opt(st, 3, c->bound) ||
        !bind_text(st, 4, c->schedule))
        return bind_failed(s, st, err, errlen, what);
    if (step_done(s, st, err, errlen, what) != STORE_OK)
        return STORE_ERROR;
    if (id)
        *id = sqlite3_last_insert_rowid(s->db);
    return STORE_OK;
}

static void cc_from_row(sqlite3_stmt *st, store_cc *c)
{
    memset(c, 0, sizeof *c);
    c->id = sqlite3_column_int64(st, 0);
    c->run = sqlite3_column_int64(st, 1);
    c->steps = sqlite3_column_int64(st, 2);
    c->bound = col_opt(st, 3);
    c->schedule = col_text(st, 4);
}

#define CC_COLS "id, run, steps, bound, schedule"

static int cc_one(store *s, sqlite3_stmt *st, void *out, char *err, size_t errlen)
{
    store_cc *c = out;
    cc_from_row(st, c);
    char *copy = strdup(c->schedule ? c->schedule : "");
    if (!copy) {
        memset(c, 0, sizeof *c);
        return store_err(err, errlen, "%s: out of memory", s->path);
    }
    c->schedule = copy;
    c->priv_ = copy;
    return STORE_OK;
}

int store_cc_get(store *s, int64_t id, store_cc *out, char *err, size_t errlen)
{
    static const char *const what = "cannot read a schedule";
    memset(out, 0, sizeof *out);
    char nf[48];
    snprintf(nf, sizeof nf, "no schedule %lld", (long long)id);
    return one_row(s, prepare_key(s, "SELECT " CC_COLS " FROM cc_schedules WHERE id = ?", id, err,
                                  errlen, what),
                   cc_one, out, err, errlen, what, nf);
}

void store_cc_clear(store_cc *c)
{
    if (!c)
        return;
    free(c->priv_);
    memset(c, 0, sizeof *c);
}

static int cc_row(store *s, sqlite3_stmt *st, const struct cbs *cb, char *err, size_t errlen)
{
    (void)s, (void)err, (void)errlen;
    store_cc c;
    cc_from_row(st, &c);
    return cb->cc(&c, cb->ctx) ? 1 : 0;
}

int store_cc_list(store *s, int64_t run, store_cc_cb cb, void *ctx, char *err, size_t errlen)
{
    static const char *const what = "cannot list schedules";
    sqlite3_stmt *st = prepare_key(s,
        "SELECT " CC_COLS " FROM cc_schedules WHERE run = ? ORDER BY id", run, err, errlen, what);
    if (!st)
        return STORE_ERROR;
    struct cbs c = {.cc = cb, .ctx = ctx};
    return each_row(s, st, cc_row, &c, err, errlen, what);
}
