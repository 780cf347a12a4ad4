/* Open-loop curves in the database: one load_points row per point of a run
 * of kind 'load' (see store.h). */
#include <stdio.h>

#include "store/store_internal.h"

int store_load_add(store *s, int64_t run, const store_load_point *p, char *err, size_t errlen)
{
    sqlite3_stmt *st = store_prepare(s,
        "INSERT INTO load_points (run, rate, offered, accepted, latency, ci95, network_latency, p50, p99, max, "
        "hops, tagged, tagged_done, warmup_cycles, drain_cycles, cycles, steady, saturated) "
        "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18)",
        err, errlen, "cannot record a load point");
    if (!st) return STORE_ERROR;
    const double d[] = { p->rate, p->offered, p->accepted, p->latency, p->ci95, p->network_latency };
    const int64_t i[] = { p->p50, p->p99, p->max };
    const int64_t j[] = { p->tagged, p->tagged_done, p->warmup_cycles, p->drain_cycles, p->cycles, p->steady,
                          p->saturated };
    int rc = sqlite3_bind_int64(st, 1, run);
    for (int k = 0; k < 6 && rc == SQLITE_OK; k++) rc = sqlite3_bind_double(st, 2 + k, d[k]);
    for (int k = 0; k < 3 && rc == SQLITE_OK; k++) rc = sqlite3_bind_int64(st, 8 + k, i[k]);
    if (rc == SQLITE_OK) rc = sqlite3_bind_double(st, 11, p->hops);
    for (int k = 0; k < 7 && rc == SQLITE_OK; k++) rc = sqlite3_bind_int64(st, 12 + k, j[k]);
    if (rc == SQLITE_OK) rc = sqlite3_step(st);
    int ret = STORE_OK;
    int ext = sqlite3_extended_errcode(s->db);
    if ((rc & 0xff) == SQLITE_CONSTRAINT && (ext == SQLITE_CONSTRAINT_PRIMARYKEY || ext == SQLITE_CONSTRAINT_UNIQUE))
        ret = STORE_EXISTS;
    else if (rc != SQLITE_DONE)
        ret = store_sqlerr(s, err, errlen, "cannot record a load point");
    sqlite3_finalize(st);
    return ret;
}

/* Does the file have the table (a version-1 file opened read-only has not)? */
static int has_table(store *s, int *yes, char *err, size_t errlen)
{
    sqlite3_stmt *st = store_prepare(s, "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = 'load_points'",
                                     err, errlen, "cannot read the database");
    if (!st) return STORE_ERROR;
    int rc = sqlite3_step(st);
    *yes = rc == SQLITE_ROW && sqlite3_column_int(st, 0) > 0;
    sqlite3_finalize(st);
    return rc == SQLITE_ROW ? STORE_OK : store_sqlerr(s, err, errlen, "cannot read the database");
}

int store_load_list(store *s, int64_t run, store_load_cb cb, void *ctx, char *err, size_t errlen)
{
    int yes;
    if (has_table(s, &yes, err, errlen) != STORE_OK) return STORE_ERROR;
    if (!yes) return STORE_OK;
    sqlite3_stmt *st = store_prepare(s,
        "SELECT rate, offered, accepted, latency, ci95, network_latency, p50, p99, max, hops, tagged, tagged_done, "
        "warmup_cycles, drain_cycles, cycles, steady, saturated FROM load_points WHERE run = ?1 ORDER BY rate",
        err, errlen, "cannot read load points");
    if (!st) return STORE_ERROR;
    int rc = sqlite3_bind_int64(st, 1, run);
    if (rc == SQLITE_OK) rc = SQLITE_ROW;
    while (rc == SQLITE_ROW && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        store_load_point p = {
            .rate = sqlite3_column_double(st, 0), .offered = sqlite3_column_double(st, 1),
            .accepted = sqlite3_column_double(st, 2), .latency = sqlite3_column_double(st, 3),
            .ci95 = sqlite3_column_double(st, 4), .network_latency = sqlite3_column_double(st, 5),
            .p50 = sqlite3_column_int64(st, 6), .p99 = sqlite3_column_int64(st, 7), .max = sqlite3_column_int64(st, 8),
            .hops = sqlite3_column_double(st, 9), .tagged = sqlite3_column_int64(st, 10),
            .tagged_done = sqlite3_column_int64(st, 11), .warmup_cycles = sqlite3_column_int64(st, 12),
            .drain_cycles = sqlite3_column_int64(st, 13), .cycles = sqlite3_column_int64(st, 14),
            .steady = sqlite3_column_int(st, 15), .saturated = sqlite3_column_int(st, 16),
        };
        if (cb(&p, ctx)) { rc = SQLITE_DONE; break; }
    }
    int ret = rc == SQLITE_DONE ? STORE_OK : store_sqlerr(s, err, errlen, "cannot read load points");
    sqlite3_finalize(st);
    return ret;
}

int store_load_trim(store *s, int64_t run, double rate, int64_t *removed, char *err, size_t errlen)
{
    sqlite3_stmt *st = store_prepare(s, "DELETE FROM load_points WHERE run = ?1 AND rate > ?2", err, errlen,
                                     "cannot remove load points");
    if (!st) return STORE_ERROR;
    int rc = sqlite3_bind_int64(st, 1, run);
    if (rc == SQLITE_OK) rc = sqlite3_bind_double(st, 2, rate);
    if (rc == SQLITE_OK) rc = sqlite3_step(st);
    int ret = rc == SQLITE_DONE ? STORE_OK : store_sqlerr(s, err, errlen, "cannot remove load points");
    if (ret == STORE_OK && removed) *removed = sqlite3_changes(s->db);
    sqlite3_finalize(st);
    return ret;
}
