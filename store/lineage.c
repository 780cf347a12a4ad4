/* Re-parenting a run: used when a run recorded in a scratch database is
 * adopted by a sweep (sweep/), whose record is the new parent. */
#include "store/store_internal.h"

int store_run_set_parent(store *s, int64_t run, int64_t parent, char *err, size_t errlen)
{
    static const char *const what = "cannot set the run's parent";
    sqlite3_stmt *st = store_prepare(s, "UPDATE runs SET parent = ?1 WHERE id = ?2", err, errlen, what);
    if (!st)
        return STORE_ERROR;
    int rc = (parent > 0 ? sqlite3_bind_int64(st, 1, parent) : sqlite3_bind_null(st, 1));
    if (rc == SQLITE_OK)
        rc = sqlite3_bind_int64(st, 2, run);
    if (rc == SQLITE_OK)
        rc = sqlite3_step(st);
    if (rc != SQLITE_DONE) {
        store_sqlerr(s, err, errlen, what);
        sqlite3_finalize(st);
        return STORE_ERROR;
    }
    int changed = sqlite3_changes(s->db);
    sqlite3_finalize(st);
    if (changed == 0)
        return STORE_NOTFOUND;
    return STORE_OK;
}
