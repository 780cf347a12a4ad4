/* Delta runs (see delta_run.h): a child stepped on its cone, the rest read
 * from its parent's record (sim/delta_rec.c).  The step is the fast path's
 * (sim/olnet_fast.c) for the default router, router by router over the
 * cone's list; measured first as the prototype of data/delta_ceiling.md.
 *
 * Why a router outside the cone needs no stepping, and what the cone reads:
 *  - A router's decisions in cycle t (queue selection, VC selection, the
 *    injection) read only its own state at the cycle's start, dfull
 *    included; so a router whose state is the parent's sends what the
 *    parent's sent, which the record holds (flit and VC per link).
 *  - A neighbour changes a router's state only by the flit it pushes in and
 *    by its own FIFO counts, which dfull mirrors.  So a cone router's dfull
 *    bits towards an outside neighbour are the parent's (the record's), and
 *    an outside router j joins the cone at the end of cycle t exactly when a
 *    cone neighbour sent it another flit than the record says, or its FIFOs'
 *    fullness (j's dfull towards it) is not the record's (the edge check).
 *  - A router joining at the end of t held the parent's state at the
 *    cycle's start: the last snapshot before t, stepped alone to t on the
 *    record's inputs (a replay), gives it; then cycle t is stepped again for
 *    it, its inputs from its cone neighbours' moves and the record.  Its own
 *    outputs in t were the parent's (its decisions read only its start
 *    state), so nothing already stepped changes.
 *  - A router whose only changed genes are its release cycles joins at the
 *    start of the first cycle such a packet is released in either run,
 *    holding the parent's state then with the child's release cycles; one
 *    whose VC-selection schemes or queue orders changed is in the cone from
 *    cycle 0 with its initial state under the child's genes.
 *  - A packet whose tail the child ejects outside the cone ejects when the
 *    parent's did (the record's tail cycles).
 *  - The run's other rules read the whole network and are met from the
 *    record: a cycle is stepped (counted in `cycles`) when a router is
 *    active, which outside the cone is the record's activity; the load bound
 *    of closedloop.c cannot prove anything on a link whose sender is outside
 *    the cone when the cutoff is the parent's duration (its load is the
 *    parent's, and the parent ended within it), so only the cone's links are
 *    checked.  Children with another cutoff, or a watchdog or time-out
 *    that could fire before the cutoff, are not run here.
 *  - Once a child's cone passes half the network the whole network is
 *    cheaper: the routers outside are restored from the record (the
 *    parent's state then is theirs) and the fast engine goes on from the
 *    next cycle, with the child's decisions so far spliced from the parent's
 *    and the cone's.  A child whose interval changed moves every node's
 *    later slices, so it goes on to the whole network at the last snapshot
 *    before the earliest of them (no replay needed there).
 * The cone's cycle itself is sim/delta_cone.c's.  The checking build
 * runs every child in full beside its cone too and checks this reasoning
 * every cycle (sim/delta_oracle.c, through the DELTA_CHECK hooks). */
#include "sim/delta_internal.h"

#include <stdlib.h>

#include "sim/tailwin.h"
#include "util/invariant.h"

int delta_supports(const sim_params *p)
{
    return p->routing == ROUTING_DOR && p->vc_rule == VCRULE_DATELINE && p->vcs == DV && p->buffer == DB &&
           !p->reference_only && closedloop_supports(p);
}

/* ---- engine and patch ---- */

void delta_engine_free(delta_engine *e)
{
    if (!e) return;
    closedloop_free(e->cl);
    DELTA_CHECK(delta_oracle_free(e->orc));
    free(e->dest);
    free(e->ppairs);
    free(e->in);
    free(e->inmask);
    free(e->list);
    free(e->emask);
    free(e->rord);
    free(e->rel_at);
    free(e->flag);
    free(e->jl);
    free(e->act);
    free(e->cfl);
    free(e->mv);
    free(e->inj);
    free(e->hdr);
    free(e->room);
    free(e->pseen);
    free(e->tails);
    free(e->pdone);
    free(e->bh);
    free(e);
}

delta_engine *delta_engine_new(const sim_params *p, const int32_t *dest)
{
    delta_engine *e = calloc(1, sizeof *e);
    if (!e) return NULL;
    e->p = *p;
    e->nodes = sim_nodes(p);
    e->S = p->slices;
    e->L = p->flits;
    e->W = (e->nodes + 63) / 64;
    e->npk = (int64_t)e->nodes * e->S;
    e->on_link = sim_route_params(p).dateline == DATELINE_ON_LINK;
    const size_t N = (size_t)e->nodes;
    e->dest = malloc(sizeof *e->dest * N);
    e->cl = closedloop_new(p, dest, 0);
    e->ppairs = malloc(sizeof *e->ppairs * N * NPORTS);
    e->in = calloc(N, 1);
    e->inmask = calloc((size_t)e->W, sizeof *e->inmask);
    e->list = malloc(sizeof *e->list * N);
    e->emask = calloc(N, 1);
    e->rord = malloc(sizeof *e->rord * N);
    e->rel_at = malloc(sizeof *e->rel_at * N);
    e->flag = calloc(N, 1);
    e->jl = malloc(sizeof *e->jl * N);
    e->act = calloc(N, 1);
    e->cfl = calloc(N * 4, sizeof *e->cfl);
    e->mv = malloc(sizeof *e->mv * N * NPORTS);
    e->inj = malloc(sizeof *e->inj * N);
    e->hdr = malloc(sizeof *e->hdr * N * (DNF + 1));
    e->room = malloc(sizeof *e->room * N);
    e->pseen = malloc(sizeof *e->pseen * N * NPORTS);
    e->tails = malloc(sizeof *e->tails * (size_t)e->npk);
    e->pdone = malloc((size_t)e->npk);
    e->bh = malloc(sizeof *e->bh * N * 4);
    if (!e->pdone || !e->bh || !e->dest || !e->cl || !e->ppairs || !e->in || !e->inmask || !e->list || !e->emask || !e->rord ||
        !e->rel_at || !e->flag || !e->jl || !e->act || !e->cfl || !e->mv || !e->inj || !e->hdr || !e->room ||
        !e->pseen || !e->tails) {
        delta_engine_free(e);
        return NULL;
    }
    memcpy(e->dest, dest, sizeof *e->dest * N);
    e->v = closedloop_view_of(e->cl);
    for (int m = 0; m < 16; m++)
        for (int q = 0; q < PORT_P; q++)
            if (m >> q & 1) e->etab[m] |= (uint16_t)(7u << (q * DV));
    return e;
}

void delta_engine_stop_on(delta_engine *e, const atomic_int *stop) { e->stop = stop; }

/* Has the child been withdrawn (delta_engine_stop_on)? */
static int stopped(const delta_engine *e) { return e->stop && atomic_load_explicit(e->stop, memory_order_relaxed); }

delta_patch *delta_patch_new(const sim_params *p)
{
    delta_patch *pt = calloc(1, sizeof *pt);
    if (!pt) return NULL;
    pt->nodes = sim_nodes(p);
    pt->S = p->slices;
    const size_t N = (size_t)pt->nodes, npk = N * (size_t)pt->S;
    pt->jt = malloc(sizeof *pt->jt * N);
    pt->cone = malloc(sizeof *pt->cone * N);
    pt->entered = malloc(sizeof *pt->entered * npk);
    pt->could = malloc(sizeof *pt->could * npk);
    pt->tails = malloc(sizeof *pt->tails * npk);
    if (!pt->jt || !pt->cone || !pt->entered || !pt->could || !pt->tails) {
        delta_patch_free(pt);
        return NULL;
    }
    return pt;
}

void delta_patch_free(delta_patch *pt)
{
    if (!pt) return;
    free(pt->jt);
    free(pt->cone);
    free(pt->co);
    free(pt->ce);
    free(pt->so);
    free(pt->ss);
    free(pt->snode);
    free(pt->grant);
    free(pt->gcyc);
    free(pt->pev);
    free(pt->pcyc);
    free(pt->entered);
    free(pt->could);
    free(pt->tails);
    free(pt);
}

static int patch_room(delta_patch *pt, int64_t T)
{
    if (T + 2 > pt->cocap) {
        int32_t *co = realloc(pt->co, sizeof *co * (size_t)(T + 2));
        if (!co) return -1;
        pt->co = co;
        pt->cocap = T + 2;
    }
    const int ns = (int)(T / DK + 2);
    if (ns > pt->socap) {
        int32_t *so = realloc(pt->so, sizeof *so * (size_t)ns);
        if (!so) return -1;
        pt->so = so;
        pt->socap = ns;
    }
    return 0;
}

/* ---- a child ---- */

/* The cone empty, the logs empty, the parent's tails the child's. */
static int child_start(delta_engine *e, const delta_rec *r, delta_patch *pt, const sim_config *pc,
                       const sim_config *c)
{
    if (patch_room(pt, r->T)) return -1;
    const size_t N = (size_t)e->nodes;
    memset(e->in, 0, N);
    memset(e->flag, 0, N);
    memset(e->inmask, 0, sizeof *e->inmask * (size_t)e->W);
    memset(pt->jt, -1, sizeof *pt->jt * N);
    e->ncone = 0;
    e->nbh = 0;
    pt->nce = pt->nss = pt->ngrant = pt->npev = 0;
    pt->sk = 0;
    pt->fail = 0;
    e->pt = pt;
    memcpy(e->tails, r->tails, sizeof *e->tails * (size_t)e->npk);
    memset(e->pdone, 0, (size_t)e->npk);
    cone_release_at(e, pc, c);
    return 0;
}

/* The run's end: the metrics as closedloop_run's (lean), and the patch. */
static void child_end(delta_engine *e, const delta_rec *r, delta_patch *pt, sim_status st, const tailwin *tw,
                      int64_t last_eject, int64_t cutoff, sim_metrics *m, int64_t *tails)
{
    m->status = st;
    m->duration = st == SIM_CUTOFF ? cutoff + 1 : last_eject + 1;
    m->late = tailwin_count(tw, last_eject, e->L);
    m->late_sum = tailwin_sum(tw, last_eject, tw->w);
    m->tail_profile = tailwin_profile(tw, last_eject);
    pt->oncone = 1;
    pt->st = st;
    pt->gen = r->gen;
    pt->ncone = e->ncone;
    memcpy(pt->cone, e->list, sizeof *pt->cone * (size_t)e->ncone);
    e->pt = NULL;
    if (st != SIM_OK) return;
    m->flits_injected = m->flits_ejected = e->v.to_send * e->L;
    m->max_link_flits = r->max_link_flits;
    pt->T = m->duration;
    memcpy(pt->tails, e->tails, sizeof *pt->tails * (size_t)e->npk);
    if (tails) memcpy(tails, e->tails, sizeof *tails * (size_t)e->npk);
}

/* Would closedloop.c stop the run at the start of cycle t, and where? */
static int stops_at(delta_engine *e, const delta_rec *r, const olnet *n, int64_t t, int64_t cutoff, int bound,
                    sim_metrics *m)
{
    const int stepped = cone_activity(e, n, t) || (t < r->T && cone_outside_active(e, r, t));
    if (!stepped) {
        if (t < cutoff) return 0;
        m->stop_cycle = cone_next_release(e, n, t);
        return 1;
    }
    if (t >= cutoff || (bound && cone_bound(e, n, t, cutoff))) {
        m->stop_cycle = t;
        return 1;
    }
    m->cycles++;
    return 0;
}

/* ---- from the cone to the whole network ---- */

/* The network made the child's at the start of cycle t for the fast engine
 * to go on from: the routers outside the cone restored to the parent's
 * state then (which is the child's: none of them joined), the packets done
 * so far marked, the counts of the network and its sources summed up in *at
 * (with t, done, last_eject and cycles the caller's). */
static void whole_network(delta_engine *e, const delta_rec *r, const sim_config *pc, const sim_config *c, int64_t t,
                          closedloop_resume *at)
{
    olnet *n = e->v.net;
    for (int j = 0; j < e->nodes; j++)
        if (!e->in[j]) cone_restore_parent(e, r, n, j, t, pc, c);
    int64_t in_net = 0, injected = 0;
    for (size_t f = 0; f < (size_t)e->nodes * DNF; f++) in_net += n->cnt[f];
    for (int i = 0; i < e->nodes; i++) {
        const int32_t id0 = e->v.first[i];
        if (id0 < 0) continue;
        const olsource *s = &n->src[i];
        injected += (int64_t)(e->S - s->count) * e->L + s->seq;
        for (int k = 0; k < e->S; k++) {
            const size_t x = (size_t)i * (size_t)e->S + (size_t)k;
            n->pk[id0 + k].t_done = e->pdone[x] ? e->tails[x] : -1;
        }
    }
    n->in_net = in_net;
    at->t = t;
    at->injected = injected;
}

/* The child's decisions made before cycle t (every router's now in pt->jt:
 * outside the cone, t) into d, for the fast engine to go on recording. */
static void decisions_so_far(delta_engine *e, const delta_rec *r, const sim_decisions *pd, sim_decisions *d)
{
    delta_splice_decisions(d, NULL, pd, r, e->pt);
    memcpy(d->room, e->room, sizeof *d->room * (size_t)e->nodes);
    d->known = 0;
    d->overflow = 0;
}

/* Child c, stepped on its cone to the end of cycle t - 1, goes on from t on
 * the whole network (the fast engine), recording its decisions in d. */
static void go_whole(delta_engine *e, const delta_rec *r, const sim_config *pc, const sim_decisions *pd,
                     const sim_config *c, int64_t t, int64_t cutoff, sim_decisions *d, closedloop_resume *at,
                     sim_metrics *m, int64_t *tails)
{
    delta_patch *pt = e->pt;
    whole_network(e, r, pc, c, t, at);
    DELTA_CHECK(delta_oracle_whole(e, t, at->injected));
    if (d) decisions_so_far(e, r, pd, d);
    e->pt = NULL;
    pt->oncone = 0;
    const sim_status st = closedloop_run_resumed(e->cl, cutoff, d, at, m);
    NOCSIM_ASSERT(st == SIM_OK || st == SIM_CUTOFF, "delta: a child on the whole network finishes or is cut");
    if (st == SIM_OK && tails) closedloop_tail_cycles(e->cl, tails);
}

int delta_run_child(delta_engine *e, const sim_config *pc, const delta_rec *r, const sim_decisions *pd,
                    const sim_config *c, int64_t cutoff, sim_decisions *d, delta_patch *pt, sim_metrics *m,
                    int64_t *tails)
{
    olnet *n = e->v.net;
    pt->oncone = 0;
    if (!r->valid || cutoff != r->T || !n->simd || e->p.deadlock_cycles < cutoff || e->p.max_cycles <= cutoff)
        return 0;
    memset(m, 0, sizeof *m);
    m->packets = e->v.to_send;
    m->idle_nodes = e->v.idle_nodes;
    closedloop_resume at = { .stop = e->stop };
    tailwin_reset(&at.tw, sim_late_sum_window(e->L));
    if (e->v.to_send && closedloop_release_bound(e->cl, c) > cutoff) {
        e->ncone = 0;
        child_end(e, r, pt, SIM_CUTOFF, &at.tw, -1, cutoff, m, tails);
        if (d) sim_decisions_clear(d);
        return 1;
    }
    if ((e->t_whole = delta_whole_from(e->v.first, e->nodes, e->S, pc, c)) == 0) return 0;
    if (child_start(e, r, pt, pc, c)) return 0;
    DELTA_CHECK(delta_oracle_begin(e, c));
    const int bound = !e->p.no_load_bound;
    int64_t done = 0, last_eject = -1;
    for (int64_t t = 0;; t++) {
        e->t_now = t;
        if (stopped(e)) { /* withdrawn: the results are not read */
            child_end(e, r, pt, SIM_CUTOFF, &at.tw, last_eject, cutoff, m, tails);
            return 1;
        }
        if (t == e->t_whole && t < cutoff) {
            at.done = done;
            at.last_eject = last_eject;
            at.cycles = m->cycles;
            go_whole(e, r, pc, pd, c, t, cutoff, d, &at, m, tails);
            return 1;
        }
        cone_join_released(e, r, n, t, pc, c);
        DELTA_CHECK(delta_oracle_before(e, r, t));
        if (stops_at(e, r, n, t, cutoff, bound, m)) {
            child_end(e, r, pt, SIM_CUTOFF, &at.tw, last_eject, cutoff, m, tails);
            return 1;
        }
        if (t % DK == 0 && cone_log_snapshot(e, n, t)) pt->fail = 1;
        const int64_t d0 = done;
        cone_step(e, r, n, t, &at.tw, &done);
        cone_outside_ejections(e, r, t, &at.tw, &done);
        if (done > d0) last_eject = t;
        cone_join_edge(e, r, n, t, pc, c);
        if (cone_log_cycle(e, n, t)) pt->fail = 1;
        DELTA_CHECK(delta_oracle_after(e, r, t));
        if (done == e->v.to_send) {
            child_end(e, r, pt, SIM_OK, &at.tw, last_eject, cutoff, m, tails);
            return 1;
        }
        /* Past half the network the whole one is cheaper: it goes on from
         * the next cycle (a cycle of the record, before the cutoff). */
        if (delta_cone_past_half(e->ncone, e->nodes) && t + 1 < cutoff) {
            at.done = done;
            at.last_eject = last_eject;
            at.cycles = m->cycles;
            go_whole(e, r, pc, pd, c, t + 1, cutoff, d, &at, m, tails);
            return 1;
        }
    }
}

int delta_patch_on_cone(const delta_patch *pt) { return pt->oncone; }

int64_t delta_whole_from(const int32_t *first, int nodes, int S, const sim_config *pc, const sim_config *c)
{
    if (c->interval == pc->interval || S < 2) return INT64_MAX;
    int64_t tv = INT64_MAX;
    for (int i = 0; i < nodes; i++) {
        if (first[i] < 0) continue;
        const int64_t x = (int64_t)pc->interval + pc->inject[i], y = (int64_t)c->interval + c->inject[i];
        const int64_t u = x < y ? x : y;
        if (u < tv) tv = u;
    }
    return tv == INT64_MAX ? INT64_MAX : tv / DK * DK;
}
