/* Collective-communication schedules (nocsim cc --db): a run's schedules
 * as JSON text with their step counts and bounds. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/store_internal.h"

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
        return store_bind_failed(s, st, err, errlen, what);
    if (store_step_done(s, st, err, errlen, what) != STORE_OK)
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
    return store_one_row(s, store_prepare_key(s, "SELECT " CC_COLS " FROM cc_schedules WHERE id = ?", id, err,
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
    sqlite3_stmt *st = store_prepare_key(s,
              "SELECT " CC_COLS " FROM cc_schedules WHERE run = ? ORDER BY id", run, err, errlen, what);
    if (!st)
        return STORE_ERROR;
    struct cbs c = {.cc = cb, .ctx = ctx};
    return store_each_row(s, st, cc_row, &c, err, errlen, what);
}
