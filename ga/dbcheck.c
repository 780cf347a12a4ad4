/* Validating a database's GA contents (see dbcheck.h). */
#include "ga/dbcheck.h"

#include <stdio.h>
#include <stdlib.h>
#include <zlib.h>

#include "ga/checkpoint.h"
#include "ga/chrom.h"
#include "ga/ga.h"

/* Stored metrics beyond this are no simulation's (max_cycles is 10^8). */
#define MAX_METRIC ((int64_t)1 << 40)

typedef struct {
    store *db;
    char *err;
    size_t errlen;
    int bad;          /* 0, or the negative fault of the finding in err */
} check_ctx;

static int check_chrom(const store_chrom *c, void *arg)
{
    check_ctx *x = arg;
    char why[192];
    int n, h, vcs;
    const int64_t m[] = { c->score, c->duration, c->t_d, c->t_e, c->ir, c->or_, c->ib, c->ob, c->lb };
    for (size_t k = 0; k < sizeof m / sizeof m[0]; k++)
        if (m[k] < 0 || m[k] > MAX_METRIC) {
            snprintf(why, sizeof why, "metric %zu = %lld, outside [0, 2^40]", k, (long long)m[k]);
            goto bad;
        }
    if (chrom_peek(c->genes, c->genes_len, &n, &h, &vcs) || n > 1024 || h > 1024 || vcs > SIM_MAX_VCS) {
        snprintf(why, sizeof why, "not a chromosome encoding");
        goto bad;
    }
    sim_config *cfg = sim_config_new(n * h, vcs, 0, 1);
    if (!cfg) {
        snprintf(x->err, x->errlen, "%s: out of memory checking chromosome %lld", store_path(x->db), (long long)c->id);
        x->bad = -FAULT_RESOURCE;
        return 1;
    }
    int rc = chrom_decode(cfg, c->genes, c->genes_len, why, sizeof why);
    uint32_t crc = rc ? 0 : (uint32_t)crc32(crc32(0L, Z_NULL, 0), c->genes, (uInt)c->genes_len);
    sim_config_free(cfg);
    if (rc) goto bad;
    if (crc != c->crc) {
        snprintf(why, sizeof why, "CRC-32 of the genes is %08x, the row says %08x", crc, c->crc);
        goto bad;
    }
    return 0;
bad:
    snprintf(x->err, x->errlen, "%s: database is damaged: chromosome %lld of run %lld: %s", store_path(x->db),
             (long long)c->id, (long long)c->run, why);
    x->bad = -FAULT_IO;
    return 1;
}

static int check_run(const store_run *r, void *arg)
{
    check_ctx *x = arg;
    uint8_t *blob = NULL;
    size_t len = 0;
    int64_t gen;
    int rc = store_checkpoint_get(x->db, r->id, &gen, &blob, &len, x->err, x->errlen);
    if (rc == STORE_OK) {
        char why[384];
        fault_kind kind = FAULT_IO;
        ga *g = ga_checkpoint_load(blob, len, 1, &kind, why, sizeof why);
        free(blob);
        if (!g) {
            /* Its kind as ga --resume gives it: an earlier format is input
             * (the version to use is named), damage is I/O. */
            snprintf(x->err, x->errlen, "%s: run %lld: %s", store_path(x->db), (long long)r->id, why);
            x->bad = fault_rc(kind);
            return 1;
        }
        ga_free(g);
    } else if (rc != STORE_NOTFOUND) {
        x->bad = fault_rc(store_last_kind(x->db));
        return 1;
    }
    store_chrom_query q = { .run = r->id, .with_genes = true };
    if (store_chrom_list(x->db, &q, check_chrom, x, x->err, x->errlen) != STORE_OK && !x->bad)
        x->bad = fault_rc(store_last_kind(x->db));
    return x->bad != 0;
}

int ga_db_check(store *db, char *err, size_t errlen)
{
    if (store_quick_check(db, err, errlen) != STORE_OK) return fault_rc(store_last_kind(db));
    check_ctx x = { db, err, errlen, 0 };
    if (store_runs_list(db, NULL, check_run, &x, err, errlen) != STORE_OK && !x.bad) return fault_rc(store_last_kind(db));
    return x.bad;
}
