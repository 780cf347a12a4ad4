/* The record a run keeps: signatures, the best and its synonyms
 * (ga_consider); persist.c writes them to the store. */
#include <stdlib.h>

#include "ga/chrom.h"
#include "ga/ga_internal.h"
#include "util/invariant.h"

/* ---- signatures ---------------------------------------------------------- */

/* c's signature.  Those signed one after another are a lineage's children
 * and parents, a few genes apart: each is signed from the one before
 * (chrom_signature_follow): `ga --evals 20000 --threads 1` signs 10,558
 * chromosomes in 0.28 G instructions against 1.07 G whole (callgrind). */
static uint32_t sign(ga *g, const sim_config *c)
{
    ga_records *rec = &g->rec;
    uint32_t crc;
    if (rec->signed_any) {
        crc = chrom_signature_follow(rec->signed_last, rec->signed_crc, c, g->n);
    } else {
        crc = chrom_signature(c, g->n, rec->scratch);
        sim_config_copy(rec->signed_last, c);
        rec->signed_any = 1;
    }
    /* (evaluated only where assertions are on: the checking and sanitizer builds) */
    NOCSIM_ASSERT(crc == chrom_signature(c, g->n, rec->scratch), "a signature followed from the last one is the chromosome's own");
    rec->signed_crc = crc;
    return crc;
}

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
    r->lean = g->full != NULL;
    sim_run(g->single, c, &r->m1);
    g->evals++;   /* [R-GA-BUDGET-1] */
    r->synonym = synonym;
    r->generation = g->generation;
    g->rec.n++;
    return 0;
}

/* A newly evaluated chromosome: a new best, a synonym of the best, or
 * neither.  Returns 1 if it is a clone of a recorded best (same signature).
 * Under lean runs (g->full) m lacks te, lb, ir, or_, ib and ob: the record
 * gets them when it is written (persist.c), the best when it is asked for
 * (ga_best), so that a run that stores nothing never computes them. */
int ga_consider(ga *g, const sim_config *c, const sim_metrics *m, int64_t score)
{
    if (score >= GA_SCORE_INF || score > g->best_score) return 0;
    uint32_t crc = sign(g, c);
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

void ga_records_free(ga *g)
{
    for (int k = 0; k < g->rec.n; k++) free(g->rec.recs[k].genes);
    free(g->rec.recs);
    free(g->rec.gens);
    free(g->rec.scratch);
    sim_config_free(g->rec.signed_last);
    free(g->rec.crcs);
}
