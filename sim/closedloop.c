/* Closed-loop runs on the one fast engine (see closedloop.h).
 *
 * Why each piece keeps the run exactly the reference's (sim/sim.c):
 *  - Packets: node i's slice s is packet first[i] + s, made once with its
 *    route (olnet_add) and tagged with its slice; a run sets only its
 *    release cycle (t_gen), and the source queue holds the node's packets in
 *    slice order.  A packet injects from its release on, after the packets
 *    before it: the model's step 3.
 *  - Reset: olnet_clear empties what a cut run may have left, and
 *    olnet_configure sets the schemes and queue orders, one table look-up an
 *    output VC (qsel_index; qsel_rank's loops cost 3 % of a GA child).
 *  - Idle stretches: with no flit in the network nothing moves before the
 *    earliest release of a queued packet, so the run jumps there (as the
 *    reference does; `cycles` counts the cycles stepped).
 *  - The cutoff: load_exceeds below proves a run longer than the cutoff
 *    from the links' remaining loads, the run's start from its last slices'
 *    releases.  Both are lower bounds of the duration, so a run they stop
 *    is one that would end after the cutoff. */
#include "sim/closedloop.h"
#include "sim/decisions_rec.h"
#include "sim/olnet_internal.h"
#include "sim/tailwin.h"
#include "util/invariant.h"

#include <stdlib.h>
#include <string.h>

typedef closedloop_lentry lentry;

struct closedloop {
    sim_params p;
    olnet *net;
    olclosed cl;
    int nodes, S, L;
    int64_t to_send;        /* packets of a run */
    int idle_nodes;         /* nodes that send nothing */
    int32_t *first;         /* per node: its slice 0's packet id, -1 if it sends nothing */
    int32_t *hops;          /* per node: hops of its route */
    /* The load bound (link_reach): per link its whole load plus the fewest
     * hops left after it, those hops, and a run's heap of links. */
    int32_t *reach, *after;
    lentry *lstart, *lheap; /* the loaded links by decreasing reach; a run's heap */
    int nloaded;
    uint8_t rank[QSEL_NINDEX];
    size_t bytes;
};

int closedloop_supports(const sim_params *p)
{
    return p->slot_reuse == SLOT_NEXT_CYCLE && p->input_limit == INPUT_PER_VC && !p->slice_reinit && !p->interlock &&
           p->max_cycles <= INT32_MAX - 1;
}

void closedloop_free(closedloop *c)
{
    if (!c) return;
    olnet_free(c->net);
    free(c->cl.links);
    free(c->first);
    free(c->hops);
    free(c->reach);
    free(c->after);
    free(c->lstart);
    free(c->lheap);
    free(c);
}

size_t closedloop_bytes(const closedloop *c) { return c->bytes + olnet_bytes(c->net) + sizeof *c; }

static int lentry_cmp(const void *a, const void *b)
{
    const lentry *x = a, *y = b;
    if (x->key != y->key) return x->key < y->key ? -1 : 1;
    return (x->link > y->link) - (x->link < y->link);
}

/* What the load bound knows of each link before a run: the flits it carries
 * in a whole run (S packets of L flits from every sending node whose
 * route uses it) plus the fewest hops a packet over it still has to go
 * after it (reach), and the loaded links sorted by decreasing reach, the
 * heap every run starts from (keys -reach, ascending: a heap already). */
static void link_reach(closedloop *c, const int32_t *dest)
{
    const route_params rp = sim_route_params(&c->p);
    const int nl = c->nodes * 4;
    for (int l = 0; l < nl; l++) c->after[l] = INT32_MAX;
    for (int i = 0; i < c->nodes; i++) {
        if (c->first[i] < 0) continue;
        for (int j = i, h = c->hops[i];; h--) {
            const int d = route_grid_port(&rp, j, dest[i]);
            if (d == PORT_P) break;
            c->reach[j * 4 + d] += c->L * c->S;
            if (h - 1 < c->after[j * 4 + d]) c->after[j * 4 + d] = h - 1;
            j = route_grid_neighbour(&rp, j, d);
        }
    }
    c->nloaded = 0;
    for (int l = 0; l < nl; l++)
        if (c->reach[l]) {
            c->reach[l] += c->after[l];
            c->lstart[c->nloaded++] = (lentry){ -(int64_t)c->reach[l], l };
        }
    qsort(c->lstart, (size_t)c->nloaded, sizeof *c->lstart, lentry_cmp);
}

/* The packets of every sending node, in slice order, tagged with the slice. */
static int make_packets(closedloop *c, const int32_t *dest)
{
    const route_params rp = sim_route_params(&c->p);
    for (int i = 0; i < c->nodes; i++) {
        c->hops[i] = route_hops(&rp, i, dest[i]);
        c->first[i] = -1;
        if (dest[i] == i && c->p.self != SELF_SEND) {
            c->idle_nodes++;
            continue;
        }
        for (int s = 0; s < c->S; s++) {
            const int32_t id = olnet_add(c->net, i, dest[i], c->L, 0, s);
            if (id < 0) return -1;
            if (s == 0) c->first[i] = id;
        }
        c->to_send += c->S;
    }
    return 0;
}

closedloop *closedloop_new(const sim_params *p, const int32_t *dest, int scalar)
{
    closedloop *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    c->p = *p;
    c->nodes = sim_nodes(p);
    c->S = p->slices;
    c->L = p->flits;
    const olnet_params op = { .rp = sim_route_params(p), .vc_rule = p->vc_rule, .vcs = p->vcs,
                              .buffer = p->buffer, .scheme = 0, .q_update = p->q_update, .scalar = scalar,
                              .routing = p->routing, .selection = p->selection, .route_seed = p->route_seed };
    char err[160];
    c->net = olnet_new(&op, NULL, NULL, err, sizeof err);
    const size_t nl = (size_t)c->nodes * 4;
    c->cl.links = calloc(nl, sizeof *c->cl.links);
    c->first = malloc(sizeof *c->first * (size_t)c->nodes);
    c->hops = malloc(sizeof *c->hops * (size_t)c->nodes);
    c->reach = calloc(nl, sizeof *c->reach);
    c->after = malloc(sizeof *c->after * nl);
    c->lstart = malloc(sizeof *c->lstart * nl);
    c->lheap = malloc(sizeof *c->lheap * nl);
    c->bytes = nl * (sizeof *c->cl.links + sizeof *c->reach + sizeof *c->after + 2 * sizeof *c->lstart) +
               (size_t)c->nodes * (sizeof *c->first + sizeof *c->hops);
    if (!c->net || !c->cl.links || !c->first || !c->hops || !c->reach || !c->after || !c->lstart || !c->lheap ||
        make_packets(c, dest)) {
        closedloop_free(c);
        return NULL;
    }
    if (p->routing == ROUTING_DOR) link_reach(c, dest); /* the load bound follows dor's routes [R-RF-10] */
    qsel_rank_table(c->rank);
    c->cl.L = c->L;
    c->net->cl = &c->cl;
    return c;
}

/* ---- the load bound ---- */

void closedloop_heap_down(lentry *h, int n, int k)
{
    const lentry e = h[k];
    for (;;) {
        int ch = 2 * k + 1;
        if (ch >= n) break;
        if (ch + 1 < n && h[ch + 1].key < h[ch].key) ch++;
        if (h[ch].key >= e.key) break;
        h[k] = h[ch];
        k = ch;
    }
    h[k] = e;
}

/* Is the duration certain to exceed cutoff, at the start of cycle t?  A link
 * carries at most one flit a cycle, so a link with R flits still to carry
 * carries its last at t + R - 1 or later; that flit then crosses at least A
 * more links (A: the fewest hops any packet over the link has left after
 * it), one a cycle, and ejects a cycle after its last hop: the duration
 * (last ejection + 1) is at least t + R + A + 1, over cutoff when R + A >=
 * cutoff - t.  R is the whole load less L a header that crossed
 * (links[].flits), never more than the flits really left; a link with
 * nothing left proves nothing.
 *
 * Link l proves it when its key, flits - reach, is at most t - cutoff.  Keys
 * only grow (as headers cross), so the links sit in a min-heap under the key
 * each had when last looked at, a lower bound of its key now: while the
 * top's is above t - cutoff no link proves it, and a cycle costs one
 * comparison.  Otherwise the top is looked at: a current key proves it, a
 * stale one is updated, a link with nothing left is dropped. */
static int load_exceeds(closedloop *c, int64_t t, int64_t cutoff, int *nh)
{
    lentry *h = c->lheap;
    while (*nh && h[0].key <= t - cutoff) {
        const int32_t l = h[0].link;
        const int32_t r = c->reach[l] - c->cl.links[l].flits; /* R + A */
        if (r <= c->after[l]) {                               /* R = 0 */
            h[0] = h[--*nh];
            if (*nh) closedloop_heap_down(h, *nh, 0);
        } else if (-r > h[0].key) {
            h[0].key = -r;
            closedloop_heap_down(h, *nh, 0);
        } else {
            return 1;
        }
    }
    return 0;
}

/* ---- a run ---- */

/* A lower bound of cfg's duration from the last slices alone: released at
 * (S-1)V + I[i], a packet needs at least H + L cycles to eject its tail. */
static int64_t release_bound(const closedloop *c, const sim_config *cfg)
{
    int64_t bound = 0;
    for (int i = 0; i < c->nodes; i++) {
        if (c->first[i] < 0) continue;
        const int64_t b = (int64_t)(c->S - 1) * cfg->interval + cfg->inject[i] + c->hops[i] + c->L + 1;
        if (b > bound) bound = b;
    }
    return bound;
}

/* The packets queued and released as cfg says (into a cleared network). */
static void queue_packets(closedloop *c, const sim_config *cfg)
{
    olnet *n = c->net;
    const int64_t iv = cfg->interval;
    for (int i = 0; i < c->nodes; i++) {
        const int32_t id0 = c->first[i];
        if (id0 < 0) continue;
        olsource *s = &n->src[i];
        s->count = c->S;
        s->due = cfg->inject[i];
        n->srcm[i / 64] |= 1ull << (i % 64);
        for (int k = 0; k < c->S; k++) {
            olnet_packet *pk = &n->pk[id0 + k];
            pk->t_gen = (int64_t)k * iv + cfg->inject[i];
            pk->t_inj = pk->t_done = -1;
        }
    }
}

/* With no flit in the network nothing moves before the earliest release
 * of a queued packet (a source part-way through one injects now). */
static int64_t next_release(const olnet *n, int64_t t)
{
    int64_t next = INT64_MAX;
    for (int w = 0; w < (n->nodes + 63) / 64; w++)
        for (uint64_t m = n->srcm[w]; m; m &= m - 1) {
            const olsource *s = &n->src[w * 64 + __builtin_ctzll(m)];
            const int64_t r = s->seq ? t : s->due;
            if (r < next) next = r;
        }
    return next != INT64_MAX && next > t ? next : t;
}

/* The cycles of a run, from cycle 0 to its end, its stop or the cutoff; ob
 * (NULL but for delta runs' parents, and then folded away) sees each cycle
 * stepped. */
static inline __attribute__((always_inline)) sim_status cycle_loop(closedloop *c, int64_t t, int64_t done,
                                                                   int64_t cutoff, tailwin *tw, int64_t *last_eject,
                                                                   sim_metrics *m, const closedloop_observer *ob,
                                                                   const atomic_int *stop)
{
    olnet *n = c->net;
    const int bound = cutoff < INT64_MAX && !c->p.no_load_bound && c->p.routing == ROUTING_DOR;
    int nh = 0;
    if (bound) {
        memcpy(c->lheap, c->lstart, sizeof *c->lheap * (size_t)c->nloaded);
        nh = c->nloaded;
    }
    int64_t idle = 0;
    while (done < c->to_send) {
        if (n->in_net == 0) t = next_release(n, t);
        if (t >= c->p.max_cycles) return m->stop_cycle = t, SIM_TIMEOUT;
        if (t >= cutoff || (bound && load_exceeds(c, t, cutoff, &nh))) return m->stop_cycle = t, SIM_CUTOFF;
        if (stop && atomic_load_explicit(stop, memory_order_relaxed)) return m->stop_cycle = t, SIM_CUTOFF;
        m->cycles++;
        const int32_t *ids;
        int ndone;
        const int64_t inj0 = c->cl.injected;
        if (ob) ob->before(ob->ctx, n, t);
        const int64_t moved = olnet_step(n, t, &ids, &ndone);
        if (ob) ob->after(ob->ctx, n, t, (int)(moved - (c->cl.injected - inj0)));
        for (int k = 0; k < ndone; k++) tailwin_add(tw, t);
        if (ndone) *last_eject = t;
        done += ndone;
        idle = moved ? 0 : idle + 1;
        if (n->in_net > 0 && idle >= c->p.deadlock_cycles) return m->stop_cycle = t, SIM_DEADLOCK;
        t++;
    }
    return SIM_OK;
}

/* te and max_link_flits from the links. */
static void link_metrics(const closedloop *c, sim_metrics *m)
{
    const ollink *lk = c->cl.links;
    for (int l = 0; l < c->nodes * 4; l++) {
        if (lk[l].first1 && lk[l].last - lk[l].first1 + 2 > m->te) m->te = lk[l].last - lk[l].first1 + 2;
        if (lk[l].flits > m->max_link_flits) m->max_link_flits = lk[l].flits;
    }
}

/* sim/delta.c's measurement steps two runs side by side itself (and the
 * checking build's oracle of delta runs, sim/delta_oracle.c, one): the reset
 * of closedloop_run below, lean, without decisions (written out again so
 * that closedloop_run's code, and its instruction count, stay as they were). */
olnet *closedloop_begin(closedloop *c, const sim_config *cfg)
{
    olnet_clear(c->net);
    queue_packets(c, cfg);
    olnet_configure(c->net, cfg, c->rank);
    memset(c->cl.links, 0, sizeof *c->cl.links * (size_t)c->nodes * 4);
    c->cl.full = 0;
    c->cl.rec = NULL;
    c->cl.lb = c->cl.ir = c->cl.or_ = c->cl.ib = c->cl.ob = c->cl.injected = 0;
    return c->net;
}

/* A run's end: the decisions closed, the metrics from the counts. */
static sim_status run_end(closedloop *c, sim_status st, sim_decisions *rec, const tailwin *tw, int64_t last_eject,
                          int64_t cutoff, sim_metrics *m)
{
    const olnet *n = c->net;
    if (rec) sim_decisions_end(rec, st == SIM_OK);
    c->cl.rec = NULL;
    m->status = st;
    NOCSIM_ASSERT(st != SIM_CUTOFF || m->stop_cycle <= cutoff, "closedloop: a cut run stops by its cutoff");
    NOCSIM_ASSERT(st != SIM_OK || last_eject < cutoff, "closedloop: a finished run ends within its cutoff");
    m->duration = st == SIM_CUTOFF ? cutoff + 1 : last_eject + 1;
    m->late = tailwin_count(tw, last_eject, c->L);
    m->late_sum = tailwin_sum(tw, last_eject, tw->w);
    m->tail_profile = tailwin_profile(tw, last_eject);
    m->flits_injected = c->cl.injected;
    m->flits_ejected = c->cl.injected - n->in_net;
    m->lb = c->cl.lb;
    m->ir = c->cl.ir;
    m->or_ = c->cl.or_;
    m->ib = c->cl.ib;
    m->ob = c->cl.ob;
    link_metrics(c, m);
    return st;
}

static inline __attribute__((always_inline)) sim_status run_with(closedloop *c, const sim_config *cfg, int64_t cutoff,
                                                                 sim_decisions *rec, closedloop_metrics what,
                                                                 sim_metrics *m, const closedloop_observer *ob)
{
    olnet *n = c->net;
    memset(m, 0, sizeof *m);
    m->packets = c->to_send;
    m->idle_nodes = c->idle_nodes;
    /* Under the any-VC rule a grant changes what the port's next VC sees,
     * and under another routing function than dor a header's request may
     * follow the free slots downstream or take an escape VC, which the
     * proofs of sim/decisions.c do not model: nothing recorded. */
    if (rec && (c->p.vc_rule == VCRULE_ANY || c->p.routing != ROUTING_DOR)) {
        sim_decisions_clear(rec);
        rec = NULL;
    }
    /* Checked before the network is touched: a child cut here costs no reset. */
    if (c->to_send && release_bound(c, cfg) > cutoff) {
        if (rec) sim_decisions_clear(rec);
        m->status = SIM_CUTOFF;
        m->duration = cutoff + 1;
        return SIM_CUTOFF;
    }
    olnet_clear(n);
    queue_packets(c, cfg);
    olnet_configure(n, cfg, c->rank);
    memset(c->cl.links, 0, sizeof *c->cl.links * (size_t)c->nodes * 4);
    c->cl.full = what == CL_FULL;
    c->cl.rec = rec;
    c->cl.lb = c->cl.ir = c->cl.or_ = c->cl.ib = c->cl.ob = c->cl.injected = 0;
    if (rec) sim_decisions_start(rec);
    tailwin tw;
    tailwin_reset(&tw, sim_late_sum_window(c->L));
    int64_t last_eject = -1;
    const sim_status st = cycle_loop(c, 0, 0, cutoff, &tw, &last_eject, m, ob, NULL);
    return run_end(c, st, rec, &tw, last_eject, cutoff, m);
}

sim_status closedloop_run(closedloop *c, const sim_config *cfg, int64_t cutoff, sim_decisions *rec,
                          closedloop_metrics what, sim_metrics *m)
{
    return run_with(c, cfg, cutoff, rec, what, m, NULL);
}

sim_status closedloop_run_observed(closedloop *c, const sim_config *cfg, sim_decisions *rec,
                                   const closedloop_observer *ob, sim_metrics *m)
{
    return run_with(c, cfg, INT64_MAX, rec, CL_LEAN, m, ob);
}

int64_t closedloop_release_bound(const closedloop *c, const sim_config *cfg) { return c->to_send ? release_bound(c, cfg) : 0; }

sim_status closedloop_run_resumed(closedloop *c, int64_t cutoff, sim_decisions *rec, const closedloop_resume *from,
                                  sim_metrics *m)
{
    memset(m, 0, sizeof *m);
    m->packets = c->to_send;
    m->idle_nodes = c->idle_nodes;
    m->cycles = from->cycles;
    c->cl.full = 0;
    c->cl.rec = rec;
    c->cl.lb = c->cl.ir = c->cl.or_ = c->cl.ib = c->cl.ob = 0;
    c->cl.injected = from->injected;
    c->net->ndone = 0;
    tailwin tw = from->tw;
    int64_t last_eject = from->last_eject;
    const sim_status st = cycle_loop(c, from->t, from->done, cutoff, &tw, &last_eject, m, NULL, from->stop);
    return run_end(c, st, rec, &tw, last_eject, cutoff, m);
}

closedloop_view closedloop_view_of(const closedloop *c)
{
    return (closedloop_view){ .net = c->net, .first = c->first, .reach = c->reach, .after = c->after,
                              .rank = c->rank, .to_send = c->to_send, .idle_nodes = c->idle_nodes,
                              .S = c->S, .L = c->L };
}

void closedloop_tail_cycles(const closedloop *c, int64_t *out)
{
    for (int i = 0; i < c->nodes; i++)
        for (int s = 0; s < c->S; s++)
            out[(size_t)i * (size_t)c->S + (size_t)s] = c->first[i] < 0 ? -1 : c->net->pk[c->first[i] + s].t_done;
}

void closedloop_link_stats(const closedloop *c, int k, int64_t *first, int64_t *last, int64_t *flits)
{
    const ollink *lk = &c->cl.links[k];
    *first = lk->first1 ? lk->first1 - 1 : -1;
    *last = lk->first1 ? lk->last : -1;
    *flits = lk->flits;
}
