/* The record a run keeps: signatures, the best and its synonyms
 * (ga_consider), and the store transaction that writes them with a
 * checkpoint at most once a second (ga_persist). */
#include <stdlib.h>

#include "ga/checkpoint.h"
#include "ga/chrom.h"
#include "ga/ga_internal.h"

/* ---- signatures ---------------------------------------------------------- */

static int crc_known(const ga *g, uint32_t crc)
{
    for (size_t k = 0; k < g->rec.ncrc; k++)   /* a few hundred at most: a scan is fine */
        if (g->rec.crcs[k] == crc) return 1;
    return 0;
}

NOCSIM_MUST_USE
static int crc_add(ga *g, uint32_t crc)
{
    if (g->rec.ncrc == g->rec.capcrc) {
        size_t cap = g->rec.capcrc ? 2 * g->rec.capcrc : 64;
        uint32_t *p = realloc(g->rec.crcs, cap * sizeof *p);
        if (!p) return -1;
        g->rec.crcs = p;
        g->rec.capcrc = cap;
    }
    g->rec.crcs[g->rec.ncrc++] = crc;
    return 0;
}

/* Keep c for this generation's transaction, with its single-slice t_d, T_e. */
NOCSIM_MUST_USE
static int add_record(ga *g, const sim_config *c, const sim_metrics *m, int64_t score, uint32_t crc, int synonym)
{
    if (g->rec.n == g->rec.cap) {
        int cap = g->rec.cap ? 2 * g->rec.cap : 16;
        ga_record *p = realloc(g->rec.recs, (size_t)cap * sizeof *p);
        if (!p) return -1;
        g->rec.recs = p;
        g->rec.cap = cap;
    }
    ga_record *r = &g->rec.recs[g->rec.n];
    r->len = chrom_grid_size(g->n, sim_height(&g->sp), g->sp.vcs);
    if (!(r->genes = malloc(r->len))) return -1;
    chrom_encode(c, g->n, r->genes);
    r->crc = crc;
    r->score = score;
    r->m = *m;
    sim_run(g->single, c, &r->m1);
    g->evals++;
    r->synonym = synonym;
    r->generation = g->generation;
    g->rec.n++;
    return 0;
}

/* A newly evaluated chromosome: a new best, a synonym of the best, or
 * neither.  Returns 1 if it is a clone of a recorded best (same signature). */
int ga_consider(ga *g, const sim_config *c, const sim_metrics *m, int64_t score)
{
    if (score >= GA_SCORE_INF || score > g->best_score) return 0;
    uint32_t crc = chrom_signature(c, g->n, g->rec.scratch);
    if (score < g->best_score) {
        g->best_score = score;
        g->best_m = *m;
        g->best_crc = crc;
        sim_config_copy(g->best, c);
        g->rec.synonyms = 0;
        g->rec.syn_seen = 0;
        g->new_best = 1;
        if (!crc_known(g, crc) && (crc_add(g, crc) || add_record(g, c, m, score, crc, 0))) g->rec.lost = 1;
        return 0;
    }
    if (crc_known(g, crc)) return 1;
    /* Sparse: only the synonyms whose number (counting this score's synonyms
     * met, revisits of unrecorded ones included) is a power of two. */
    g->rec.syn_seen++;
    if (g->gp.record == GA_RECORD_SPARSE && (g->rec.syn_seen & (g->rec.syn_seen - 1))) return 0;
    g->rec.synonyms++;
    if (crc_add(g, crc) || add_record(g, c, m, score, crc, 1)) g->rec.lost = 1;
    return 0;
}

/* ---- persistence --------------------------------------------------------- */

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
    if (rec->ngen && rec->gens[rec->ngen - 1].generation == g->generation) rec->ngen--;   /* ga_flush after ga_step */
    rec->gens[rec->ngen++] = (store_gen){ .run = g->run, .generation = g->generation, .best = g->best_m.duration,
                                          .average = pr.average, .evaluations = g->evals, .elapsed = pr.elapsed };
    return 0;
}

/* The rows and records kept, the best and the checkpoint, in the open
 * transaction.  0, or the fault with a message. */
static int write_pending(ga *g, char *err, size_t errlen)
{
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
    int rc = ga_checkpoint_save(g, &blob, &len, err, errlen);
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

void ga_records_free(ga *g)
{
    for (int k = 0; k < g->rec.n; k++) free(g->rec.recs[k].genes);
    free(g->rec.recs);
    free(g->rec.gens);
    free(g->rec.scratch);
    free(g->rec.crcs);
}
