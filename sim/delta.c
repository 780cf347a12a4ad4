/* The measurements of sim/delta.h: a parent's and a child's closed-loop
 * runs stepped side by side on the one fast engine (sim/olnet_fast.c, reset
 * and loaded by closedloop_begin), their router states compared every
 * cycle, and the parent's run written as the compact records a delta
 * stepper would read.  A measurement, not an engine: nothing here steps a
 * cone, and no run of nocsim reaches it.
 *
 * Why the figures stand for the GA's runs:
 *  - the child's run is first made exactly as the GA makes it
 *    (closedloop_run, lean, with the job's cutoff); the side-by-side run
 *    then steps the same cycles (the child's until its end or its cut), and
 *    its tail cycles are compared with that run's (delta_stats.inexact);
 *  - a cycle counts as stepped when the fast path's driver would step it
 *    (a flit in the network or a source due), as closedloop.c's jump over
 *    idle stretches does;
 *  - packet ids are the same in both runs (closedloop_new makes them in the
 *    same order), so flits compare as numbers. */
#include "sim/delta.h"
#include "sim/closedloop.h"
#include "sim/olnet_internal.h"

#include <stdlib.h>
#include <string.h>

struct delta_probe {
    sim_params p;
    int nodes, NF, B, V, K;
    closedloop *pc, *cc;     /* the parent's engine, the child's */
    uint8_t *cone, *dyn;     /* per router: in the strict cone, in the dynamic one */
    uint8_t *genes;          /* per router: a gene of its differs (the job's) */
    uint8_t *rel;            /* per router: in the release-aware cone */
    uint8_t *rel1;           /*   and at the start of the cycle */
    uint8_t *on;             /* per router: active this cycle */
    int64_t *rel_at;         /* per router: the cycle it joins the release-aware cone by its genes */
    int32_t *list;           /* the strict cone's routers */
    int64_t *tails, *tails2, npk; /* the GA run's tail cycles, the side-by-side run's */
    /* The parent's record (delta_probe_record). */
    uint32_t *dfl;           /* dense: per cycle, per link, flit + 1 (0: none) */
    uint16_t *dfu;           /* dense: per cycle, per router, its downstream-full bits */
    int64_t rcycles, rcap;   /* cycles recorded, room */
    uint8_t *sp;             /* sparse */
    size_t splen, spcap;
    uint8_t *snap;           /* the latest snapshot only (their bytes are counted) */
    size_t snapb;
    uint64_t *prev;          /* per router: the full bits last recorded (sparse) */
    uint32_t *cfl;           /* the child's cycle in the dense form: per link its flit + 1 */
    uint16_t *cfu;           /*   and per router its full bits */
    uint8_t *flag;           /* per router: delta_edge says it joins */
};

void delta_probe_free(delta_probe *d)
{
    if (!d) return;
    closedloop_free(d->pc);
    closedloop_free(d->cc);
    free(d->cone);
    free(d->dyn);
    free(d->genes);
    free(d->rel);
    free(d->rel1);
    free(d->on);
    free(d->rel_at);
    free(d->list);
    free(d->tails);
    free(d->tails2);
    free(d->dfl);
    free(d->dfu);
    free(d->sp);
    free(d->snap);
    free(d->prev);
    free(d->cfl);
    free(d->cfu);
    free(d->flag);
    free(d);
}

/* A snapshot's bytes: every array that holds a router's state. */
static size_t snapshot_bytes(const delta_probe *d)
{
    const size_t N = (size_t)d->nodes, nf = N * (size_t)d->NF;
    return nf * (size_t)d->B * sizeof(uint32_t) + nf * 6 /* cnt route holder req_d req_c qsi */ +
           N * 2 * sizeof(uint64_t) /* reqm dfull */ + N * NPORTS /* pstate */ + N * sizeof(olsource);
}

delta_probe *delta_probe_new(const sim_params *p, const int32_t *dest, int K)
{
    delta_probe *d = calloc(1, sizeof *d);
    if (!d) return NULL;
    d->p = *p;
    d->nodes = sim_nodes(p);
    d->V = p->vcs;
    d->B = p->buffer;
    d->NF = NPORTS * p->vcs;
    d->K = K;
    d->npk = (int64_t)d->nodes * p->slices;
    d->pc = closedloop_new(p, dest, 0);
    d->cc = closedloop_new(p, dest, 0);
    d->cone = calloc((size_t)d->nodes, 1);
    d->dyn = calloc((size_t)d->nodes, 1);
    d->genes = calloc((size_t)d->nodes, 1);
    d->rel = calloc((size_t)d->nodes, 1);
    d->rel1 = calloc((size_t)d->nodes, 1);
    d->on = calloc((size_t)d->nodes, 1);
    d->rel_at = malloc(sizeof *d->rel_at * (size_t)d->nodes);
    d->list = malloc(sizeof *d->list * (size_t)d->nodes);
    d->tails = malloc(sizeof *d->tails * (size_t)d->npk);
    d->tails2 = malloc(sizeof *d->tails2 * (size_t)d->npk);
    d->prev = calloc((size_t)d->nodes, sizeof *d->prev);
    d->cfl = malloc(sizeof *d->cfl * (size_t)d->nodes * 4);
    d->cfu = malloc(sizeof *d->cfu * (size_t)d->nodes);
    d->flag = calloc((size_t)d->nodes, 1);
    d->snapb = snapshot_bytes(d);
    d->snap = malloc(d->snapb);
    if (!d->pc || !d->cc || !d->cone || !d->dyn || !d->genes || !d->rel || !d->rel1 || !d->on || !d->rel_at || !d->list || !d->tails || !d->tails2 || !d->prev || !d->cfl || !d->cfu || !d->flag || !d->snap ||
        K <= 0 || p->routing != ROUTING_DOR) {
        delta_probe_free(d);
        return NULL;
    }
    return d;
}

/* ---- the record ---- */

static int grow_dense(delta_probe *d, int64_t t)
{
    if (t < d->rcap) return 0;
    const int64_t cap = d->rcap ? 2 * d->rcap : 1024;
    uint32_t *fl = realloc(d->dfl, sizeof *fl * (size_t)cap * (size_t)d->nodes * 4);
    if (!fl) return -1;
    d->dfl = fl;
    uint16_t *fu = realloc(d->dfu, sizeof *fu * (size_t)cap * (size_t)d->nodes);
    if (!fu) return -1;
    d->dfu = fu;
    d->rcap = cap;
    return 0;
}

static int sparse_room(delta_probe *d, size_t more)
{
    if (d->splen + more <= d->spcap) return 0;
    size_t cap = d->spcap ? 2 * d->spcap : 1 << 20;
    while (cap < d->splen + more) cap *= 2;
    uint8_t *s = realloc(d->sp, cap);
    if (!s) return -1;
    d->sp = s;
    d->spcap = cap;
    return 0;
}

/* The writers are kept out of line so that callgrind counts each alone
 * (--toggle-collect); nmv is the cycle's moves, left in n->fmv by the
 * fast path. */
static inline void dense_cycle(int N, const olnet *n, int nmv, uint32_t *fl, uint16_t *fu)
{
    memset(fl, 0, sizeof *fl * (size_t)N * 4);
    for (int k = 0; k < nmv; k++) {
        const olfmove *m = &n->fmv[k];
        if (m->to >= 0) fl[m->node * 4 + n->lport[m->lo]] = m->x + 1;
    }
    for (int i = 0; i < N; i++) fu[i] = (uint16_t)n->dfull[i];
}

static __attribute__((noinline)) void delta_rec_dense(delta_probe *d, const olnet *n, int64_t t, int nmv)
{
    const size_t N = (size_t)d->nodes;
    dense_cycle(d->nodes, n, nmv, d->dfl + (size_t)t * N * 4, d->dfu + (size_t)t * N);
}

/* What a cone stepper does at the cone's edge in cycle t, on the dense
 * record: for each link between a cone router i and a router j outside,
 * the flit j sends i read from the record, and what i sends j and the full
 * bits j sees compared with it (here against the child's full run, in
 * d->cfl and d->cfu); a difference makes j join.  Returns the routers it
 * makes join (counted once a link), and *sum gathers the flits read. */
static __attribute__((noinline)) int delta_edge(delta_probe *d, const olnet *n, int64_t t, int ncone, uint32_t *sum)
{
    const size_t N = (size_t)d->nodes;
    const uint32_t *fl = d->dfl + (size_t)t * N * 4;
    const uint16_t *fu = d->dfu + (size_t)t * N;
    int joins = 0;
    uint32_t acc = 0;
    for (int k = 0; k < ncone; k++) {
        const int i = d->list[k];
        for (int p = 0; p < PORT_P; p++) {
            const int j = n->nbr[i * NPORTS + p];
            if (j < 0 || d->cone[j]) continue;
            acc += fl[j * 4 + route_opposite(p)];
            const int differs = fl[i * 4 + p] != d->cfl[i * 4 + p] || fu[j] != d->cfu[j];
            joins += differs;
            d->flag[j] |= (uint8_t)differs;
        }
    }
    *sum += acc;
    return joins;
}

static __attribute__((noinline)) void delta_rec_sparse(delta_probe *d, const olnet *n, int nmv, delta_rec_stats *rs)
{
    const int N = d->nodes, L = N * 4;
    const size_t bm = (size_t)(L + 7) / 8;
    size_t at = d->splen;
    /* Offset of the cycle, bitmap, flits in link order (the fast path lists
     * moves by router, then port: link order), full-bit changes. */
    uint8_t *s = d->sp + at;
    memcpy(s, &at, 4);
    uint8_t *map = s + 4;
    memset(map, 0, bm);
    uint32_t *fl = (uint32_t *)(void *)(map + bm);
    int nf = 0;
    for (int k = 0; k < nmv; k++) {
        const olfmove *m = &n->fmv[k];
        if (m->to < 0) continue;
        const int l = m->node * 4 + n->lport[m->lo];
        map[l >> 3] |= (uint8_t)(1u << (l & 7));
        fl[nf++] = m->x;
    }
    uint16_t *ch = (uint16_t *)(void *)(fl + nf);
    int nc = 0;
    for (int i = 0; i < N; i++)
        if (n->dfull[i] != d->prev[i]) {
            d->prev[i] = n->dfull[i];
            ch[2 * nc] = (uint16_t)i;
            ch[2 * nc + 1] = (uint16_t)n->dfull[i];
            nc++;
        }
    d->splen = at + 4 + bm + 4 * (size_t)nf + 4 * (size_t)nc;
    rs->crossings += nf;
    rs->full_changes += nc;
}

static __attribute__((noinline)) void delta_rec_snapshot(delta_probe *d, const olnet *n)
{
    const size_t N = (size_t)d->nodes, nf = N * (size_t)d->NF;
    uint8_t *s = d->snap;
#define PUT(src, bytes) (memcpy(s, (src), (bytes)), s += (bytes))
    PUT(n->buf, nf * (size_t)d->B * sizeof *n->buf);
    PUT(n->cnt, nf);
    PUT(n->route, nf);
    PUT(n->holder, nf);
    PUT(n->req_d, nf);
    PUT(n->req_c, nf);
    PUT(n->qsi, nf);
    PUT(n->reqm, N * sizeof *n->reqm);
    PUT(n->dfull, N * sizeof *n->dfull);
    PUT(n->pstate, N * NPORTS);
    PUT(n->src, N * sizeof *n->src);
#undef PUT
}

/* The dense record's cycle t patched with the child's cone (the new
 * parent's run differs from the old only there), from the child's cycle in
 * the dense form (d->cfl, d->cfu: what a cone stepper's own output would
 * be); returns the entries written. */
static __attribute__((noinline)) int64_t delta_rec_patch(delta_probe *d, int64_t t, int ncone)
{
    const size_t N = (size_t)d->nodes;
    uint32_t *fl = d->dfl + (size_t)t * N * 4;
    uint16_t *fu = d->dfu + (size_t)t * N;
    for (int k = 0; k < ncone; k++) {
        const int i = d->list[k];
        memcpy(fl + i * 4, d->cfl + i * 4, 4 * sizeof *fl);
        fu[i] = d->cfu[i];
    }
    return 5 * (int64_t)ncone;
}

/* The moves of the cycle just stepped (injections are counted apart). */
static int step_moves(olnet *n, int64_t t, int64_t *done)
{
    const int64_t inj0 = n->cl->injected;
    const int32_t *ids;
    int nd;
    const int64_t moved = olnet_step(n, t, &ids, &nd);
    *done += nd;
    return (int)(moved - (n->cl->injected - inj0));
}

int64_t delta_probe_record(delta_probe *d, const sim_config *parent, delta_rec_stats *rs)
{
    olnet *n = closedloop_begin(d->pc, parent);
    int64_t done = 0, t = 0, end = -1;
    int64_t to_send = 0;
    for (int i = 0; i < d->nodes; i++) to_send += n->src[i].count;
    d->splen = 0;
    memset(d->prev, 0, sizeof *d->prev * (size_t)d->nodes);
    for (; done < to_send && t < d->p.max_cycles; t++) {
        if (t % d->K == 0) {
            delta_rec_snapshot(d, n);
            rs->snapshots++;
            rs->snap_bytes += (int64_t)d->snapb;
        }
        const int nmv = step_moves(n, t, &done);
        if (grow_dense(d, t) || sparse_room(d, 4 + (size_t)d->nodes / 2 + 4 * (size_t)(nmv + d->nodes))) return -1;
        delta_rec_dense(d, n, t, nmv);
        delta_rec_sparse(d, n, nmv, rs);
    }
    if (done == to_send) end = t;
    d->rcycles = t;
    rs->parents++;
    rs->cycles += t;
    rs->dense_bytes += t * (int64_t)d->nodes * (4 * 4 + 2);
    rs->sparse_bytes += (int64_t)d->splen;
    return end;
}

/* ---- the cones ---- */

/* Does router i's state differ between a and b?  Bit 0: its dynamic state,
 * bit 1: its configuration's (sim/delta.h). */
static int router_diff(const delta_probe *d, const olnet *a, const olnet *b, int i)
{
    const int NF = d->NF, B = d->B, V = d->V;
    const size_t base = (size_t)i * (size_t)NF;
    int r = 0;
    if (a->reqm[i] != b->reqm[i] || a->dfull[i] != b->dfull[i]) r |= 1;
    if (!a->simd && a->livem[i] != b->livem[i]) r |= 1;
    for (int l = 0; l < NF && !(r & 1); l++) {
        const size_t f = base + (size_t)l;
        const int c = a->cnt[f];
        if (c != b->cnt[f] || a->route[f] != b->route[f] || a->holder[f] != b->holder[f] ||
            memcmp(a->buf + f * (size_t)B, b->buf + f * (size_t)B, sizeof *a->buf * (size_t)c))
            r |= 1;
        else if ((a->reqm[i] >> l & 1) && (a->req_d[f] != b->req_d[f] || a->req_c[f] != b->req_c[f]))
            r |= 1;
    }
    for (int l = 0; l < NF; l++)
        if (a->qsi[base + (size_t)l] != b->qsi[base + (size_t)l]) r |= 2;
    for (int p = 0; p < NPORTS; p++) {
        const int x = a->pstate[(size_t)i * NPORTS + (size_t)p], y = b->pstate[(size_t)i * NPORTS + (size_t)p];
        if (x % V != y % V) r |= 1;
        if (x / V != y / V) r |= 2;
    }
    const olsource *s = &a->src[i], *u = &b->src[i];
    if (s->count != u->count || s->head != u->head || s->seq != u->seq || s->vc != u->vc || s->last_vc != u->last_vc)
        r |= 1;
    else if (s->count && s->due != u->due)
        r |= 2;
    return r;
}

/* Routers a gene of which differs between the two configurations. */
static void changed_genes(delta_probe *d, const sim_config *a, const sim_config *b)
{
    const int all = a->interval != b->interval, V = d->V;
    for (int i = 0; i < d->nodes; i++) {
        int g = all || a->inject[i] != b->inject[i];
        g = g || memcmp(a->scheme + (size_t)i * NPORTS, b->scheme + (size_t)i * NPORTS, NPORTS);
        const size_t q = (size_t)i * NPORTS * (size_t)V * NPORTS;
        g = g || memcmp(a->qorder + q, b->qorder + q, NPORTS * (size_t)V * NPORTS);
        d->genes[i] = (uint8_t)g;
    }
}

/* The release-aware cone's joins by genes: a router whose scheme or queue
 * orders changed at cycle 0; one whose only changes are its packets'
 * release cycles at the first cycle one of them is released in either run
 * (before that its source waits in both, and the packets before it leave
 * at the same cycles); never one that sends nothing. */
static void release_joins(delta_probe *d, const sim_config *a, const sim_config *b, const olnet *n)
{
    const int V = d->V, S = d->p.slices;
    for (int i = 0; i < d->nodes; i++) {
        const size_t q = (size_t)i * NPORTS * (size_t)V * NPORTS;
        if (memcmp(a->scheme + (size_t)i * NPORTS, b->scheme + (size_t)i * NPORTS, NPORTS) ||
            memcmp(a->qorder + q, b->qorder + q, NPORTS * (size_t)V * NPORTS)) {
            d->rel_at[i] = 0;
            continue;
        }
        d->rel_at[i] = INT64_MAX;
        if (!n->src[i].count) continue;
        for (int k = 0; k < S; k++) {
            const int64_t x = (int64_t)k * a->interval + a->inject[i], y = (int64_t)k * b->interval + b->inject[i];
            if (x != y) {
                d->rel_at[i] = x < y ? x : y;
                break;
            }
        }
    }
}

/* Would closedloop.c step cycle t (a flit in the network or a source due)?
 * Marks the active routers in d->on (a flit in a FIFO, or a source due). */
static int cycle_active(delta_probe *d, const olnet *n, int64_t t)
{
    int any = n->in_net > 0;
    const int NF = d->NF;
    for (int i = 0; i < d->nodes; i++) {
        int on = 0;
        const uint8_t *c = n->cnt + (size_t)i * (size_t)NF;
        for (int l = 0; l < NF; l++) on |= c[l];
        const olsource *s = &n->src[i];
        if (s->count && (s->seq || s->due <= t)) on = 1, any = 1;
        d->on[i] = on != 0;
    }
    return any;
}

/* Links into cone c (a byte a router) from routers outside it. */
static int64_t edge_links(const delta_probe *d, const olnet *n, const uint8_t *c)
{
    int64_t e = 0;
    for (int i = 0; i < d->nodes; i++)
        if (c[i])
            for (int p = 0; p < PORT_P; p++) {
                const int j = n->nbr[i * NPORTS + p];
                e += j >= 0 && !c[j];
            }
    return e;
}

sim_status delta_probe_child(delta_probe *d, const sim_config *child, int64_t cutoff, sim_metrics *m)
{
    return closedloop_run(d->cc, child, cutoff > 0 ? cutoff : INT64_MAX, NULL, CL_LEAN, m);
}

/* The sizes of a child's three cones as they grow (delta_probe_job). */
typedef struct {
    int ncone;            /* strict: routers in d->list */
    int dyn_seen;         /* the dynamic state has differed once */
    int64_t ndyn, nrel;   /* dynamic, release-aware */
} cone_sizes;

/* A stepped cycle's active router-cycles, in all and inside each cone. */
static void count_active(const delta_probe *d, delta_stats *st)
{
    for (int i = 0; i < d->nodes; i++) {
        st->active_rc += d->on[i];
        st->cone_active_rc += d->on[i] & d->cone[i];
        st->rel_active_rc += d->on[i] & d->rel[i];
        st->dyn_active_rc += d->on[i] & d->dyn[i];
    }
}

/* After cycle t (of end): every router whose state now differs from the
 * parent's joins the cones it is not in yet, each join checked against
 * the cone's edge (st->unexplained, st->rel_unexplained). */
static void grow_cones(delta_probe *d, const olnet *a, const olnet *b, int64_t t, int64_t end, cone_sizes *c,
                       delta_stats *st)
{
    for (int i = 0; i < d->nodes; i++) {
        if (d->cone[i] && d->dyn[i] && d->rel[i]) continue;
        const int r = router_diff(d, a, b, i);
        /* A router outside the cone can differ only through its links. */
        if (r && !d->cone[i] && !d->flag[i]) st->unexplained++;
        if ((r & 1) && !d->rel[i]) {
            /* Outside the release-aware cone the state was the
             * parent's, so only a neighbour inside can have changed it. */
            int near = 0;
            for (int p = 0; p < PORT_P; p++) {
                const int j = b->nbr[i * NPORTS + p];
                near |= j >= 0 && d->rel1[j];
            }
            st->rel_unexplained += !near;
            d->rel[i] = 1;
            c->nrel++;
        }
        if ((r & 1) && !d->dyn[i]) {
            d->dyn[i] = 1;
            c->ndyn++;
            if (!c->dyn_seen) {
                c->dyn_seen = 1;
                st->diverged++;
                st->first_diff += t;
                st->first_diff_of += end;
            }
        }
        if (r && !d->cone[i]) {
            d->cone[i] = 1;
            d->list[c->ncone++] = i;
        }
    }
}

void delta_probe_job(delta_probe *d, const sim_config *parent, const sim_config *child, int64_t cutoff, int patch,
                     delta_stats *st, sim_metrics *m)
{
    const sim_status s = delta_probe_child(d, child, cutoff, m);
    if (s == SIM_OK) closedloop_tail_cycles(d->cc, d->tails);
    const int64_t end = s == SIM_OK ? m->duration : s == SIM_CUTOFF ? m->stop_cycle : 0;
    olnet *a = closedloop_begin(d->pc, parent), *b = closedloop_begin(d->cc, child);
    changed_genes(d, parent, child);
    cone_sizes c = { 0 };
    for (int i = 0; i < d->nodes; i++) {
        d->dyn[i] = 0;
        d->cone[i] = d->genes[i];
        if (d->genes[i]) d->list[c.ncone++] = i;
    }
    st->cone0 += c.ncone;
    release_joins(d, parent, child, b);
    memset(d->rel, 0, (size_t)d->nodes);
    int64_t stepped = 0, da = 0, db = 0;
    for (int64_t t = 0; t < end; t++) {
        for (int i = 0; i < d->nodes; i++)
            if (!d->rel[i] && d->rel_at[i] <= t) {
                d->rel[i] = 1;
                c.nrel++;
                st->rel0 += t == 0;
            }
        if (!cycle_active(d, b, t)) {
            step_moves(a, t, &da);
            step_moves(b, t, &db);
            continue;
        }
        stepped++;
        st->cone_rc += c.ncone;
        st->cone_dyn_rc += c.ndyn;
        st->rel_rc += c.nrel;
        count_active(d, st);
        if (c.ncone) st->edge_lc += edge_links(d, a, d->cone);
        if (c.nrel) st->rel_edge_lc += edge_links(d, a, d->rel);
        if (c.ndyn) st->dyn_edge_lc += edge_links(d, a, d->dyn);
        memcpy(d->rel1, d->rel, (size_t)d->nodes);
        step_moves(a, t, &da);
        const int nmv = step_moves(b, t, &db);
        const int ncone0 = c.ncone;
        if (c.ncone && t < d->rcycles) {
            dense_cycle(d->nodes, b, nmv, d->cfl, d->cfu);
            st->edge_joins += delta_edge(d, b, t, c.ncone, &st->edge_sum);
        }
        grow_cones(d, a, b, t, end, &c, st);
        for (int k = 0; k < ncone0; k++)
            for (int p = 0; p < PORT_P; p++) {
                const int j = b->nbr[d->list[k] * NPORTS + p];
                if (j >= 0) d->flag[j] = 0;
            }
        /* Patched with the cone the cycle was stepped with (routers that
         * joined at its end hold the parent's record for it). */
        if (patch && ncone0 && t < d->rcycles) st->patch_writes += delta_rec_patch(d, t, ncone0);
    }
    if (patch && s == SIM_OK) d->rcycles = end; /* the new parent's run ends with the child's */
    st->jobs++;
    st->cycles += stepped;
    st->router_cycles += stepped * d->nodes;
    st->joins += c.ncone;
    st->rel_joins += c.nrel;
    /* The side-by-side child stepped the cycles the GA's run did, and a
     * finished one gave every packet the same tail cycle. */
    int exact = stepped == m->cycles;
    if (s == SIM_OK) {
        closedloop_tail_cycles(d->cc, d->tails2);
        exact = exact && !memcmp(d->tails2, d->tails, sizeof *d->tails * (size_t)d->npk);
    }
    st->inexact += !exact;
}
