/* Chromosomes: recording one (genes compressed, signed with their CRC-32),
 * reading one by id or by signature, and the listings and counts of a
 * run's chromosomes that `nocsim db synonyms` filters (--where, filter.c)
 * and sorts.  Every read of genes checks their signature. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "store/store_internal.h"

int store_chrom_add(store *s, const store_chrom *c, int64_t *id, char *err, size_t errlen)
{
    static const char *const what = "cannot record a chromosome";
    if (c->genes_len && !c->genes)
        return store_err(err, errlen, "%s: %s: genes missing", s->path, what);
    uint8_t *z = NULL;
    size_t zn = 0;
    if (store_zip(s, c->genes, c->genes_len, &z, &zn, err, errlen) != STORE_OK)
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
        return store_bind_failed(s, st, err, errlen, what);
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
    if (store_unzip(s, z, zn > 0 ? (size_t)zn : 0, c->genes_len, &out, err, errlen, "chromosome", c->id)
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
    return store_one_row(s, store_prepare_key(s, "SELECT " CHROM_COLS " FROM chromosomes c WHERE c.id = ?", id,
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
        return store_bind_failed(s, st, err, errlen, what);
    char nf[96];
    if (run)
        snprintf(nf, sizeof nf, "no chromosome with CRC %08x in run %lld", (unsigned)crc,
                 (long long)run);
    else
        snprintf(nf, sizeof nf, "no chromosome with CRC %08x", (unsigned)crc);
    return store_one_row(s, st, chrom_one, out, err, errlen, what, nf);
}

int store_chrom_has_crc(store *s, int64_t run, uint32_t crc, char *err, size_t errlen)
{
    static const char *const what = "cannot look up a CRC";
    sqlite3_stmt *st = store_prepare(s,
        "SELECT 1 FROM chromosomes WHERE run = ? AND crc = ?", err, errlen, what);
    if (!st)
        return STORE_ERROR;
    if (!bind_i64(st, 1, run) || !bind_i64(st, 2, crc))
        return store_bind_failed(s, st, err, errlen, what);
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
        store_bind_failed(s, st, err, errlen, what);
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
    return store_each_row(s, st, chrom_row, &c, err, errlen, what);
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
