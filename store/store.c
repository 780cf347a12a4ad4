/* The handle: opening a nocsim database safely (race-free creation under a
 * private name, stale creation files removed, anything that is not our
 * database of a readable version refused with a fault kind, version 1
 * migrated), the connection's pragmas, closing, the integrity check and
 * transactions.  The rest of store/: sql.c (helpers), runs.c, chroms.c,
 * checkpoints.c, schedules.c, lineage.c, load.c (the tables), filter.c (the
 * --where language), merge.c, schema.c. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "store/store_internal.h"

#define BUSY_TIMEOUT_MS 10000

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
