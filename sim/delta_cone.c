/* The cone's cycle of a delta run (see delta_run.h and delta_run.c's
 * opening, which says why each piece is exact): one router's cycle in
 * sim/olnet_fast.c's pieces for the default router, a router's state from
 * the record (the last snapshot, replayed), joins by genes and by the edge,
 * the load bound on the cone's links, the whole-network rules met from the
 * cone and the record, and the patch's logs.  delta_run.c's loop calls it
 * cycle by cycle. */
#include "sim/delta_internal.h"

#include <stdlib.h>

#include "sim/tailwin.h"
#include "util/invariant.h"

/* Room in pt's logs for a child of a T-cycle parent on N routers: the
 * cycles' and snapshots' offsets, and at least `more` entries of the cycle
 * log and a router's worth of the others.  -1 when memory runs out. */
static int grow(void **a, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap) return 0;
    size_t c = *cap ? *cap : 1024;
    while (c < need) c *= 2;
    void *x = realloc(*a, c * size);
    if (!x) return -1;
    *a = x;
    *cap = c;
    return 0;
}

/* Two arrays of one length grown together to hold `need` entries. */
static int grow2(void **a, void **b, size_t *cap, size_t need, size_t sa, size_t sb)
{
    size_t ca = *cap, cb = *cap;
    if (grow(a, &ca, need, sa) || grow(b, &cb, need, sb)) return -1;
    *cap = ca;
    return 0;
}

/* ---- decisions at cone routers (nothing in a replay: e->pt NULL) ---- */

DHOT void log_grant(delta_engine *e, size_t list, unsigned dirs, unsigned granted)
{
    delta_patch *pt = e->pt;
    if (!pt) return;
    if (pt->ngrant == pt->gcap &&
        grow2((void **)&pt->grant, (void **)&pt->gcyc, &pt->gcap, pt->ngrant + 1, sizeof *pt->grant, sizeof *pt->gcyc)) {
        pt->fail = 1;
        return;
    }
    pt->grant[pt->ngrant] = (uint32_t)list << 8 | dirs << 3 | granted;
    pt->gcyc[pt->ngrant++] = (int32_t)e->t_now;
}

DHOT void log_pair(delta_engine *e, unsigned port, unsigned last, unsigned ready)
{
    delta_patch *pt = e->pt;
    const unsigned b = last << DV | ready;
    if (!pt || (e->pseen[port] >> b & 1)) return;
    e->pseen[port] |= 1ull << b;
    if (pt->npev == pt->pevcap &&
        grow2((void **)&pt->pev, (void **)&pt->pcyc, &pt->pevcap, pt->npev + 1, sizeof *pt->pev, sizeof *pt->pcyc)) {
        pt->fail = 1;
        return;
    }
    pt->pev[pt->npev] = port * DPB + b;
    pt->pcyc[pt->npev++] = (int32_t)e->t_now;
}

/* ---- one router's cycle (olnet_fast.c's pieces; V = 3, B = 4, dor,
 * dateline rule, lean) ---- */

/* Queue selection at router i (olnet_fast.c's select_queues and grant). */
DHOT void dl_select(delta_engine *e, olnet *n, int i)
{
    const size_t base = (size_t)i * DNF;
    uint64_t left = n->reqm[i];
    while (left) {
        const int f0 = __builtin_ctzll(left);
        const int dd = n->req_d[base + (size_t)f0], c = n->req_c[base + (size_t)f0];
        uint64_t cand = 1ull << f0;
        for (uint64_t m = left & (left - 1); m; m &= m - 1) {
            const int f = __builtin_ctzll(m);
            if (n->req_d[base + (size_t)f] == dd && n->req_c[base + (size_t)f] == c) cand |= 1ull << f;
        }
        left &= ~cand;
        const int o = dd * DV + c;
        if (n->holder[base + (size_t)o] >= 0) continue;
        unsigned dirs = 0;
        for (uint64_t m = cand; m; m &= m - 1) dirs |= 1u << n->lport[__builtin_ctzll(m)];
        uint8_t *rank = n->qsi + base + (size_t)o;
        const unsigned g = n->qtab[(unsigned)*rank << 5 | dirs];
        *rank = (uint8_t)g;
        const int wp = (int)(g >> 8);
        log_grant(e, base + (size_t)o, dirs, (unsigned)wp);
        const int win = __builtin_ctzll(cand & (((1ull << DV) - 1) << (wp * DV)));
        n->holder[base + (size_t)o] = (int8_t)win;
        n->route[base + (size_t)win] = (int8_t)o;
        n->reqm[i] &= ~(1ull << win);
    }
}

/* VC selection at router i: its moves appended to mv[*nmv]. */
DELTA_TARGET DHOT void dl_vcsel(delta_engine *e, olnet *n, int i, olfmove *mv, int *nmv)
{
    const uint64_t word = dl_live(n, i) & ~n->dfull[i];
    uint64_t below = 0, sh = word;
    for (int j = 1; j < DV; j++) {
        sh = (sh << 1) & n->gnf;
        below |= sh;
    }
    for (uint64_t lead = word & ~below; lead; lead &= lead - 1) {
        const uint32_t g = n->gtab[__builtin_ctzll(lead)]; /* router 0 of a group: port d at bit d * V */
        const unsigned shift = g >> 8 & 255, ready = (unsigned)(word >> shift) & ((1u << DV) - 1);
        const unsigned port = (unsigned)i * NPORTS + (g >> 16 & 255);
        const unsigned st0 = n->pstate[port], st = n->pnext[st0 << DV | ready], c = st >> 8;
        n->pstate[port] = (uint8_t)st;
        if (ready & (ready - 1)) log_pair(e, port, st0 % DV, ready);
        olfmove *m = &mv[(*nmv)++];
        m->node = i;
        m->to = n->nbr[port];
        m->h = (uint8_t)n->holder[(size_t)i * DNF + shift + c];
        m->lo = (uint8_t)((g >> 24) + c);
    }
}

/* Does router i's source inject in cycle t (decide_injections: VC 0 of P
 * for a new packet under dor and the dateline rule)? */
DHOT int dl_injects(olnet *n, int i, int64_t t)
{
    olsource *s = &n->src[i];
    if (!s->count || s->due > t) return 0;
    const size_t pf = ((size_t)i * NPORTS + PORT_P) * DV;
    if (s->seq == 0) {
        if (n->cnt[pf] >= DB) return 0;
        s->vc = 0;
        return 1;
    }
    return n->cnt[pf + (size_t)s->vc] < DB;
}

/* The head of router `node`'s FIFO `local` sent through output VC lo.  A
 * full FIFO's upstream router gets its dfull bit back when it is in the
 * cone (touch; in a replay no other router is touched); a full P FIFO gives
 * its source room (the decisions' rule). */
DHOT uint32_t dl_pop(delta_engine *e, olnet *n, int node, int local, int lo, int touch, int64_t t, int *nh)
{
    const size_t base = (size_t)node * DNF, f = base + (size_t)local, o = base + (size_t)lo;
    uint32_t *q = n->buf + f * DB, x = q[0];
    fifo_shift(q, DB);
    const int left = n->cnt[f] - 1;
    n->cnt[f] = (uint8_t)left;
    if (left == DB - 1) {
        if (n->lport[local] != PORT_P) {
            const int up = n->nbr[node * NPORTS + n->lport[local]];
            if (touch && e->in[up]) n->dfull[up] &= ~(1ull << n->ldown[local]);
        } else if (e->room[node] < 0) {
            e->room[node] = (int32_t)(t + 1);
        }
    }
    const int tail = (int)(FL_TAIL(x) >> 1);
    n->holder[o] = (int8_t)(n->holder[o] | -tail);
    n->route[f] = (int8_t)(n->route[f] | -tail);
    e->hdr[*nh] = (uint32_t)f;
    *nh += (left != 0) & (int)FL_HEAD(q[0]);
    return x;
}

DHOT int dl_push(delta_engine *e, olnet *n, size_t f, uint32_t fl, int *nh)
{
    const int c = n->cnt[f];
    n->buf[f * DB + (size_t)c] = fl;
    n->cnt[f] = (uint8_t)(c + 1);
    e->hdr[*nh] = (uint32_t)f;
    *nh += (c == 0) & (n->route[f] < 0);
    return c + 1;
}

/* A flit from the record's entry en into router i's input port p. */
DHOT void dl_push_entry(delta_engine *e, olnet *n, int i, int p, uint32_t en, int *nh)
{
    dl_push(e, n, (size_t)i * DNF + (size_t)p * DV + (en >> 28), (en & 0x0fffffffu) - 1, nh);
}

/* Router i's source puts its next flit into its P FIFO in cycle t, with the
 * decisions' records of a header and a tail. */
DHOT void dl_inject(delta_engine *e, olnet *n, int i, int64_t t, int *nh)
{
    olsource *s = &n->src[i];
    const int32_t id = s->id[s->head];
    const int len = n->pk[id].len;
    const size_t f = (size_t)i * DNF + PORT_P * DV + (size_t)s->vc;
    dl_push(e, n, f, FL(id, s->seq == 0, s->seq == len - 1), nh);
    if (s->seq == 0 && e->pt) {
        const size_t k = (size_t)i * (size_t)e->S + (size_t)n->pk[id].tag;
        e->pt->entered[k] = (int32_t)t;
        e->pt->could[k] = e->room[i];
    }
    if (s->seq == len - 1) e->room[i] = n->cnt[f] == DB ? -1 : (int32_t)(t + 1);
    olnet_source_sent(n, i, len); /* (its in_net is not the cone's: whole_network counts it afresh) */
}

/* A header new at the head of FIFO f asks for its output (route_header,
 * dor, dateline rule). */
DHOT void dl_route(olnet *n, int on_link, size_t f)
{
    const int node = (int)(f / DNF), local = (int)(f - (size_t)node * DNF);
    const olroute *r = &n->prt[FL_ID(n->buf[f * DB])];
    const int x = n->x[node], px = r->px, py = r->py, dy = node - x != r->row ? py : PORT_P;
    const int d = x != r->col ? px : dy;
    n->req_d[f] = (int8_t)d;
    const int port = n->lport[local];
    const int up = on_link ? d != PORT_P && (n->dl[node] >> d & 1) : port != PORT_P && (n->dl[node] >> (4 + port) & 1);
    n->req_c[f] = (int8_t)(n->lvc[local] + up);
    n->reqm[node] |= 1ull << local;
}

/* A tail the child ejects at a cone router in cycle t. */
DHOT void dl_eject(delta_engine *e, const olnet *n, uint32_t x, int64_t t, tailwin *tw, int64_t *done)
{
    if (!FL_TAIL(x)) return;
    const olnet_packet *pk = &n->pk[FL_ID(x)];
    const size_t k = (size_t)pk->src * (size_t)e->S + (size_t)pk->tag;
    e->tails[k] = t;
    e->pdone[k] = 1;
    tailwin_add(tw, t);
    ++*done;
}

/* ---- a router's state from the record ---- */

/* Router j's packets released as configuration c says. */
static void set_releases(delta_engine *e, olnet *n, int j, const sim_config *c)
{
    const int32_t id0 = e->v.first[j];
    if (id0 < 0) return;
    for (int s = 0; s < e->S; s++) n->pk[id0 + s].t_gen = (int64_t)s * c->interval + c->inject[j];
}

/* Router j alone in the parent's cycle t (a replay): its inputs and its
 * dfull bits at the cycle's end from the record, its links' loads counted. */
DELTA_TARGET static void replay_cycle(delta_engine *e, const delta_rec *r, olnet *n, int j, int64_t t)
{
    const size_t N = (size_t)e->nodes;
    const uint32_t *rl = r->rl + (size_t)t * N * 4;
    int nmv = 0, nh = 0;
    if (n->reqm[j]) dl_select(e, n, j);
    dl_vcsel(e, n, j, e->mv, &nmv);
    const int inj = dl_injects(n, j, t);
    for (int m = 0; m < nmv; m++) {
        const uint32_t x = dl_pop(e, n, j, e->mv[m].h, e->mv[m].lo, 0, t, &nh);
        if (e->mv[m].to >= 0 && FL_HEAD(x)) n->cl->links[(size_t)j * 4 + n->lport[e->mv[m].lo]].flits += e->L;
    }
    for (int p = 0; p < PORT_P; p++) {
        const int i = n->nbr[j * NPORTS + p];
        if (i < 0) continue;
        const uint32_t en = rl[i * 4 + route_opposite(p)];
        if (en) dl_push_entry(e, n, j, p, en, &nh);
    }
    if (inj) dl_inject(e, n, j, t, &nh);
    for (int m = 0; m < nh; m++) dl_route(n, e->on_link, e->hdr[m]);
    n->dfull[j] = r->rf[(size_t)t * N + (size_t)j];
}

/* Router j made what it was in the parent's run at the start of cycle t
 * (the last snapshot, replayed), then given the child's release cycles and
 * the pairs the record met before t.  Nothing is logged meanwhile. */
void cone_restore_parent(delta_engine *e, const delta_rec *r, olnet *n, int j, int64_t t, const sim_config *pc,
                           const sim_config *c)
{
    const int64_t k = t / DK;
    snap_load(n, j, &r->snap[(size_t)k * (size_t)e->nodes + (size_t)j], &e->room[j]);
    delta_patch *pt = e->pt;
    e->pt = NULL;
    set_releases(e, n, j, pc);
    olsource *s = &n->src[j];
    if (s->count) s->due = n->pk[s->id[s->head]].t_gen;
    for (int64_t u = k * DK; u < t; u++) replay_cycle(e, r, n, j, u);
    e->pt = pt;
    set_releases(e, n, j, c);
    if (s->count) s->due = n->pk[s->id[s->head]].t_gen;
    for (int d = 0; d < NPORTS; d++) {
        const size_t port = (size_t)j * NPORTS + (size_t)d;
        uint64_t seen = 0;
        for (uint64_t b = r->pairs[port]; b; b &= b - 1)
            if (r->pfirst[port * DPB + (size_t)__builtin_ctzll(b)] < t) seen |= b & -b;
        e->pseen[port] = seen;
    }
    pt->jt[j] = (int32_t)t;
    for (int k = 0; k < e->S; k++) pt->entered[(size_t)j * (size_t)e->S + (size_t)k] = -1; /* sends nothing */
}

/* Router j's genes are the child's from cycle 0: its VC-selection states
 * and queue-selection ranks as olnet_configure sets them. */
static void configure_router(delta_engine *e, olnet *n, int j, const sim_config *c)
{
    for (int d = 0; d < NPORTS; d++) {
        n->pstate[j * NPORTS + d] = (uint8_t)(c->scheme[j * NPORTS + d] * DV);
        const uint8_t *q = sim_config_q(c, j, d, 0);
        for (int vc = 0; vc < DV; vc++)
            n->qsi[(size_t)j * DNF + (size_t)(d * DV + vc)] = e->v.rank[qsel_index(q + vc * NPORTS)];
    }
}

/* ---- the cone ---- */

/* Router i's dfull bits of port p set from router j's FIFOs at its port q
 * (the one p feeds). */
DHOT void full_from(olnet *n, int i, int p, int j, int q)
{
    const uint8_t *c = n->cnt + (size_t)j * DNF + (size_t)q * DV;
    const uint64_t bits = (uint64_t)(c[0] == DB) | (uint64_t)(c[1] == DB) << 1 | (uint64_t)(c[2] == DB) << 2;
    n->dfull[i] = (n->dfull[i] & ~(7ull << (p * DV))) | bits << (p * DV);
}

/* ---- the load bound on the cone's links (closedloop.c's load_exceeds,
 * with the same heap: keys flits - reach only grow, so a link's key when
 * last looked at is a lower bound of its key now) ---- */


/* Router j's loaded links join the heap, each under its key now. */
static void bound_add(delta_engine *e, const olnet *n, int j)
{
    for (int p = 0; p < PORT_P; p++) {
        const int32_t l = j * 4 + p;
        if (!e->v.reach[l]) continue;
        int k = e->nbh++;
        const int64_t key = (int64_t)n->cl->links[l].flits - e->v.reach[l];
        for (; k > 0 && e->bh[(k - 1) / 2].key > key; k = (k - 1) / 2) e->bh[k] = e->bh[(k - 1) / 2];
        e->bh[k] = (closedloop_lentry){ key, l };
    }
}

/* Does a cone link prove the run longer than cutoff at the start of t?
 * (Only the cone's links can: see the opening.) */
int cone_bound(delta_engine *e, const olnet *n, int64_t t, int64_t cutoff)
{
    closedloop_lentry *h = e->bh;
    while (e->nbh && h[0].key <= t - cutoff) {
        const int32_t l = h[0].link;
        const int64_t rr = (int64_t)e->v.reach[l] - n->cl->links[l].flits; /* R + A */
        if (rr <= e->v.after[l]) { /* nothing left */
            h[0] = h[--e->nbh];
            if (e->nbh) closedloop_heap_down(h, e->nbh, 0);
        } else if (-rr > h[0].key) {
            h[0].key = -rr;
            closedloop_heap_down(h, e->nbh, 0);
        } else {
            return 1;
        }
    }
    return 0;
}

/* The joiners jl[0 .. nj) put in the cone: their dfull bits towards their
 * cone neighbours and back set from the FIFO counts, the edge's ports
 * (emask) updated. */
static void settle_joins(delta_engine *e, olnet *n, const int32_t *jl, int nj)
{
    for (int k = 0; k < nj; k++) {
        const int j = jl[k];
        e->in[j] = 1;
        e->inmask[j / 64] |= 1ull << (j % 64);
        e->flag[j] = 0;
        e->list[e->ncone++] = j;
        bound_add(e, n, j);
    }
    for (int k = 0; k < nj; k++) {
        const int j = jl[k];
        unsigned em = 0;
        for (int p = 0; p < PORT_P; p++) {
            const int i = n->nbr[j * NPORTS + p];
            if (i < 0) continue;
            if (!e->in[i]) {
                em |= 1u << p;
                continue;
            }
            full_from(n, j, p, i, route_opposite(p));
            full_from(n, i, route_opposite(p), j, p);
            e->emask[i] &= (uint8_t)~(1u << route_opposite(p));
        }
        e->emask[j] = (uint8_t)em;
    }
}

/* The cycle each router joins the cone by its genes: 0 for changed schemes
 * or queue orders (or a release at 0), else the first release of a packet
 * whose release changed, in either run; never (INT64_MAX).  The joiners
 * listed by that cycle in rord. */
void cone_release_at(delta_engine *e, const sim_config *a, const sim_config *b)
{
    e->nrord = e->relp = 0;
    for (int i = 0; i < e->nodes; i++) {
        const size_t q = (size_t)i * NPORTS * DV * NPORTS;
        e->rel_at[i] = INT64_MAX;
        if (memcmp(a->scheme + (size_t)i * NPORTS, b->scheme + (size_t)i * NPORTS, NPORTS) ||
            memcmp(a->qorder + q, b->qorder + q, NPORTS * DV * NPORTS)) {
            e->rel_at[i] = -1; /* configured at 0 */
        } else if (e->v.first[i] >= 0) {
            for (int k = 0; k < e->S; k++) {
                const int64_t x = (int64_t)k * a->interval + a->inject[i], y = (int64_t)k * b->interval + b->inject[i];
                if (x != y) {
                    e->rel_at[i] = x < y ? x : y;
                    break;
                }
            }
        }
        if (e->rel_at[i] >= e->t_whole) continue; /* never joins before the whole network takes over */
        int k = e->nrord++;
        for (; k > 0 && e->rel_at[e->rord[k - 1]] > e->rel_at[i]; k--) e->rord[k] = e->rord[k - 1];
        e->rord[k] = i;
    }
}

/* The routers that join at the start of cycle t by their genes. */
void cone_join_released(delta_engine *e, const delta_rec *r, olnet *n, int64_t t, const sim_config *pc,
                          const sim_config *c)
{
    int nj = 0;
    for (; e->relp < e->nrord && e->rel_at[e->rord[e->relp]] <= t; e->relp++) {
        const int i = e->rord[e->relp];
        if (e->in[i]) continue;
        cone_restore_parent(e, r, n, i, t, pc, c);
        if (e->rel_at[i] < 0) configure_router(e, n, i, c);
        e->jl[nj++] = i;
    }
    if (nj) settle_joins(e, n, e->jl, nj);
}

/* The cone routers' activity at the start of cycle t (e->act); 1 if any. */
int cone_activity(delta_engine *e, const olnet *n, int64_t t)
{
    int any = 0;
    for (int k = 0; k < e->ncone; k++) {
        const int i = e->list[k];
        e->act[i] = (uint8_t)dl_active(n, i, t);
        any |= e->act[i];
    }
    return any;
}

/* Cycle t at the cone's routers, the edge's inputs from the record, the
 * tails ejected counted, the outside routers joining at its end listed. */
DELTA_TARGET void cone_step(delta_engine *e, const delta_rec *r, olnet *n, int64_t t, tailwin *tw,
                                   int64_t *done)
{
    const size_t N = (size_t)e->nodes;
    const uint32_t *rl = r->rl + (size_t)t * N * 4;
    const uint16_t *rf = r->rf + (size_t)t * N;
    const int32_t *list = e->list, nc = e->ncone;
    olfmove *mv = e->mv;
    uint32_t *cfl = e->cfl;
    int nmv = 0, ninj = 0, nh = 0;
    for (int k = 0; k < nc; k++) {
        const int i = list[k];
        memset(cfl + (size_t)i * 4, 0, 4 * sizeof *cfl);
        if (n->reqm[i]) dl_select(e, n, i);
        dl_vcsel(e, n, i, mv, &nmv);
        e->inj[ninj] = i;
        ninj += dl_injects(n, i, t);
    }
    for (int k = 0; k < nmv; k++) mv[k].x = dl_pop(e, n, mv[k].node, mv[k].h, mv[k].lo, 1, t, &nh);
    ollink *links = n->cl->links;
    for (int k = 0; k < nmv; k++) {
        const int to = mv[k].to, lo = mv[k].lo, node = mv[k].node;
        const uint32_t x = mv[k].x;
        if (to < 0) {
            dl_eject(e, n, x, t, tw, done);
            continue;
        }
        const int link = node * 4 + n->lport[lo];
        links[link].flits += FL_HEAD(x) ? e->L : 0;
        cfl[link] = entry_of(x, n->lvc[lo]);
        if (e->in[to] && dl_push(e, n, (size_t)to * DNF + n->ldown[lo], x, &nh) == DB) n->dfull[node] |= 1ull << lo;
    }
    /* The edge: flits from outside neighbours, their fullness, and the
     * check that lists the outside neighbours joining at the cycle's end
     * (e->jl): one a cone router sent another flit than the parent's
     * router did, or whose input FIFOs at port p now differ in fullness
     * from the parent's.  Both are final here: a router's out entries are
     * set by the moves above, its port p's FIFOs change only by this push
     * (the injections below fill P's). */
    e->nj = 0;
    for (int k = 0; k < nc; k++) {
        const int i = list[k];
        const unsigned em = e->emask[i];
        if (!em) continue;
        for (unsigned m = em; m; m &= m - 1) {
            const int p = __builtin_ctz(m), j = n->nbr[i * NPORTS + p], q = route_opposite(p);
            const uint32_t en = rl[j * 4 + q];
            if (en) dl_push_entry(e, n, i, p, en, &nh);
            const uint8_t *cp = n->cnt + (size_t)i * DNF + (size_t)p * DV;
            const unsigned full = (unsigned)(cp[0] == DB) | (unsigned)(cp[1] == DB) << 1 | (unsigned)(cp[2] == DB) << 2;
            if ((cfl[i * 4 + p] != rl[i * 4 + p] || full != ((rf[j] >> (q * DV)) & 7u)) && !e->flag[j]) {
                e->flag[j] = 1;
                e->jl[e->nj++] = j;
            }
        }
        const uint64_t eb = e->etab[em];
        n->dfull[i] = (n->dfull[i] & ~eb) | (rf[i] & eb);
    }
    for (int k = 0; k < ninj; k++) dl_inject(e, n, e->inj[k], t, &nh);
    for (int k = 0; k < nh; k++) dl_route(n, e->on_link, e->hdr[k]);
}

/* The routers that join at the end of cycle t (cone_step's e->jl): the parent's
 * state at the cycle's start, then the cycle stepped for each alone, its
 * inputs from the cone's moves and the record, its decisions logged (from t
 * on they are the child's; in t they are also the parent's). */
DELTA_TARGET void cone_join_edge(delta_engine *e, const delta_rec *r, olnet *n, int64_t t, const sim_config *pc,
                                   const sim_config *c)
{
    const size_t N = (size_t)e->nodes;
    const uint32_t *rl = r->rl + (size_t)t * N * 4;
    for (int k = 0; k < e->nj; k++) {
        const int j = e->jl[k];
        cone_restore_parent(e, r, n, j, t, pc, c);
        e->act[j] = (uint8_t)dl_active(n, j, t);
        memcpy(e->cfl + (size_t)j * 4, rl + (size_t)j * 4, 4 * sizeof *e->cfl);
        int nmv = 0, nh = 0;
        if (n->reqm[j]) dl_select(e, n, j);
        dl_vcsel(e, n, j, e->mv, &nmv);
        const int inj = dl_injects(n, j, t);
        /* Its moves are the parent's: the pops change it, the pushes out
         * are the record's already, its ejections counted from it. */
        for (int m = 0; m < nmv; m++) {
            const uint32_t x = dl_pop(e, n, j, e->mv[m].h, e->mv[m].lo, 1, t, &nh);
            if (e->mv[m].to >= 0 && FL_HEAD(x)) n->cl->links[(size_t)j * 4 + n->lport[e->mv[m].lo]].flits += e->L;
        }
        for (int p = 0; p < PORT_P; p++) {
            const int i = n->nbr[j * NPORTS + p];
            if (i < 0) continue;
            const int q = route_opposite(p);
            const uint32_t en = e->in[i] ? e->cfl[i * 4 + q] : rl[i * 4 + q];
            if (en) dl_push_entry(e, n, j, p, en, &nh);
        }
        if (inj) dl_inject(e, n, j, t, &nh);
        for (int m = 0; m < nh; m++) dl_route(n, e->on_link, e->hdr[m]);
        n->dfull[j] = r->rf[(size_t)t * N + (size_t)j];
    }
    settle_joins(e, n, e->jl, e->nj);
}

/* The parent's tails of cycle t at routers outside the cone (in it while t
 * was stepped: the cycle's joiners ejected the parent's) are the child's. */
void cone_outside_ejections(delta_engine *e, const delta_rec *r, int64_t t, tailwin *tw, int64_t *done)
{
    for (int32_t k = r->ej_off[t]; k < r->ej_off[t + 1]; k++) {
        const int src = r->ej[k] / e->S;
        if (e->in[e->dest[src]]) continue;
        e->pdone[r->ej[k]] = 1;
        tailwin_add(tw, t);
        ++*done;
    }
}

/* Cycle t's entries of the patch: each cone router's links, dfull and
 * activity; at a snapshot's cycle, the cone routers' states at its start
 * (before). */
int cone_log_cycle(delta_engine *e, const olnet *n, int64_t t)
{
    delta_patch *pt = e->pt;
    pt->co[t] = (int32_t)pt->nce;
    if (pt->nce + (size_t)e->ncone > pt->cecap &&
        grow((void **)&pt->ce, &pt->cecap, pt->nce + (size_t)e->ncone, sizeof *pt->ce))
        return -1;
    for (int k = 0; k < e->ncone; k++) {
        const int i = e->list[k];
        pcycle *x = &pt->ce[pt->nce++];
        x->node = i;
        memcpy(x->out, e->cfl + (size_t)i * 4, sizeof x->out);
        x->dfull = (uint16_t)n->dfull[i];
        x->act = e->act[i];
    }
    pt->co[t + 1] = (int32_t)pt->nce;
    return 0;
}

int cone_log_snapshot(delta_engine *e, const olnet *n, int64_t t)
{
    delta_patch *pt = e->pt;
    const int k = (int)(t / DK);
    pt->so[k] = (int32_t)pt->nss;
    const size_t need = pt->nss + (size_t)e->ncone;
    if (need > pt->sscap &&
        grow2((void **)&pt->ss, (void **)&pt->snode, &pt->sscap, need, sizeof *pt->ss, sizeof *pt->snode))
        return -1;
    for (int j = 0; j < e->ncone; j++) {
        const int i = e->list[j];
        snap_save(n, i, e->room[i], &pt->ss[pt->nss]);
        pt->snode[pt->nss++] = i;
    }
    pt->so[k + 1] = (int32_t)pt->nss;
    pt->sk = k + 1;
    return 0;
}

/* ---- the whole-network rules, from the cone and the record ---- */

/* Is a router outside the cone active at the start of cycle t (t < T)? */
int cone_outside_active(const delta_engine *e, const delta_rec *r, int64_t t)
{
    const uint64_t *pa = r->pact + (size_t)t * (size_t)r->W;
    for (int w = 0; w < r->W; w++)
        if (pa[w] & ~e->inmask[w]) return 1;
    return 0;
}

/* Where closedloop.c's jump over an idle stretch from cycle t lands: the
 * earliest release of a queued packet (only cone routers' sources are left
 * once the parent is done). */
int64_t cone_next_release(const delta_engine *e, const olnet *n, int64_t t)
{
    int64_t next = INT64_MAX;
    for (int k = 0; k < e->ncone; k++) {
        const olsource *s = &n->src[e->list[k]];
        if (s->count && s->due < next) next = s->due;
    }
    NOCSIM_ASSERT(next != INT64_MAX && next > t, "delta: an idle network past its parent's end has a release due");
    return next;
}

