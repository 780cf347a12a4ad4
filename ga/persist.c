/* The store transactions of a run (ga_persist, ga_flush, ga_finish): the
 * generation rows and records that record.c keeps, the best, and the
 * checkpoint, written together at most once a second. */
#include <stdlib.h>

#include "ga/checkpoint.h"
#include "ga/chrom.h"
#include "ga/ga_internal.h"
#include "util/invariant.h"

/* Keep this generation's row for the next transaction. */
NOCSIM_MUST_USE
static int keep_generation(ga *g)
{
    ga_records *rec = &g->rec;
    if (rec->ngen == rec->capgen) {
        int cap = rec->capgen ? 2 * rec->capgen : 256;
        store_gen *p = realloc(rec->gens, (size_t)cap * sizeof *p);
        if (!p) return -1;
        rec->gens = p;
        rec->capgen = cap;
    }
    ga_progress pr;
    ga_get_progress(g, &pr);
    NOCSIM_ASSERT(!rec->ngen || rec->gens[rec->ngen - 1].generation <= g->generation,
                  "persist: generation rows kept in order");
    if (rec->ngen && rec->gens[rec->ngen - 1].generation == g->generation) rec->ngen--;   /* ga_flush after ga_step */
    rec->gens[rec->ngen++] = (store_gen){ .run = g->run, .generation = g->generation, .best = g->best_m.duration,
                                          .average = pr.average, .evaluations = g->evals, .elapsed = pr.elapsed };
    return 0;
}

/* Every metric of the records that a lean search kept with the metrics its
 * score reads (ga_consider): a run of each of its own, the same run again
 * counted in full (not an evaluation of the budget).  0, or the fault. */
static int complete_records(ga *g, char *err, size_t errlen)
{
    sim_config *c = NULL;
    for (int k = 0; k < g->rec.n; k++) {
        ga_record *r = &g->rec.recs[k];
        if (!r->lean) continue;
        if (!c && !(c = ga_new_config(g))) return snprintf(err, errlen, "out of memory"), -FAULT_RESOURCE;
        if (chrom_decode(c, r->genes, r->len, err, errlen)) { sim_config_free(c); return -FAULT_INTERNAL; }
        sim_metrics full;
        sim_run(g->full, c, &full);
        NOCSIM_ASSERT(full.duration == r->m.duration, "persist: a record's full run repeats the search's");
        r->m = full;
        r->lean = 0;
    }
    sim_config_free(c);
    return 0;
}

/* The rows and records kept, the best and the checkpoint, in the open
 * transaction.  0, or the fault with a message. */
static int write_pending(ga *g, char *err, size_t errlen)
{
    int rc = complete_records(g, err, errlen);
    if (rc) return rc;
    for (int k = 0; k < g->rec.ngen; k++)
        if (store_gen_add(g->db, &g->rec.gens[k], err, errlen) != STORE_OK) return -FAULT_IO;
    for (int k = 0; k < g->rec.n; k++) {
        ga_record *r = &g->rec.recs[k];
        /* The store keeps the fitness in cycles; the secondary key only orders the search. */
        store_chrom sc = { .run = g->run, .generation = r->generation, .crc = r->crc, .score = ga_score_primary(r->score),
                           .duration = r->m.duration, .t_d = r->m1.duration, .t_e = r->m1.te,
                           .ir = r->m.ir, .or_ = r->m.or_, .ib = r->m.ib, .ob = r->m.ob, .lb = r->m.lb,
                           .is_synonym = r->synonym, .genes = r->genes, .genes_len = r->len };
        int added = store_chrom_add(g->db, &sc, NULL, err, errlen);
        if (added != STORE_OK && added != STORE_EXISTS) return -FAULT_IO;
    }
    if (g->best_score < GA_SCORE_INF &&
        store_run_set_best(g->db, g->run, ga_score_primary(g->best_score), g->best_m.duration, g->best_crc, err, errlen) != STORE_OK)
        return -FAULT_IO;
    uint8_t *blob = NULL;
    size_t len = 0;
    rc = ga_checkpoint_save(g, &blob, &len, err, errlen);
    if (rc) return rc;
    int put = store_checkpoint_put(g->db, g->run, g->generation, blob, len, err, errlen);
    free(blob);
    return put == STORE_OK ? 0 : -FAULT_IO;
}

/* [R-GA-STORE-1] The generation rows and records wait in memory and go to
 * the store with the checkpoint, in one transaction at most once a second
 * (and always at the start, the end and on ga_flush): a generation costs no
 * transaction of its own, and a run killed at any moment leaves rows, records
 * and checkpoint of one moment -- it loses at most the second since, which a
 * resume replays exactly (the same rows, the same records). */
int ga_persist(ga *g, int force_checkpoint, char *err, size_t errlen)
{
    /* A record lost is a run that would silently miss a best or a synonym. */
    if (g->rec.lost) return snprintf(err, errlen, "out of memory keeping this generation's records"), -FAULT_RESOURCE;
    if (!g->db) goto done;
    if (keep_generation(g))
        return snprintf(err, errlen, "out of memory keeping this generation's row"), -FAULT_RESOURCE;
    double now = ga_now_seconds();
    if (!force_checkpoint && now - g->rec.last_checkpoint < 1.0) return 0;
    if (store_begin(g->db, err, errlen) != STORE_OK) return -FAULT_IO;
    int rc = write_pending(g, err, errlen);
    if (!rc && store_commit(g->db, err, errlen) != STORE_OK) rc = -FAULT_IO;
    if (rc) {
        (void)!store_rollback(g->db, NULL, 0);   /* report the first failure; store_close rolls back */
        return rc;
    }
    g->rec.last_checkpoint = now;
    g->rec.ngen = 0;
done:
    for (int k = 0; k < g->rec.n; k++) free(g->rec.recs[k].genes);
    g->rec.n = 0;
    return 0;
}

int ga_flush(ga *g, char *err, size_t errlen) { return ga_persist(g, 1, err, errlen); }

int ga_finish(ga *g, char *err, size_t errlen)
{
    if (!g->db) return 0;
    return store_run_set_status(g->db, g->run, "finished", err, errlen) == STORE_OK ? 0 : -FAULT_IO;
}

