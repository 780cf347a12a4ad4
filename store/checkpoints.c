/* GA checkpoints: one compressed, opaque blob per run (ga/checkpoint.c
 * writes and reads its contents), replaced on every put. */
#include <stdio.h>
#include <stdlib.h>

#include "store/store_internal.h"

int store_checkpoint_put(store *s, int64_t run, int64_t generation, const void *data, size_t len,
                         char *err, size_t errlen)
{
    static const char *const what = "cannot write the checkpoint";
    uint8_t *z = NULL;
    size_t zn = 0;
    if (store_zip(s, data, len, &z, &zn, err, errlen) != STORE_OK)
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
        return store_bind_failed(s, st, err, errlen, what);
    return store_step_done(s, st, err, errlen, what);
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
    if (store_unzip(s, z, zn > 0 ? (size_t)zn : 0, un, o->data, err, errlen, "checkpoint of run", o->run)
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
    return store_one_row(s, store_prepare_key(s, "SELECT generation, data_len, data FROM checkpoints WHERE run = ?",
                                        run, err, errlen, what),
                         checkpoint_one, &o, err, errlen, what, nf);
}
