/* Saving and restoring a GA run (see checkpoint.h).  Layout: CKPT_MAGIC ("NCK8"; "NCK7" under dor), then
 * little-endian fixed-width fields in the order written below, then the
 * signature: zlib's CRC-32 of every byte before it (u32); the whole
 * compressed with zlib.  The format is private to one nocsim version's
 * resume; it is not meant for exchange (use exported chromosomes). */
#include "ga/checkpoint.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "ga/chrom.h"
#include "ga/ga_internal.h"

/* The format's name; the digit goes up whenever the layout changes (NCK2:
 * the targeted move's two parameters, the record rule, the children a
 * generation and the synonyms met; the metric late_sum; NCK3: the children
 * proven to repeat their parent's run; NCK4: the CRC-32 signature at the
 * end, the topology and VC rule; NCK5: the network's height after the VC rule,
 * 0 for a square; NCK6: the start rule after the children; NCK7: after the
 * signatures, whether each slot's tails are known; NCK8: the routing
 * function, selection rule and route seed after the height, written only
 * for a function other than dor, whose checkpoints stay NCK7.  An NCK4
 * checkpoint is read as a square's, NCK4 and NCK5 as started from simple
 * stacking, the only start they knew, NCK4 to NCK6 with every slot's tails
 * known when its run finishes, as those versions resumed them, NCK7 and
 * before as dor). */
#define CKPT_MAGIC "NCK8"
#define CKPT_MAGIC_DOR "NCK7"
/* The earliest format read; the ones before it have no signature. */
#define CKPT_OLDEST '4'

#define CKPT_SIG_LEN 4

typedef struct { uint8_t *p; size_t len, cap; int oom; } wbuf;
/* A reader that never trusts the blob: every field is range-checked as it
 * is read, and the first failure is kept in `why`; after a failure every
 * read returns the field's lower bound, so later code stays in range. */
typedef struct { const uint8_t *p; size_t len, pos; int bad; char why[192]; char version; } rbuf;

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

static void damaged(rbuf *r, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static void damaged(rbuf *r, const char *fmt, ...)
{
    if (r->bad) return;
    r->bad = 1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->why, sizeof r->why, fmt, ap);
    va_end(ap);
}

static void get(rbuf *r, void *dst, size_t n)
{
    if (!r->bad && n > r->len - r->pos) damaged(r, "truncated at byte %zu of %zu", r->pos, r->len);
    if (r->bad) { memset(dst, 0, n); return; }
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

/* A signed field that must lie in [lo, hi]; lo when it does not. */
static int64_t get_in(rbuf *r, const char *what, int64_t lo, int64_t hi)
{
    int64_t v = (int64_t)get64(r);
    if (!r->bad && (v < lo || v > hi))
        damaged(r, "%s = %lld, outside [%lld, %lld]", what, (long long)v, (long long)lo, (long long)hi);
    return r->bad ? lo : v;
}

static void put_metrics(wbuf *w, const sim_metrics *m)
{
    const int64_t f[] = { m->status, m->duration, m->te, m->ir, m->or_, m->ib, m->ob, m->lb, m->flits_injected,
                          m->flits_ejected, m->packets, m->idle_nodes, m->cycles, m->max_link_flits, m->stop_cycle, m->late, m->tail_profile, m->late_sum };
    for (size_t k = 0; k < sizeof f / sizeof f[0]; k++) put64(w, (uint64_t)f[k]);
}

/* Any metric a simulation reports stays far below this (max_cycles is at
 * most CKPT_MAX_CYCLES); the bound keeps every score computed from stored
 * metrics free of overflow. */
#define CKPT_MAX_METRIC ((int64_t)1 << 40)
#define CKPT_MAX_CYCLES ((int64_t)1 << 36)

static void get_metrics(rbuf *r, sim_metrics *m, const char *who)
{
    static const char *const names[] = { "duration", "te", "ir", "or", "ib", "ob", "lb", "flits_injected",
                                         "flits_ejected", "packets", "idle_nodes", "cycles", "max_link_flits",
                                         "stop_cycle", "late", "tail_profile", "late_sum" };
    char what[96];
    snprintf(what, sizeof what, "%s status", who);
    m->status = (sim_status)get_in(r, what, SIM_OK, SIM_CUTOFF);
    int64_t *f[] = { &m->duration, &m->te, &m->ir, &m->or_, &m->ib, &m->ob, &m->lb, &m->flits_injected,
                     &m->flits_ejected, &m->packets, &m->idle_nodes, &m->cycles, &m->max_link_flits, &m->stop_cycle, &m->late, &m->tail_profile, &m->late_sum };
    for (size_t k = 0; k < sizeof f / sizeof f[0]; k++) {
        snprintf(what, sizeof what, "%s %s", who, names[k]);
        *f[k] = get_in(r, what, 0, CKPT_MAX_METRIC);
    }
}

static void put_params(wbuf *w, const ga_params *gp, const sim_params *sp)
{
    const int64_t gi[] = { gp->algo, gp->pop, gp->generations, gp->train, gp->max_genes, gp->crossover_interval,
                           gp->crossover_pairs, gp->ties, gp->watchdog, gp->lifetime, gp->genes, gp->arb,
                           gp->interval, gp->stack_vmax, gp->sort_key, gp->max_evals, gp->threads,
                           gp->fitness, gp->estimate_slices, gp->perturb, gp->weights, gp->target_window, gp->record, gp->children,
                           gp->start };
    for (size_t k = 0; k < sizeof gi / sizeof gi[0]; k++) put64(w, (uint64_t)gi[k]);
    put(w, &gp->mutation, sizeof gp->mutation); /* IEEE doubles: same on every platform we build for */
    put(w, &gp->crossover_rate, sizeof gp->crossover_rate);
    put(w, &gp->shift, sizeof gp->shift);
    put(w, &gp->target, sizeof gp->target);
    put64(w, gp->seed);
    const int64_t si[] = { sp->n, sp->vcs, sp->buffer, sp->flits, sp->slices, sp->tie, sp->dateline, sp->q_update,
                           sp->slot_reuse, sp->input_limit, sp->self, sp->deadlock_cycles, sp->max_cycles,
                           sp->slice_reinit, sp->interlock, sp->topo, sp->vc_rule,
                           sim_height(sp) == sp->n ? 0 : sim_height(sp) };
    for (size_t k = 0; k < sizeof si / sizeof si[0]; k++) put64(w, (uint64_t)si[k]);
    if (sp->routing == ROUTING_DOR) return; /* NCK6 */
    put64(w, (uint64_t)sp->routing);
    put64(w, (uint64_t)sp->selection);
    put64(w, sp->route_seed);
}

/* Every field in the range its type and meaning allow; ga_params_check and
 * sim_params_check (in read_context) add the cross-field rules.  Enums end
 * at their *_COUNT; the simulator's enums (no COUNT) at their last value:
 * keep those in step with sim.h, route.h and arbiter.h. */
static void get_params(rbuf *r, ga_params *gp, sim_params *sp)
{
    gp->algo = (ga_algo)get_in(r, "algo", 0, GA_ALGO_COUNT - 1);
    gp->pop = (int)get_in(r, "pop", GA_POP_MIN, GA_POP_MAX);
    gp->generations = (int)get_in(r, "generations", 0, INT32_MAX);
    gp->train = (int)get_in(r, "train", 0, INT32_MAX);
    gp->max_genes = (int)get_in(r, "max_genes", 1, 1000);
    gp->crossover_interval = (int)get_in(r, "crossover_interval", 0, INT32_MAX);
    gp->crossover_pairs = (int)get_in(r, "crossover_pairs", 0, INT32_MAX);
    gp->ties = (ga_ties)get_in(r, "ties", 0, GA_TIES_COUNT - 1);
    gp->watchdog = (int)get_in(r, "watchdog", 0, INT32_MAX);
    gp->lifetime = (int)get_in(r, "lifetime", 0, INT32_MAX);
    gp->genes = (unsigned)get_in(r, "genes", 1, GENE_ALL);
    gp->arb = (int)get_in(r, "arb", 0, VCSEL_NSCHEMES - 1);
    gp->interval = (uint32_t)get_in(r, "interval", 0, UINT32_MAX);
    gp->stack_vmax = (int)get_in(r, "stack_vmax", 0, INT32_MAX);
    gp->sort_key = (ga_sort_key)get_in(r, "sort_key", GA_KEY_NONE, GA_KEY_COUNT - 1);
    gp->max_evals = get_in(r, "max_evals", 0, INT64_MAX / 4);
    gp->threads = (int)get_in(r, "threads", 1, 4096);
    gp->fitness = (ga_fitness)get_in(r, "fitness", 0, GA_FIT_COUNT - 1);
    gp->estimate_slices = (int)get_in(r, "estimate_slices", 1, SIM_MAX_SLICES);
    gp->perturb = (int)get_in(r, "perturb", 0, 1000);
    gp->weights = (ga_weighting)get_in(r, "weights", 0, GA_WEIGHT_COUNT - 1);
    gp->target_window = (int)get_in(r, "target_window", 1, GA_TARGET_WINDOW_MAX);
    gp->record = (ga_record_rule)get_in(r, "record", 0, GA_RECORD_COUNT - 1);
    gp->children = (int)get_in(r, "children", 1, GA_CHILDREN_MAX);
    gp->start = r->version >= '6' ? (ga_start_rule)get_in(r, "start", 0, GA_START_COUNT - 1) : GA_START_STACKING;
    get(r, &gp->mutation, sizeof gp->mutation);
    get(r, &gp->crossover_rate, sizeof gp->crossover_rate);
    get(r, &gp->shift, sizeof gp->shift);
    get(r, &gp->target, sizeof gp->target);
    if (!r->bad && !(gp->mutation > 0 && gp->mutation <= 1))
        damaged(r, "mutation = %g, outside (0, 1]", gp->mutation);
    if (!r->bad && !(gp->crossover_rate >= 0 && gp->crossover_rate <= 1))
        damaged(r, "crossover_rate = %g, outside [0, 1]", gp->crossover_rate);
    if (!r->bad && !(gp->shift >= 0 && gp->shift <= 1))
        damaged(r, "shift = %g, outside [0, 1]", gp->shift);
    if (!r->bad && !(gp->target >= 0 && gp->target <= 1))
        damaged(r, "target = %g, outside [0, 1]", gp->target);
    gp->seed = get64(r);
    sp->n = (int)get_in(r, "size", 4, 1024);
    sp->vcs = (int)get_in(r, "vcs", 1, SIM_MAX_VCS); /* 3 or more on a torus: sim_params_check */
    sp->buffer = (int)get_in(r, "buffer", 1, 255);
    sp->flits = (int)get_in(r, "flits", 2, SIM_MAX_FLITS);
    sp->slices = (int)get_in(r, "slices", 1, SIM_MAX_SLICES);
    sp->tie = (route_tie)get_in(r, "tie", TIE_NOWRAP, TIE_MINUS);
    sp->dateline = (route_dateline)get_in(r, "dateline", DATELINE_ON_LINK, DATELINE_AFTER);
    sp->q_update = (qsel_update)get_in(r, "q_update", QUPDATE_TAIL, QUPDATE_ROTATE);
    sp->slot_reuse = (sim_slot_reuse)get_in(r, "slot_reuse", SLOT_NEXT_CYCLE, SLOT_SAME_CYCLE);
    sp->input_limit = (sim_input_limit)get_in(r, "input_limit", INPUT_PER_VC, INPUT_PER_PORT);
    sp->self = (sim_self)get_in(r, "self", SELF_SKIP, SELF_SEND);
    sp->deadlock_cycles = (int)get_in(r, "deadlock_cycles", 1, INT32_MAX);
    sp->max_cycles = get_in(r, "max_cycles", 1, CKPT_MAX_CYCLES);
    sp->slice_reinit = (int)get_in(r, "slice_reinit", 0, 1);
    sp->interlock = (int)get_in(r, "interlock", 0, 1);
    sp->topo = (route_topology)get_in(r, "topology", TOPO_TORUS, TOPO_MESH);
    sp->vc_rule = (route_vc_rule)get_in(r, "vc_rule", VCRULE_DATELINE, VCRULE_ANY);
    sp->h = r->version >= '5' ? (int)get_in(r, "height", 0, SIM_MAX_N) : 0; /* NCK4: a square */
    if (r->version < '8') return; /* dor */
    sp->routing = (routing_kind)get_in(r, "routing", ROUTING_DOR + 1, ROUTING_COUNT - 1);
    sp->selection = (routing_selection)get_in(r, "selection", 0, SELECT_COUNT - 1);
    sp->route_seed = get64(r);
}

static void put_config(wbuf *w, const ga *g, const sim_config *c)
{
    size_t n = chrom_grid_size(g->n, sim_height(&g->sp), g->sp.vcs);
    uint8_t *tmp = malloc(n);
    if (!tmp) { w->oom = 1; return; }
    chrom_encode(c, g->n, tmp);
    put(w, tmp, n);
    free(tmp);
}

static void get_config(rbuf *r, const ga *g, sim_config *c, const char *who)
{
    size_t n = chrom_grid_size(g->n, sim_height(&g->sp), g->sp.vcs);
    if (!r->bad && n > r->len - r->pos) damaged(r, "truncated in %s", who);
    if (r->bad) return;
    char err[160];
    if (chrom_decode_grid(c, g->n, r->p + r->pos, n, err, sizeof err)) damaged(r, "%s: %s", who, err);
    r->pos += n;
}

int ga_checkpoint_save(const ga *g, uint8_t **blob, size_t *len, char *err, size_t errlen)
{
    wbuf w = { 0 };
    put(&w, g->sp.routing == ROUTING_DOR ? CKPT_MAGIC_DOR : CKPT_MAGIC, 4);
    put_params(&w, &g->gp, &g->sp);
    put(&w, g->traffic, sizeof g->traffic);
    for (int i = 0; i < g->nodes; i++) put64(&w, (uint64_t)(int64_t)g->dest[i]);
    for (int k = 0; k < 4; k++) put64(&w, g->rng.s[k]);
    const int64_t st[] = { g->generation, g->evals, g->since_best, g->rec.synonyms, g->t_d0, g->t_e0, g->base_scheme,
                           g->base_interval, g->base_stack, g->base_nonsplit, g->space.genes, g->space.vmin,
                           g->space.vmax, g->space.imax, g->space.v_fixed, g->space.c_fixed, g->best_score,
                           g->best_crc, g->rec.syn_seen, g->rp.repeats };
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
    put64(&w, g->rec.ncrc);
    for (size_t k = 0; k < g->rec.ncrc; k++) put64(&w, g->rec.crcs[k]);
    /* A parent made by a perturbed child kept no tails: its children make
     * no targeted move, after a resume too (ga_parent_runs_refresh). */
    for (int k = 0; k < g->gp.pop; k++) put64(&w, g->tl.ok ? g->tl.ok[k] : 0);
    if (!w.oom) {
        uint32_t sig = (uint32_t)crc32(crc32(0L, Z_NULL, 0), w.p, (uInt)w.len);
        uint8_t le[CKPT_SIG_LEN];
        for (int k = 0; k < CKPT_SIG_LEN; k++) le[k] = (uint8_t)(sig >> (8 * k));
        put(&w, le, sizeof le);
    }
    if (w.oom) { free(w.p); return snprintf(err, errlen, "out of memory writing a checkpoint"), -FAULT_RESOURCE; }

    uLongf zlen = compressBound((uLong)w.len);
    uint8_t *z = malloc(8 + zlen);
    if (!z) { free(w.p); return snprintf(err, errlen, "out of memory writing a checkpoint"), -FAULT_RESOURCE; }
    for (int k = 0; k < 8; k++) z[k] = (uint8_t)((uint64_t)w.len >> (8 * k));
    int zrc = compress2(z + 8, &zlen, w.p, (uLong)w.len, 1);
    free(w.p);
    if (zrc != Z_OK) { free(z); return snprintf(err, errlen, "zlib compress failed (%d)", zrc), -FAULT_INTERNAL; }
    *blob = z;
    *len = 8 + zlen;
    return 0;
}

#define DAMAGED "database is damaged: checkpoint: "

/* Decompress a blob; *raw malloc'd.  zlib expands at most about 1032:1, so
 * a header claiming more is damage, not a reason to allocate. */
static int inflate_blob(const uint8_t *blob, size_t len, uint8_t **raw, size_t *rawlen, char *err, size_t errlen)
{
    if (len < 8) return snprintf(err, errlen, DAMAGED "%zu bytes, shorter than its header", len), -FAULT_IO;
    uint64_t n = 0;
    for (int k = 0; k < 8; k++) n |= (uint64_t)blob[k] << (8 * k);
    if (n < 4 || n > ((uint64_t)1 << 34) || n / 1032 > len)
        return snprintf(err, errlen, DAMAGED "claims %llu bytes from %zu compressed", (unsigned long long)n, len), -FAULT_IO;
    uint8_t *p = malloc(n);
    if (!p)
        return snprintf(err, errlen, "out of memory reading a checkpoint (%llu bytes)", (unsigned long long)n), -FAULT_RESOURCE;
    uLongf plen = (uLongf)n;
    int rc = uncompress(p, &plen, blob + 8, (uLong)(len - 8));
    if (rc != Z_OK || plen != n) {
        free(p);
        return snprintf(err, errlen, DAMAGED "corrupt compressed data (zlib %d, %lu of %llu bytes)", rc,
                        (unsigned long)plen, (unsigned long long)n), -FAULT_IO;
    }
    /* The signature, unless the magic names an earlier format (which has
     * none; read_context says which version to use).  Checked before any
     * field is read: an edit that stays in every range is refused too. */
    int earlier = memcmp(p, "NCK", 3) == 0 && p[3] >= '1' && p[3] < CKPT_OLDEST;
    if (!earlier) {
        if (n < 4 + CKPT_SIG_LEN) {
            free(p);
            return snprintf(err, errlen, DAMAGED "%llu bytes, too short for its signature", (unsigned long long)n), -FAULT_IO;
        }
        n -= CKPT_SIG_LEN;
        uint32_t want = 0, got = (uint32_t)crc32(crc32(0L, Z_NULL, 0), p, (uInt)n);
        for (int k = 0; k < CKPT_SIG_LEN; k++) want |= (uint32_t)p[n + (size_t)k] << (8 * k);
        if (got != want) {
            free(p);
            return snprintf(err, errlen, DAMAGED "its contents give CRC-32 %08x, its signature says %08x", got, want),
                   -FAULT_IO;
        }
    }
    *raw = p;
    *rawlen = (size_t)n;
    return 0;
}

/* The context at the head of a checkpoint: parameters, traffic, dest. */
static int read_context(rbuf *r, ga_params *gp, sim_params *sp, char *traffic, int32_t **dest, char *err, size_t errlen)
{
    char magic[4];
    get(r, magic, 4);
    if (r->bad) return snprintf(err, errlen, DAMAGED "%s", r->why), -FAULT_IO;
    /* Earlier formats: a run is resumed by the version that started it. */
    if (memcmp(magic, "NCK", 3) == 0 && magic[3] >= '1' && magic[3] < CKPT_OLDEST)
        return snprintf(err, errlen, "checkpoint written by an earlier nocsim (format %.4s, this one reads %s): "
                        "resume the run with the version that started it", magic, CKPT_MAGIC), -FAULT_INPUT;
    if (memcmp(magic, "NCK", 3) != 0 || magic[3] < CKPT_OLDEST || magic[3] > CKPT_MAGIC[3])
        damaged(r, "not a nocsim GA checkpoint (bad magic)");
    r->version = magic[3];
    ga_params_default(gp);
    sim_params_default(sp);
    get_params(r, gp, sp);
    get(r, traffic, 256);
    traffic[255] = '\0';
    char why[160];
    if (!r->bad && (ga_params_check(gp, why, sizeof why) || sim_params_check(sp, why, sizeof why)))
        damaged(r, "%s", why);
    if (!r->bad && (int64_t)sim_nodes(sp) * sp->slices >= (1 << 24))
        damaged(r, "%d nodes x %d slices, at or above 2^24 packets", sim_nodes(sp), sp->slices);
    int nodes = r->bad ? 0 : sim_nodes(sp);
    /* Check the size before allocating: the destinations must be there. */
    if (!r->bad && (size_t)nodes > (r->len - r->pos) / 8) damaged(r, "truncated in the destinations");
    if (r->bad) return snprintf(err, errlen, DAMAGED "%s", r->why), -FAULT_IO;
    *dest = malloc(sizeof **dest * (size_t)nodes);
    if (!*dest) return snprintf(err, errlen, "out of memory reading a checkpoint"), -FAULT_RESOURCE;
    for (int i = 0; i < nodes; i++) {
        char what[32];
        snprintf(what, sizeof what, "dest[%d]", i);
        (*dest)[i] = (int32_t)get_in(r, what, 0, nodes - 1);
    }
    if (r->bad) { free(*dest); *dest = NULL; return snprintf(err, errlen, DAMAGED "%s", r->why), -FAULT_IO; }
    return 0;
}

int ga_checkpoint_peek(const uint8_t *blob, size_t len, ga_params *gp, sim_params *sp, int32_t **dest,
                       char *traffic, char *err, size_t errlen)
{
    uint8_t *p;
    size_t n;
    int rc = inflate_blob(blob, len, &p, &n, err, errlen);
    if (rc) return rc;
    rbuf r = { .p = p, .len = n };
    rc = read_context(&r, gp, sp, traffic, dest, err, errlen);
    free(p);
    return rc;
}

/* Bytes the rest of a checkpoint needs at least, from its parameters: a
 * blob too short for its population is refused before the GA is built. */
static size_t min_rest(const ga_params *gp, const sim_params *sp)
{
    size_t cfg = chrom_grid_size(sp->n, sim_height(sp), sp->vcs), metrics = 18 * 8;
    return 4 * 8 + 20 * 8 + 8 + metrics + cfg + (size_t)gp->pop * (16 + metrics + cfg) + 8;
}

/* Whether each slot's tails are known (0 where no tails are kept).  Before
 * NCK7: known, and ga_parent_runs_refresh keeps them for the runs that
 * finish, as the versions that wrote them resumed. */
static void read_tails_known(rbuf *r, ga *g)
{
    for (int k = 0; k < g->gp.pop; k++) {
        char what[64];
        snprintf(what, sizeof what, "population[%d] tails known", k);
        int64_t known = r->version >= '7' ? get_in(r, what, 0, g->tl.ok ? 1 : 0) : 1;
        if (g->tl.ok) g->tl.ok[k] = (uint8_t)known;
    }
}

/* The search state after the parameters, checked against them. */
static void read_state(rbuf *r, ga *g)
{
    for (int k = 0; k < 4; k++) g->rng.s[k] = get64(r);
    if (!r->bad && !(g->rng.s[0] | g->rng.s[1] | g->rng.s[2] | g->rng.s[3]))
        damaged(r, "random generator state is all zero");
    g->generation = get_in(r, "generation", 0, g->gp.generations);
    g->evals = get_in(r, "evaluations", 0, INT64_MAX / 4);
    g->since_best = get_in(r, "since_best", 0, g->generation);
    g->rec.synonyms = get_in(r, "synonyms", 0, INT64_MAX / 4);
    g->t_d0 = get_in(r, "t_d0", 0, CKPT_MAX_METRIC);
    g->t_e0 = get_in(r, "t_e0", 0, CKPT_MAX_METRIC);
    g->base_scheme = (int)get_in(r, "base_scheme", 0, VCSEL_NSCHEMES - 1);
    g->base_interval = (uint32_t)get_in(r, "base_interval", 0, UINT32_MAX);
    g->base_stack = get_in(r, "base_stack", -1, CKPT_MAX_METRIC);
    g->base_nonsplit = get_in(r, "base_nonsplit", -1, CKPT_MAX_METRIC);
    /* 0 before ga_start ran (a run's first checkpoint), the run's genes after. */
    g->space.genes = (unsigned)get_in(r, "space genes", 0, GENE_ALL);
    if (!r->bad && g->space.genes && g->space.genes != g->gp.genes)
        damaged(r, "space genes = %u, but the run evolves %u", g->space.genes, g->gp.genes);
    g->space.vmin = (uint32_t)get_in(r, "vmin", 0, UINT32_MAX);
    g->space.vmax = (uint32_t)get_in(r, "vmax", g->space.vmin, UINT32_MAX);
    g->space.imax = (uint16_t)get_in(r, "imax", 0, UINT16_MAX);
    g->space.v_fixed = (uint32_t)get_in(r, "v_fixed", 0, UINT32_MAX);
    g->space.c_fixed = (int)get_in(r, "c_fixed", 0, VCSEL_NSCHEMES - 1);
    g->best_score = get_in(r, "best_score", 0, GA_SCORE_INF);
    g->best_crc = (uint32_t)get_in(r, "best_crc", 0, UINT32_MAX);
    g->rec.syn_seen = get_in(r, "synonyms_seen", 0, INT64_MAX / 4);
    g->rp.repeats = get_in(r, "repeats", 0, g->generation * (int64_t)g->gp.pop);
    if (!r->bad && !g->space.genes && (g->generation || g->evals || g->best_score != GA_SCORE_INF))
        damaged(r, "a checkpoint from before the start has generation %lld, %lld evaluations",
                (long long)g->generation, (long long)g->evals);
    get(r, &g->elapsed_before, sizeof g->elapsed_before);
    if (!r->bad && !(g->elapsed_before >= 0 && g->elapsed_before < 1e12))
        damaged(r, "elapsed = %g s", g->elapsed_before);
    get_metrics(r, &g->best_m, "best");
    get_config(r, g, g->best, "best chromosome");
    if (!r->bad && g->space.genes && g->best_score < GA_SCORE_INF && ga_score(&g->gp, &g->best_m) != g->best_score)
        damaged(r, "best_score does not match the best's metrics");
    for (int k = 0; k < g->gp.pop && !r->bad; k++) {
        char who[48], what[64];
        snprintf(who, sizeof who, "population[%d]", k);
        snprintf(what, sizeof what, "%s score", who);
        g->score[k] = get_in(r, what, 0, GA_SCORE_INF);
        snprintf(what, sizeof what, "%s age", who);
        g->age[k] = (int32_t)get_in(r, what, 0, INT32_MAX);
        get_metrics(r, &g->pop_m[k], who);
        get_config(r, g, g->pop[k], who);
        if (!r->bad && g->space.genes && g->score[k] != ga_score(&g->gp, &g->pop_m[k]))
            damaged(r, "%s: score does not match its metrics", who);
    }
    uint64_t ncrc = (uint64_t)get_in(r, "signatures", 0, INT32_MAX);
    if (!r->bad && ncrc > (r->len - r->pos) / 8) damaged(r, "truncated in the signatures");
    if (r->bad) return;
    if (ncrc > g->rec.capcrc) {
        uint32_t *q = realloc(g->rec.crcs, (size_t)ncrc * sizeof *q);
        if (!q) { damaged(r, "out of memory for %llu signatures", (unsigned long long)ncrc); return; }
        g->rec.crcs = q;
        g->rec.capcrc = (size_t)ncrc;
    }
    for (uint64_t k = 0; k < ncrc; k++) g->rec.crcs[g->rec.ncrc++] = (uint32_t)get_in(r, "signature", 0, UINT32_MAX);
    read_tails_known(r, g);
    if (!r->bad && r->pos != r->len) damaged(r, "%zu bytes after the end", r->len - r->pos);
}

ga *ga_checkpoint_load(const uint8_t *blob, size_t len, int threads, fault_kind *kind, char *err, size_t errlen)
{
    uint8_t *p;
    size_t raw;
    int rc = inflate_blob(blob, len, &p, &raw, err, errlen);
    if (rc) return fault_set(kind, fault_of(rc)), NULL;
    rbuf r = { .p = p, .len = raw };
    ga_params gp;
    sim_params sp;
    char traffic[256];
    int32_t *dest = NULL;
    if ((rc = read_context(&r, &gp, &sp, traffic, &dest, err, errlen))) { free(p); return fault_set(kind, fault_of(rc)), NULL; }
    fault_set(kind, FAULT_IO);   /* a damaged blob, unless ga_alloc says otherwise */
    if (min_rest(&gp, &sp) > r.len - r.pos) {
        free(p);
        free(dest);
        return snprintf(err, errlen, DAMAGED "too short for a population of %d on a %dx%d torus", gp.pop, sp.n, sim_height(&sp)), NULL;
    }
    if (threads > 0) gp.threads = threads;
    ga *g = ga_alloc(&gp, &sp, dest, traffic, kind, err, errlen);
    free(dest);
    if (!g) { free(p); return NULL; }
    read_state(&r, g);
    free(p);
    if (r.bad) {
        ga_free(g);
        fault_set(kind, FAULT_IO);
        return snprintf(err, errlen, DAMAGED "%s", r.why), NULL;
    }
    return g;
}
