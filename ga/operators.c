/* Search-space operators of the GA (see operators.h). */
#include "ga/operators.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "router/route.h"

ga_effective *ga_effective_new(const sim_params *p, const int32_t *dest)
{
    int nodes = sim_nodes(p), V = p->vcs;
    size_t nports = (size_t)nodes * NPORTS, nlists = nports * (size_t)V;
    ga_effective *e = calloc(1, sizeof *e);
    uint8_t *vcmask = calloc(nports, 1);
    uint8_t *inmask = calloc(nlists, 1);
    if (!e || !vcmask || !inmask) goto fail;
    e->senders = malloc(sizeof *e->senders * (size_t)nodes);
    e->ports = malloc(sizeof *e->ports * nports);
    e->qlists = malloc(sizeof *e->qlists * nlists);
    e->qinputs = malloc(nlists);
    if (!e->senders || !e->ports || !e->qlists || !e->qinputs) goto fail;
    e->width = p->n;

    route_params rp = sim_route_params(p);
    /* Under the any-VC rule a packet may hold any VC of the ports on its
     * route, so every VC of them is a gene that matters. */
    unsigned any = p->vc_rule == VCRULE_ANY ? (1u << V) - 1 : 0;
    /* Under another routing function than dor a packet's route (and VC) is
     * not dor's: every VC of every port, and every input of it, may matter. */
    if (p->routing != ROUTING_DOR) {
        memset(vcmask, (1 << V) - 1, nports);
        memset(inmask, (1 << NPORTS) - 1, nlists);
    }
    for (int s = 0; s < nodes; s++) {
        if (dest[s] == s && p->self == SELF_SKIP) continue;
        e->senders[e->nsenders++] = s;
        if (p->routing != ROUTING_DOR) continue;
        int node = s, in = PORT_P, vc = 0;
        for (;;) {
            int ovc, d = route_next(&rp, node, in, vc, dest[s], &ovc);
            size_t port = (size_t)node * NPORTS + (size_t)d;
            unsigned vcs = any ? any : 1u << ovc;
            vcmask[port] |= (uint8_t)vcs;
            for (int c = 0; c < V; c++)
                if (vcs & (1u << c)) inmask[port * (size_t)V + (size_t)c] |= (uint8_t)(1u << in);
            if (d == PORT_P) break;
            node = route_grid_neighbour(&rp, node, d);
            in = route_opposite(d);
            vc = ovc;
        }
    }
    for (size_t k = 0; k < nports; k++)
        if (vcmask[k] & (vcmask[k] - 1)) e->ports[e->nports++] = (int32_t)k;
    for (size_t k = 0; k < nlists; k++)
        if (inmask[k] & (inmask[k] - 1)) {
            e->qinputs[e->nqlists] = inmask[k];
            e->qlists[e->nqlists++] = (int32_t)k;
        }
    free(vcmask);
    free(inmask);
    return e;
fail:
    free(vcmask);
    free(inmask);
    ga_effective_free(e);
    return NULL;
}

void ga_effective_free(ga_effective *e)
{
    if (!e) return;
    free(e->senders);
    free(e->ports);
    free(e->qlists);
    free(e->qinputs);
    free(e);
}

static void random_permutation5(uint8_t *q, rng *r)
{
    for (int j = 0; j < NPORTS; j++) q[j] = (uint8_t)j;
    for (int j = NPORTS - 1; j > 0; j--) {
        int k = (int)rng_below(r, (uint32_t)j + 1);
        uint8_t t = q[j]; q[j] = q[k]; q[k] = t;
    }
}

static size_t qlist_count(const sim_config *c) { return (size_t)c->nodes * NPORTS * (size_t)c->vcs; }

void ga_init_random(sim_config *c, const ga_space *sp, rng *r)
{
    c->interval = (sp->genes & GENE_V) ? sp->vmin + rng_below(r, sp->vmax - sp->vmin + 1) : sp->v_fixed;
    for (int i = 0; i < c->nodes; i++)
        c->inject[i] = (sp->genes & GENE_I) ? (uint16_t)rng_below(r, (uint32_t)sp->imax + 1) : 0;
    for (int k = 0; k < c->nodes * NPORTS; k++)
        c->scheme[k] = (uint8_t)((sp->genes & GENE_C) ? rng_below(r, VCSEL_NSCHEMES) : (uint32_t)sp->c_fixed);
    for (size_t k = 0; k < qlist_count(c); k++) {
        uint8_t *q = c->qorder + k * NPORTS;
        if (sp->genes & GENE_Q) random_permutation5(q, r);
        else for (int j = 0; j < NPORTS; j++) q[j] = (uint8_t)j;
    }
}

int64_t ga_gene_count(const sim_config *c, const ga_space *sp)
{
    int64_t g = 0;
    if (sp->genes & GENE_V) g += 1;
    if (sp->genes & GENE_I) g += c->nodes;
    if (sp->genes & GENE_C) g += (int64_t)c->nodes * NPORTS;
    if (sp->genes & GENE_Q) g += (int64_t)qlist_count(c);
    return g;
}

/* Gene number g (0 .. ga_gene_count-1) in the order V, I, C, Q, counting only
 * evolved groups; redraw it over its full range. */
static void redraw_gene(sim_config *c, const ga_space *sp, int64_t g, rng *r)
{
    if (sp->genes & GENE_V) {
        if (g == 0) { c->interval = sp->vmin + rng_below(r, sp->vmax - sp->vmin + 1); return; }
        g -= 1;
    }
    if (sp->genes & GENE_I) {
        if (g < c->nodes) { c->inject[g] = (uint16_t)rng_below(r, (uint32_t)sp->imax + 1); return; }
        g -= c->nodes;
    }
    if (sp->genes & GENE_C) {
        if (g < (int64_t)c->nodes * NPORTS) { c->scheme[g] = (uint8_t)rng_below(r, VCSEL_NSCHEMES); return; }
        g -= (int64_t)c->nodes * NPORTS;
    }
    random_permutation5(c->qorder + (size_t)g * NPORTS, r);
}

void ga_mutate_paper(sim_config *c, const ga_space *sp, double ratio, rng *r)
{
    int64_t total = ga_gene_count(c, sp);
    if (total == 0) return;
    int64_t k = llround(ratio * (double)total);
    if (k < 1) k = 1;
    for (int64_t j = 0; j < k; j++) redraw_gene(c, sp, (int64_t)(rng_next(r) % (uint64_t)total), r);
}

static int step(rng *r) /* +-1..3 */
{
    int s = 1 + (int)rng_below(r, 3);
    return rng_below(r, 2) ? s : -s;
}

/* A gene number in [0, wv + wi + wc + wq), drawn by the weighting. */
static int64_t pick_gene(int64_t wv, int64_t wi, int64_t wc, int64_t wq, ga_weighting w, rng *r)
{
    if (w == GA_WEIGHT_GENES)
        return (int64_t)(rng_next(r) % (uint64_t)(wv + wi + wc + wq));
    const int64_t size[4] = { wv, wi, wc, wq };
    int groups = (wv > 0) + (wi > 0) + (wc > 0) + (wq > 0);
    int pick = (int)rng_below(r, (uint32_t)groups);
    int64_t base = 0;
    for (int k = 0; k < 4; k++) {
        if (size[k] > 0 && pick-- == 0) return base + (int64_t)(rng_next(r) % (uint64_t)size[k]);
        base += size[k];
    }
    return 0;
}

/* Move gene idx of group grp (0 V, 1 I, 2 C, 3 Q; idx counts effective genes). */
static void move_gene(sim_config *c, const ga_space *sp, const ga_effective *e, int grp, int64_t idx, rng *r)
{
    if (grp == 0) {
        int64_t v = (int64_t)c->interval + step(r);
        if (v < sp->vmin) v = sp->vmin;
        if (v > sp->vmax) v = sp->vmax;
        c->interval = (uint32_t)v;
    } else if (grp == 1) {
        int node = e->senders[idx];
        int v = c->inject[node] + step(r);
        if (v < 0) v = 0;
        if (v > sp->imax) v = sp->imax;
        c->inject[node] = (uint16_t)v;
    } else if (grp == 2) {
        int32_t port = e->ports[idx];
        c->scheme[port] = (uint8_t)((c->scheme[port] + 1 + rng_below(r, VCSEL_NSCHEMES - 1)) % VCSEL_NSCHEMES);
    } else {
        uint8_t *q = c->qorder + (size_t)e->qlists[idx] * NPORTS;
        unsigned in = e->qinputs[idx];
        int pos[NPORTS], np = 0;
        for (int x = 0; x < NPORTS; x++)
            if (in & (1u << q[x])) pos[np++] = x;
        int a = (int)rng_below(r, (uint32_t)np), b = (int)rng_below(r, (uint32_t)np - 1);
        if (b >= a) b++;
        uint8_t t = q[pos[a]]; q[pos[a]] = q[pos[b]]; q[pos[b]] = t;
    }
}

/* Effective genes per group, 0 for groups that do not evolve. */
static void group_sizes(const ga_space *sp, const ga_effective *e, int64_t size[4])
{
    size[0] = (sp->genes & GENE_V) ? 1 : 0;
    size[1] = (sp->genes & GENE_I) ? e->nsenders : 0;
    size[2] = (sp->genes & GENE_C) ? e->nports : 0;
    size[3] = (sp->genes & GENE_Q) ? e->nqlists : 0;
}

void ga_mutate_local(sim_config *c, const ga_space *sp, const ga_effective *e, int k, ga_weighting w, rng *r)
{
    /* One share per effective gene of each evolved group, V one share. */
    int64_t size[4];
    group_sizes(sp, e, size);
    if (size[0] + size[1] + size[2] + size[3] == 0) return;
    for (int j = 0; j < k; j++) {
        int64_t g = pick_gene(size[0], size[1], size[2], size[3], w, r);
        int grp = 0;
        while (g >= size[grp]) g -= size[grp++];
        move_gene(c, sp, e, grp, g, r);
    }
}

int ga_mutate_local_mix(sim_config *c, const ga_space *sp, const ga_effective *e, int k, const double mix[4], rng *r)
{
    int64_t size[4];
    group_sizes(sp, e, size);
    double total = 0;
    for (int x = 0; x < 4; x++) if (size[x] > 0 && mix[x] > 0) total += mix[x];
    if (total <= 0) return 0;
    unsigned used = 0;
    for (int j = 0; j < k; j++) {
        double u = rng_unit(r) * total;
        int grp = -1;
        for (int x = 0; x < 4; x++)
            if (size[x] > 0 && mix[x] > 0) {
                grp = x;
                if ((u -= mix[x]) < 0) break;
            }
        move_gene(c, sp, e, grp, (int64_t)(rng_next(r) % (uint64_t)size[grp]), r);
        used |= 1u << grp;
    }
    return (int)used;
}

void ga_shift_line(sim_config *c, const ga_space *sp, const ga_effective *e, rng *r)
{
    if (!(sp->genes & GENE_I) || e->nsenders == 0) return;
    int n = e->width;
    int node = e->senders[rng_below(r, (uint32_t)e->nsenders)];
    int row = (int)rng_below(r, 2), d = step(r);
    for (int k = 0; k < e->nsenders; k++) {
        int s = e->senders[k];
        if (row ? s / n != node / n : s % n != node % n) continue;
        int v = c->inject[s] + d;
        if (v < 0) v = 0;
        if (v > sp->imax) v = sp->imax;
        c->inject[s] = (uint16_t)v;
    }
}

int ga_advance_late(sim_config *c, const ga_space *sp, const int64_t *tails, int64_t packets, int slices, int window,
                    rng *r)
{
    if (!(sp->genes & GENE_I) || slices < 1) return 0;
    int64_t last = -1, late = 0;
    for (int64_t k = 0; k < packets; k++)
        if (tails[k] > last) last = tails[k];
    if (last < 0) return 0;
    for (int64_t k = 0; k < packets; k++)
        if (tails[k] >= 0 && tails[k] > last - window) late++;
    int64_t pick = (int64_t)(rng_next(r) % (uint64_t)late);
    for (int64_t k = 0;; k++)
        if (tails[k] >= 0 && tails[k] > last - window && pick-- == 0) {
            int node = (int)(k / slices);
            int v = c->inject[node] - (1 + (int)rng_below(r, 3));
            c->inject[node] = (uint16_t)(v < 0 ? 0 : v);
            return 1;
        }
}

void ga_crossover(sim_config *a, const sim_config *b, const ga_space *sp, double rate, rng *r)
{
    if ((sp->genes & GENE_V) && rng_unit(r) < rate) a->interval = b->interval;
    if (sp->genes & GENE_I)
        for (int i = 0; i < a->nodes; i++)
            if (rng_unit(r) < rate) a->inject[i] = b->inject[i];
    if (sp->genes & GENE_C)
        for (int k = 0; k < a->nodes * NPORTS; k++)
            if (rng_unit(r) < rate) a->scheme[k] = b->scheme[k];
    if (sp->genes & GENE_Q)
        for (size_t k = 0; k < qlist_count(a); k++)
            if (rng_unit(r) < rate) memcpy(a->qorder + k * NPORTS, b->qorder + k * NPORTS, NPORTS);
}
