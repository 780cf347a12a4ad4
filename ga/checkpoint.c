/* Saving and restoring a GA run (see checkpoint.h).  Layout: "NCK1", then
 * little-endian fixed-width fields in the order written below, the whole
 * compressed with zlib.  The format is private to one nocsim version's
 * resume; it is not meant for exchange (use exported chromosomes). */
#include "ga/checkpoint.h"

#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "ga/chrom.h"
#include "ga/ga_internal.h"

typedef struct { uint8_t *p; size_t len, cap; int oom; } wbuf;
typedef struct { const uint8_t *p; size_t len, pos; int bad; } rbuf;

static void put(wbuf *w, const void *src, size_t n)
{
    if (w->oom) return;
    if (w->len + n > w->cap) {
        size_t cap = w->cap ? w->cap : 4096;
        while (cap < w->len + n) cap *= 2;
        uint8_t *p = realloc(w->p, cap);
        if (!p) { w->oom = 1; return; }
        w->p = p;
        w->cap = cap;
    }
    memcpy(w->p + w->len, src, n);
    w->len += n;
}

static void put64(wbuf *w, uint64_t v)
{
    uint8_t b[8];
    for (int k = 0; k < 8; k++) b[k] = (uint8_t)(v >> (8 * k));
    put(w, b, 8);
}

static void get(rbuf *r, void *dst, size_t n)
{
    if (r->bad || r->pos + n > r->len) { r->bad = 1; memset(dst, 0, n); return; }
    memcpy(dst, r->p + r->pos, n);
    r->pos += n;
}

static uint64_t get64(rbuf *r)
{
    uint8_t b[8];
    get(r, b, 8);
    uint64_t v = 0;
    for (int k = 0; k < 8; k++) v |= (uint64_t)b[k] << (8 * k);
    return v;
}

static void put_metrics(wbuf *w, const sim_metrics *m)
{
    const int64_t f[] = { m->status, m->duration, m->te, m->ir, m->or_, m->ib, m->ob, m->lb, m->flits_injected,
                          m->flits_ejected, m->packets, m->idle_nodes, m->cycles, m->max_link_flits, m->stop_cycle, m->late, m->tail_profile };
    for (size_t k = 0; k < sizeof f / sizeof f[0]; k++) put64(w, (uint64_t)f[k]);
}

static void get_metrics(rbuf *r, sim_metrics *m)
{
    m->status = (sim_status)get64(r);
    int64_t *f[] = { &m->duration, &m->te, &m->ir, &m->or_, &m->ib, &m->ob, &m->lb, &m->flits_injected,
                     &m->flits_ejected, &m->packets, &m->idle_nodes, &m->cycles, &m->max_link_flits, &m->stop_cycle, &m->late, &m->tail_profile };
    for (size_t k = 0; k < sizeof f / sizeof f[0]; k++) *f[k] = (int64_t)get64(r);
}

static void put_params(wbuf *w, const ga_params *gp, const sim_params *sp)
{
    const int64_t gi[] = { gp->algo, gp->pop, gp->generations, gp->train, gp->max_genes, gp->crossover_interval,
                           gp->crossover_pairs, gp->ties, gp->watchdog, gp->lifetime, gp->genes, gp->arb,
                           gp->interval, gp->stack_vmax, gp->sort_key, gp->max_evals, gp->threads,
                           gp->fitness, gp->estimate_slices, gp->perturb, gp->weights };
    for (size_t k = 0; k < sizeof gi / sizeof gi[0]; k++) put64(w, (uint64_t)gi[k]);
    put(w, &gp->mutation, sizeof gp->mutation); /* IEEE doubles: same on every platform we build for */
    put(w, &gp->crossover_rate, sizeof gp->crossover_rate);
    put64(w, gp->seed);
    const int64_t si[] = { sp->n, sp->vcs, sp->buffer, sp->flits, sp->slices, sp->tie, sp->dateline, sp->q_update,
                           sp->slot_reuse, sp->input_limit, sp->self, sp->deadlock_cycles, sp->max_cycles,
                           sp->slice_reinit, sp->interlock };
    for (size_t k = 0; k < sizeof si / sizeof si[0]; k++) put64(w, (uint64_t)si[k]);
}

static void get_params(rbuf *r, ga_params *gp, sim_params *sp)
{
    gp->algo = (ga_algo)get64(r); gp->pop = (int)get64(r); gp->generations = (int)get64(r);
    gp->train = (int)get64(r); gp->max_genes = (int)get64(r); gp->crossover_interval = (int)get64(r);
    gp->crossover_pairs = (int)get64(r); gp->ties = (ga_ties)get64(r); gp->watchdog = (int)get64(r);
    gp->lifetime = (int)get64(r); gp->genes = (unsigned)get64(r); gp->arb = (int)get64(r);
    gp->interval = (uint32_t)get64(r); gp->stack_vmax = (int)get64(r); gp->sort_key = (ga_sort_key)get64(r);
    gp->max_evals = (int64_t)get64(r); gp->threads = (int)get64(r);
    gp->fitness = (ga_fitness)get64(r); gp->estimate_slices = (int)get64(r); gp->perturb = (int)get64(r);
    gp->weights = (ga_weighting)get64(r);
    get(r, &gp->mutation, sizeof gp->mutation);
    get(r, &gp->crossover_rate, sizeof gp->crossover_rate);
    gp->seed = get64(r);
    sp->n = (int)get64(r); sp->vcs = (int)get64(r); sp->buffer = (int)get64(r); sp->flits = (int)get64(r);
    sp->slices = (int)get64(r); sp->tie = (route_tie)get64(r); sp->dateline = (route_dateline)get64(r);
    sp->q_update = (qsel_update)get64(r); sp->slot_reuse = (sim_slot_reuse)get64(r);
    sp->input_limit = (sim_input_limit)get64(r); sp->self = (sim_self)get64(r);
    sp->deadlock_cycles = (int)get64(r); sp->max_cycles = (int64_t)get64(r);
    sp->slice_reinit = (int)get64(r); sp->interlock = (int)get64(r);
}

static void put_config(wbuf *w, const ga *g, const sim_config *c)
{
    size_t n = chrom_encoded_size(g->n, g->sp.vcs);
    uint8_t *tmp = malloc(n);
    if (!tmp) { w->oom = 1; return; }
    chrom_encode(c, g->n, tmp);
    put(w, tmp, n);
    free(tmp);
}

static void get_config(rbuf *r, const ga *g, sim_config *c)
{
    size_t n = chrom_encoded_size(g->n, g->sp.vcs);
    if (r->bad || r->pos + n > r->len) { r->bad = 1; return; }
    char err[128];
    if (chrom_decode(c, r->p + r->pos, n, err, sizeof err)) r->bad = 1;
    r->pos += n;
}

int ga_checkpoint_save(const ga *g, uint8_t **blob, size_t *len, char *err, size_t errlen)
{
    wbuf w = { 0 };
    put(&w, "NCK1", 4);
    put_params(&w, &g->gp, &g->sp);
    put(&w, g->traffic, sizeof g->traffic);
    for (int i = 0; i < g->nodes; i++) put64(&w, (uint64_t)(int64_t)g->dest[i]);
    for (int k = 0; k < 4; k++) put64(&w, g->rng.s[k]);
    const int64_t st[] = { g->generation, g->evals, g->since_best, g->synonyms, g->t_d0, g->t_e0, g->base_scheme,
                           g->base_interval, g->base_stack, g->base_nonsplit, g->space.genes, g->space.vmin,
                           g->space.vmax, g->space.imax, g->space.v_fixed, g->space.c_fixed, g->best_score,
                           g->best_crc };
    for (size_t k = 0; k < sizeof st / sizeof st[0]; k++) put64(&w, (uint64_t)st[k]);
    double elapsed = g->elapsed_before;
    ga_progress pr;
    ga_get_progress(g, &pr);
    elapsed = pr.elapsed;
    put(&w, &elapsed, sizeof elapsed);
    put_metrics(&w, &g->best_m);
    put_config(&w, g, g->best);
    for (int k = 0; k < g->gp.pop; k++) {
        put64(&w, (uint64_t)g->score[k]);
        put64(&w, (uint64_t)(int64_t)g->age[k]);
        put_metrics(&w, &g->pop_m[k]);
        put_config(&w, g, g->pop[k]);
    }
    put64(&w, g->ncrc);
    for (size_t k = 0; k < g->ncrc; k++) put64(&w, g->crcs[k]);
    if (w.oom) { free(w.p); return snprintf(err, errlen, "out of memory writing a checkpoint"), -1; }

    uLongf zlen = compressBound((uLong)w.len);
    uint8_t *z = malloc(8 + zlen);
    if (!z) { free(w.p); return snprintf(err, errlen, "out of memory writing a checkpoint"), -1; }
    for (int k = 0; k < 8; k++) z[k] = (uint8_t)((uint64_t)w.len >> (8 * k));
    int zrc = compress2(z + 8, &zlen, w.p, (uLong)w.len, 1);
    free(w.p);
    if (zrc != Z_OK) { free(z); return snprintf(err, errlen, "zlib compress failed (%d)", zrc), -1; }
    *blob = z;
    *len = 8 + zlen;
    return 0;
}

/* Decompress a blob; *raw malloc'd. */
static int inflate_blob(const uint8_t *blob, size_t len, uint8_t **raw, size_t *rawlen, char *err, size_t errlen)
{
    if (len < 8) return snprintf(err, errlen, "checkpoint is truncated"), -1;
    uint64_t n = 0;
    for (int k = 0; k < 8; k++) n |= (uint64_t)blob[k] << (8 * k);
    if (n > ((uint64_t)1 << 34)) return snprintf(err, errlen, "checkpoint is corrupt"), -1;
    uint8_t *p = malloc(n ? n : 1);
    if (!p) return snprintf(err, errlen, "out of memory reading a checkpoint"), -1;
    uLongf plen = (uLongf)n;
    if (uncompress(p, &plen, blob + 8, (uLong)(len - 8)) != Z_OK || plen != n) {
        free(p);
        return snprintf(err, errlen, "checkpoint is corrupt (zlib)"), -1;
    }
    *raw = p;
    *rawlen = n;
    return 0;
}

/* The context at the head of a checkpoint: parameters, traffic, dest. */
static int read_context(rbuf *r, ga_params *gp, sim_params *sp, char *traffic, int32_t **dest, char *err, size_t errlen)
{
    char magic[4];
    get(r, magic, 4);
    ga_params_default(gp);
    sim_params_default(sp);
    get_params(r, gp, sp);
    get(r, traffic, 256);
    traffic[255] = '\0';
    if (r->bad || memcmp(magic, "NCK1", 4) != 0 || sp->n < 4 || sp->n > 1024)
        return snprintf(err, errlen, "checkpoint is not a nocsim GA checkpoint"), -1;
    int nodes = sp->n * sp->n;
    *dest = malloc(sizeof **dest * (size_t)nodes);
    if (!*dest) return snprintf(err, errlen, "out of memory reading a checkpoint"), -1;
    for (int i = 0; i < nodes; i++) (*dest)[i] = (int32_t)(int64_t)get64(r);
    if (r->bad) { free(*dest); *dest = NULL; return snprintf(err, errlen, "checkpoint is truncated"), -1; }
    return 0;
}

int ga_checkpoint_peek(const uint8_t *blob, size_t len, ga_params *gp, sim_params *sp, int32_t **dest,
                       char *traffic, char *err, size_t errlen)
{
    uint8_t *p;
    size_t n;
    if (inflate_blob(blob, len, &p, &n, err, errlen)) return -1;
    rbuf r = { p, n, 0, 0 };
    int rc = read_context(&r, gp, sp, traffic, dest, err, errlen);
    free(p);
    return rc;
}

ga *ga_checkpoint_load(const uint8_t *blob, size_t len, int threads, char *err, size_t errlen)
{
    uint8_t *p;
    size_t raw;
    if (inflate_blob(blob, len, &p, &raw, err, errlen)) return NULL;
    rbuf r = { p, raw, 0, 0 };
    ga_params gp;
    sim_params sp;
    char traffic[256];
    int32_t *dest = NULL;
    if (read_context(&r, &gp, &sp, traffic, &dest, err, errlen)) { free(p); return NULL; }
    if (threads > 0) gp.threads = threads;
    ga *g = ga_alloc(&gp, &sp, dest, traffic, err, errlen);
    free(dest);
    if (!g) { free(p); return NULL; }
    for (int k = 0; k < 4; k++) g->rng.s[k] = get64(&r);
    g->generation = (int64_t)get64(&r); g->evals = (int64_t)get64(&r); g->since_best = (int64_t)get64(&r);
    g->synonyms = (int64_t)get64(&r); g->t_d0 = (int64_t)get64(&r); g->t_e0 = (int64_t)get64(&r);
    g->base_scheme = (int)get64(&r); g->base_interval = (uint32_t)get64(&r);
    g->base_stack = (int64_t)get64(&r); g->base_nonsplit = (int64_t)get64(&r);
    g->space.genes = (unsigned)get64(&r); g->space.vmin = (uint32_t)get64(&r); g->space.vmax = (uint32_t)get64(&r);
    g->space.imax = (uint16_t)get64(&r); g->space.v_fixed = (uint32_t)get64(&r); g->space.c_fixed = (int)get64(&r);
    g->best_score = (int64_t)get64(&r); g->best_crc = (uint32_t)get64(&r);
    get(&r, &g->elapsed_before, sizeof g->elapsed_before);
    get_metrics(&r, &g->best_m);
    get_config(&r, g, g->best);
    for (int k = 0; k < g->gp.pop; k++) {
        g->score[k] = (int64_t)get64(&r);
        g->age[k] = (int32_t)(int64_t)get64(&r);
        get_metrics(&r, &g->pop_m[k]);
        get_config(&r, g, g->pop[k]);
    }
    uint64_t ncrc = get64(&r);
    for (uint64_t k = 0; !r.bad && k < ncrc; k++) {
        uint32_t crc = (uint32_t)get64(&r);
        if (g->ncrc == g->capcrc) {
            size_t cap = g->capcrc ? 2 * g->capcrc : 64;
            uint32_t *q = realloc(g->crcs, cap * sizeof *q);
            if (!q) { r.bad = 1; break; }
            g->crcs = q;
            g->capcrc = cap;
        }
        g->crcs[g->ncrc++] = crc;
    }
    free(p);
    if (r.bad) {
        ga_free(g);
        return snprintf(err, errlen, "checkpoint is truncated or corrupt"), NULL;
    }
    return g;
}
