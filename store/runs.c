/* Runs and their generations: creating a run, setting its status, best
 * and baselines, reading and listing runs (the best run per pattern
 * included), and the per-generation statistics of a GA run.  A run's
 * parent is set in lineage.c, its chromosomes are in chroms.c. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/store_internal.h"

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
        return store_bind_failed(s, st, err, errlen, what);
    if (sqlite3_step(st) != SQLITE_ROW) {
        store_sqlerr(s, err, errlen, what);
        sqlite3_finalize(st);
        return STORE_ERROR;
    }
    r->id = sqlite3_column_int64(st, 0);
    const char *u = col_text(st, 1);
    snprintf(r->uuid, sizeof r->uuid, "%s", u ? u : "");
    return store_step_done(s, st, err, errlen, what);
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
        return store_bind_failed(s, st, err, errlen, what);
    return store_step_update_run(s, st, run, err, errlen, what);
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
        return store_bind_failed(s, st, err, errlen, what);
    return store_step_update_run(s, st, run, err, errlen, what);
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
        return store_bind_failed(s, st, err, errlen, what);
    return store_step_update_run(s, st, run, err, errlen, what);
}

int store_run_patch_params(store *s, int64_t run, const char *patch, char *err, size_t errlen)
{
    static const char *const what = "cannot record the run's parameters";
    sqlite3_stmt *st = store_prepare(s,
        "UPDATE runs SET params = json_patch(COALESCE(params, '{}'), json(?)) WHERE id = ?", err, errlen, what);
    if (!st)
        return STORE_ERROR;
    if (sqlite3_bind_text(st, 1, patch, -1, SQLITE_TRANSIENT) != SQLITE_OK || !bind_i64(st, 2, run))
        return store_bind_failed(s, st, err, errlen, what);
    return store_step_update_run(s, st, run, err, errlen, what);
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
    return store_one_row(s, store_prepare_key(s, "SELECT " RUN_COLS " FROM runs r WHERE r.id = ?", run, err,
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
        return store_bind_failed(s, st, err, errlen, what);
    char nf[64];
    snprintf(nf, sizeof nf, "no run with uuid %.40s", uuid ? uuid : "");
    return store_one_row(s, st, id_one, run, err, errlen, what, nf);
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
        return store_bind_failed(s, st, err, errlen, what);
    struct cbs c = {.run = cb, .ctx = ctx};
    return store_each_row(s, st, run_row, &c, err, errlen, what);
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
        /* a mesh's, and its VC rule (runs from before meshes are tori under datelines) */
        " COALESCE(json_extract(r2.params, '$.topology'), 'torus') IS COALESCE(json_extract(r.params, '$.topology'), 'torus') AND"
        " COALESCE(json_extract(r2.params, '$.vc_rule'), 'dateline') IS COALESCE(json_extract(r.params, '$.vc_rule'), 'dateline') AND"
        /* its routing function and selection (runs without them route by dor) */
        " COALESCE(json_extract(r2.params, '$.routing'), 'dor') IS COALESCE(json_extract(r.params, '$.routing'), 'dor') AND"
        " COALESCE(json_extract(r2.params, '$.selection'), 'credits') IS COALESCE(json_extract(r.params, '$.selection'), 'credits') AND"
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
        return store_bind_failed(s, st, err, errlen, what);
    return store_step_done(s, st, err, errlen, what);
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
    sqlite3_stmt *st = store_prepare_key(s,
              "SELECT run, generation, best, average, evaluations, elapsed FROM generations"
              " WHERE run = ? ORDER BY generation", run, err, errlen, what);
    if (!st)
        return STORE_ERROR;
    struct cbs c = {.gen = cb, .ctx = ctx};
    return store_each_row(s, st, gen_row, &c, err, errlen, what);
}
