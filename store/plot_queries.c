/* Run groups for the best-against-average figure (see plot_queries.h).  The
 * grouping is SQL (SQLite's json_remove drops the seeds), so a database of
 * thousands of runs is read once. */
#include "store/plot_queries.h"
#include "store/store_internal.h"

int store_run_groups(store *s, const store_run_filter *f, store_run_group_cb cb, void *ctx,
                     char *err, size_t errlen)
{
    static const char *const what = "cannot group runs";
    sqlite3_stmt *st = store_prepare(s,
        "SELECT traffic, size, slices, flits, count(*), min(id), avg(best_duration), min(best_duration)"
        " FROM runs WHERE best_duration IS NOT NULL AND (?1 IS NULL OR traffic = ?1)"
        " AND (?2 IS NULL OR slices = ?2) AND (?3 IS NULL OR kind = ?3)"
        " GROUP BY traffic, size, slices, flits, CASE WHEN traffic = 'randperm' THEN seed END,"
        " CASE WHEN json_valid(params) THEN json_remove(params, '$.seed', '$.ga_seed') ELSE params END"
        " ORDER BY traffic, size, slices, flits, min(id)", err, errlen, what);
    if (!st) return STORE_ERROR;
    int ok = (f && f->traffic ? sqlite3_bind_text(st, 1, f->traffic, -1, SQLITE_TRANSIENT) : sqlite3_bind_null(st, 1)) == SQLITE_OK
          && (f && f->slices ? sqlite3_bind_int(st, 2, f->slices) : sqlite3_bind_null(st, 2)) == SQLITE_OK
          && (f && f->kind ? sqlite3_bind_text(st, 3, f->kind, -1, SQLITE_TRANSIENT) : sqlite3_bind_null(st, 3)) == SQLITE_OK;
    if (!ok) {
        store_sqlerr(s, err, errlen, what);
        sqlite3_finalize(st);
        return STORE_ERROR;
    }
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        const unsigned char *t = sqlite3_column_text(st, 0);
        store_run_group g = {
            .traffic = t ? (const char *)t : "",
            .size = sqlite3_column_type(st, 1) == SQLITE_NULL ? STORE_NONE : sqlite3_column_int(st, 1),
            .slices = sqlite3_column_type(st, 2) == SQLITE_NULL ? STORE_NONE : sqlite3_column_int(st, 2),
            .flits = sqlite3_column_type(st, 3) == SQLITE_NULL ? STORE_NONE : sqlite3_column_int(st, 3),
            .runs = sqlite3_column_int64(st, 4), .first_run = sqlite3_column_int64(st, 5),
            .mean_best = sqlite3_column_double(st, 6), .min_best = sqlite3_column_int64(st, 7)};
        if (cb(&g, ctx)) { rc = SQLITE_DONE; break; }
    }
    if (rc != SQLITE_DONE) {
        store_sqlerr(s, err, errlen, what);
        sqlite3_finalize(st);
        return STORE_ERROR;
    }
    sqlite3_finalize(st);
    return STORE_OK;
}
