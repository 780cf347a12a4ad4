/* A constructive start from a link-level timetable (see timetable.h). */
#include "ga/timetable.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ga/ga_internal.h"
#include "router/route.h"

typedef struct {
    int nodes, L, S, horizon;
    int *hops, *first;       /* source s: hops[s] links, then its ejection port, at path[first[s]..] */
    int32_t *path;
    int *key, *order;
    uint8_t *busy;           /* [port][cycle], ports: node * 4 + d links, then nodes * 4 + node ejections */
    int *load;               /* [port]: flits over it, all sources' slices */
} table;

static const table *sort_t;
static int by_key(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    if (sort_t->key[x] != sort_t->key[y]) return sort_t->key[x] < sort_t->key[y] ? 1 : -1;
    return x - y;
}

/* Reserved cycles that source s's slices would meet at I (counting stops at cap). */
static int meets(const table *t, int s, int I, uint32_t V, int cap)
{
    int c = 0;
    const int32_t *pa = t->path + t->first[s];
    for (int sl = 0; sl < t->S; sl++)
        for (int k = 0; k <= t->hops[s]; k++) {
            const uint8_t *b = t->busy + (size_t)pa[k] * (size_t)t->horizon + (size_t)I + (size_t)sl * V + (size_t)k + 1;
            for (int f = 0; f < t->L; f++) c += b[f];
            if (c >= cap) return c;
        }
    return c;
}

static void reserve(table *t, int s, int I, uint32_t V)
{
    const int32_t *pa = t->path + t->first[s];
    for (int sl = 0; sl < t->S; sl++)
        for (int k = 0; k <= t->hops[s]; k++)
            memset(t->busy + (size_t)pa[k] * (size_t)t->horizon + (size_t)I + (size_t)sl * V + (size_t)k + 1, 1,
                   (size_t)t->L);
}

static void table_free(table *t)
{
    free(t->hops); free(t->first); free(t->path); free(t->key); free(t->order); free(t->busy); free(t->load);
}

/* Every source's route (its links, then its ejection port) into path, and
 * each port's load in flits into load.  A source that sends nothing (its
 * own destination, skipped) has hops -1. */
static void trace_routes(table *t, const sim_params *p, const int32_t *dest)
{
    route_params rp = { .n = p->n, .tie = p->tie, .dateline = p->dateline, .topo = p->topo };
    int at = 0;
    for (int src = 0; src < t->nodes; src++) {
        t->first[src] = at;
        t->hops[src] = 0;
        if (dest[src] == src && p->self == SELF_SKIP) { t->hops[src] = -1; continue; }
        int node = src, in = PORT_P, vc = 0;
        for (;;) {
            int ovc, d = route_next(&rp, node, in, vc, dest[src], &ovc);
            if (d == PORT_P) break;
            t->path[at++] = node * 4 + d;
            t->hops[src]++;
            node = route_grid_neighbour(&rp, node, d);
            in = route_opposite(d);
            vc = ovc;
        }
        t->path[at++] = t->nodes * 4 + dest[src];
        for (int k = 0; k <= t->hops[src]; k++) t->load[t->path[t->first[src] + k]] += t->S * t->L;
    }
}

/* The sources in the order of mode 0 (the most loaded port on the route
 * first, then more hops) or mode 1 (more hops first, then load). */
static void order_sources(table *t, int mode)
{
    for (int src = 0; src < t->nodes; src++) {
        int mx = 0;
        for (int k = 0; k <= t->hops[src]; k++)
            if (t->load[t->path[t->first[src] + k]] > mx) mx = t->load[t->path[t->first[src] + k]];
        t->key[src] = t->hops[src] < 0 ? -1 : mode == 0 ? mx * 4096 + t->hops[src] : t->hops[src] * (1 << 20) + mx;
        t->order[src] = src;
    }
    sort_t = t;
    qsort(t->order, (size_t)t->nodes, sizeof *t->order, by_key);
}

/* c's injection timings for interval V: each source in order takes the
 * first I in [0, imax] that meets no reserved cycle (else the one that meets
 * fewest) and reserves its cycles. */
static void place_sources(table *t, sim_config *c, uint32_t V, int imax)
{
    memset(t->busy, 0, (size_t)t->nodes * 5 * (size_t)t->horizon);
    for (int k = 0; k < t->nodes; k++) {
        int src = t->order[k];
        c->inject[src] = 0;
        if (t->hops[src] < 0) continue;
        int pick = 0, fewest = -1;
        for (int I = 0; I <= imax; I++) {
            int cnt = meets(t, src, I, V, fewest < 0 ? 1 << 30 : fewest);
            if (fewest < 0 || cnt < fewest) { fewest = cnt; pick = I; }
            if (cnt == 0) break;
        }
        c->inject[src] = (uint16_t)pick;
        reserve(t, src, pick, V);
    }
    c->interval = V;
}

int ga_timetable(const sim_params *p, const int32_t *dest, uint32_t vmin, uint32_t vmax, int imax, sim_config *c,
                 sim_metrics *m, int64_t *sims, char *err, size_t errlen)
{
    int n = p->n, nodes = n * n, L = p->flits, S = p->slices, rc = -FAULT_RESOURCE;
    if (vmax < vmin) vmax = vmin;
    if (imax < 0) imax = 0;
    table t = { .nodes = nodes, .L = L, .S = S };
    t.horizon = imax + (S - 1) * (int)vmax + 2 * n + 2 + L + 2;
    size_t nports = (size_t)nodes * 5;
    fault_kind kind = FAULT_RESOURCE;
    sim *s = sim_new(p, dest, &kind, err, errlen);
    t.hops = malloc(sizeof *t.hops * (size_t)nodes);
    t.first = malloc(sizeof *t.first * (size_t)nodes);
    t.path = malloc(sizeof *t.path * (size_t)nodes * (size_t)(2 * n + 3));
    t.key = malloc(sizeof *t.key * (size_t)nodes);
    t.order = malloc(sizeof *t.order * (size_t)nodes);
    t.busy = malloc(nports * (size_t)t.horizon);
    t.load = calloc(nports, sizeof *t.load);
    uint16_t *best_i = malloc(sizeof *best_i * (size_t)nodes);
    if (!s || !t.hops || !t.first || !t.path || !t.key || !t.order || !t.busy || !t.load || !best_i) {
        if (s) snprintf(err, errlen, "out of memory in the timetable start");
        else rc = -(int)kind;   /* the simulator's own: a refused p is input */
        goto done;
    }
    trace_routes(&t, p, dest);
    int64_t best = -1;
    uint32_t best_v = vmin;
    for (int mode = 0; mode < 2; mode++) {
        order_sources(&t, mode);
        for (uint32_t V = vmin; V <= vmax; V++) {
            place_sources(&t, c, V, imax);
            sim_metrics mm;
            sim_run(s, c, &mm);
            if (sims) (*sims)++;
            if (mm.status == SIM_OK && (best < 0 || mm.duration < best)) {
                best = mm.duration;
                best_v = V;
                memcpy(best_i, c->inject, sizeof *best_i * (size_t)nodes);
                *m = mm;
            }
        }
    }
    c->interval = best_v;
    memcpy(c->inject, best_i, sizeof *best_i * (size_t)nodes);
    if (best < 0) sim_run(s, c, m);   /* no run finished: report the last one's status */
    rc = 0;
done:
    sim_free(s);
    table_free(&t);
    free(best_i);
    return rc;
}

int ga_timetable_start(ga *g, int64_t stack_duration, char *err, size_t errlen)
{
    if (!(g->gp.genes & GENE_I) || sim_height(&g->sp) != g->sp.n) return 0;   /* square grids only */
    sim_config *c = g->pop[0], *keep = ga_new_config(g);
    if (!keep) return snprintf(err, errlen, "out of memory in the timetable start"), -FAULT_RESOURCE;
    sim_config_copy(keep, c);
    uint32_t vmin = g->space.vmin, vmax = (uint32_t)(3 * g->sp.flits * g->sp.slices + 64);
    if (vmax > g->space.vmax) vmax = g->space.vmax;
    if (!(g->gp.genes & GENE_V)) vmin = vmax = c->interval;
    sim_metrics m;
    int rc = ga_timetable(&g->sp, g->dest, vmin, vmax, g->space.imax, c, &m, &g->evals, err, errlen);
    if (rc) {
        sim_config_free(keep);
        return rc;
    }
    if (!(m.status == SIM_OK && m.duration < stack_duration)) sim_config_copy(c, keep);
    sim_config_free(keep);
    return 0;
}
