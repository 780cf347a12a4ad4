/* The open-loop network's fast path (see olnet.h): the reference path's
 * cycle (olnet.c) with the work proportional to the flits that move.
 *
 * Why each piece gives the reference's run exactly:
 *  - `dfull` holds, per router, the output VCs whose downstream FIFO is
 *    full.  It changes only while moves are applied (a push fills a FIFO,
 *    a pop empties a slot of a full one), so during the decisions it is the
 *    start-of-cycle state the reference compares counts against, and a
 *    port's ready VCs are its live VCs minus dfull.
 *  - A live output VC is held by a FIFO that has a flit.  With at most
 *    three VCs (a router's 15 FIFOs fit in 16 bytes) on a CPU with SSSE3,
 *    the live VCs are found when the cycle's ready words are built, with
 *    one byte shuffle of a router's counts by its holders (live_ssse3):
 *    pops and pushes then keep no live mask, 11 % faster on the default
 *    router.  Otherwise `livem` is kept up to date by every grant, pop and
 *    push.  The tests run both ways against the reference.
 *  - A header's output port is the X port of its packet's route until the
 *    router's column is the destination's, then the Y port (olroute), which
 *    is what route_grid_port gives at every router of a dimension-order
 *    route; its VC follows route_next's dateline rule, read from per-router
 *    dateline bits.
 *  - VC selection is a state machine on a port's byte (scheme * V + last
 *    grant): one table look-up gives the next state and, in its high byte,
 *    the VC granted.
 *  - Queue selection keeps each order as its rank (qsel_rank): one look-up
 *    in qsel_table's table gives the winning direction and the next order,
 *    with no loop whose length the traffic decides (3 % faster than
 *    qsel_pick and qsel_update_order on the five bytes).
 *  - Only nodes with queued packets (srcm) are asked whether they inject.
 *  - Moves are recorded in the reference's order (router, then port) and
 *    applied in its order (pops, pushes, injections), so the packets that
 *    finish are listed in the same order too. */
#include "sim/olnet_internal.h"

/* Everything below is inlined into one step function per instantiation
 * (olnet_step_fast), so that V, B and the way live masks are found are
 * constants in each. */
#define HOT static inline __attribute__((always_inline))

#ifdef OLNET_SSSE3
#include <tmmintrin.h>

/* The live output VCs of one router with NF <= 16, from its FIFO counts
 * and holders: byte o of the shuffle is cnt[holder[o]] (0 where holder[o]
 * is -1, whose high bit makes the shuffle give 0).  Reads 16 bytes from
 * each array (olnet_new leaves the slack); bits from NF up are the next
 * router's and are the caller's to clear. */
__attribute__((target("ssse3"))) static inline uint64_t live_ssse3(const uint8_t *cnt, const int8_t *holder)
{
    const __m128i c = _mm_loadu_si128((const __m128i *)(const void *)cnt);
    const __m128i h = _mm_loadu_si128((const __m128i *)(const void *)holder);
    const __m128i held = _mm_shuffle_epi8(c, h);
    return ~(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(held, _mm_setzero_si128())) & 0xffffu;
}
#endif

/* The network's arrays and sizes as locals: copied once a cycle, they stay
 * in registers, where through `n` every byte store would make the compiler
 * read the pointers again. */
typedef struct {
    uint32_t *buf;
    uint8_t *cnt, *pstate, *qsi;
    const uint16_t *qtab;
    int8_t *route, *holder, *req_d, *req_c;
    uint64_t *reqm, *livem, *dfull;
    const int32_t *nbr, *x;
    uint32_t *hdr;
    const olroute *prt;
    const uint8_t *dl, *lport, *lvc, *ldown;
    const uint16_t *pnext;
    const uint32_t *gtab;
    uint64_t gnf;
    int V, B, NF, any, on_link;
    int simd;             /* 1: live masks found by live_ssse3, livem not kept */
} fview;

static fview view_of(olnet *n)
{
    return (fview){ .buf = n->buf, .cnt = n->cnt, .pstate = n->pstate, .qsi = n->qsi, .qtab = n->qtab,
                    .route = n->route, .holder = n->holder, .req_d = n->req_d, .req_c = n->req_c,
                    .reqm = n->reqm, .livem = n->livem, .dfull = n->dfull, .nbr = n->nbr,
                    .x = n->x, .hdr = n->hdr, .prt = n->prt, .dl = n->dl, .lport = n->lport, .lvc = n->lvc, .ldown = n->ldown,
                    .pnext = n->pnext, .gtab = n->gtab, .gnf = n->gnf, .V = n->V, .B = n->B, .NF = n->NF,
                    .any = n->p.vc_rule == VCRULE_ANY, .on_link = n->p.rp.dateline == DATELINE_ON_LINK };
}

/* The header fl is new at the head of FIFO f (local index `local` of router
 * `node`): it asks for its output from now on. */
HOT void route_header(const fview *v, int node, size_t f, int local, uint32_t fl)
{
    const olroute *r = &v->prt[FL_ID(fl)];
    int x = v->x[node];
    /* Both ports read first, so that the choice compiles to conditional
     * moves: which leg a header is on is random (2 % faster). */
    const int px = r->px, py = r->py, dy = node - x != r->row ? py : PORT_P;
    int d = x != r->col ? px : dy;
    v->req_d[f] = (int8_t)d;
    if (v->any) {
        v->req_c[f] = -1;
    } else {
        int port = v->lport[local], up;
        if (v->on_link) up = d != PORT_P && (v->dl[node] >> d & 1);
        else up = port != PORT_P && (v->dl[node] >> (4 + port) & 1);
        v->req_c[f] = (int8_t)(v->lvc[local] + up);
    }
    v->reqm[node] |= 1ull << local;
}

/* Output VC o (local) of router `node` grants one of the requests in cand
 * (local FIFO bits): the first direction of its order that requests, that
 * direction's lowest VC (the reference's arbitrate). */
HOT int grant(const fview *v, int node, int o, uint64_t cand)
{
    const int V = v->V;
    size_t base = (size_t)node * (size_t)v->NF;
    unsigned dirs = 0;
    for (uint64_t m = cand; m; m &= m - 1) dirs |= 1u << v->lport[__builtin_ctzll(m)];
    uint8_t *rank = v->qsi + base + (size_t)o;
    const unsigned e = v->qtab[(unsigned)*rank << 5 | dirs];
    *rank = (uint8_t)e;
    const int wp = (int)(e >> 8);
    int win = __builtin_ctzll(cand & (((1ull << V) - 1) << (wp * V)));
    v->holder[base + (size_t)o] = (int8_t)win;
    v->route[base + (size_t)win] = (int8_t)o;
    v->reqm[node] &= ~(1ull << win);
    if (!v->simd) v->livem[node] |= 1ull << o;
    return win;
}

/* Step 1 at one router: under the dateline rule each waiting header asks
 * for one output VC; under the any-VC rule the free VCs of each port grant
 * in ascending order among the requests for the port. */
HOT void select_queues(const fview *v, int node)
{
    const int V = v->V;
    size_t base = (size_t)node * (size_t)v->NF;
    uint64_t left = v->reqm[node];
    while (left) {
        int f0 = __builtin_ctzll(left);
        int d = v->req_d[base + (size_t)f0], c = v->req_c[base + (size_t)f0];
        uint64_t cand = 1ull << f0;
        for (uint64_t m = left & (left - 1); m; m &= m - 1) {
            int f = __builtin_ctzll(m);
            if (v->req_d[base + (size_t)f] == d && v->req_c[base + (size_t)f] == c) cand |= 1ull << f;
        }
        left &= ~cand;
        if (!v->any) {
            if (v->holder[base + (size_t)(d * V + c)] < 0) grant(v, node, d * V + c, cand);
            continue;
        }
        for (int k = 0; k < V && cand; k++)
            if (v->holder[base + (size_t)(d * V + k)] < 0) cand &= ~(1ull << grant(v, node, d * V + k, cand));
    }
}

/* Steps 1 and 2 at every router with flits: the moves of the cycle.  Queue
 * selection runs first at every router with a waiting header (it changes
 * only its own router's state, so the order of routers is free).  Then the
 * ready output VCs of 64 / NF routers are packed into one word, and the
 * lowest ready bit of each port (its lead) is walked in order (router, then
 * port): the walk's end is one branch a word, not one a router, and the only
 * work carried from one move to the next is clearing one bit of the leads
 * (walking the ready bits and clearing a port's at a time put a table
 * look-up on that chain: 10 % slower). */
HOT int decide_moves(olnet *n, const fview *v)
{
    const int V = v->V, NF = v->NF, nodes = n->nodes, G = 64 / NF;
    const uint64_t vmask = (1ull << V) - 1;
    olfmove *mv = n->fmv;
    int nmv = 0;
    /* The routers with a waiting header are listed without a branch (a
     * branch a router mispredicts on random traffic: 3 % slower), in inj,
     * which decide_injections fills only afterwards. */
    int32_t *wait = n->inj;
    int nw = 0;
    for (int i = 0; i < nodes; i++) {
        wait[nw] = i;
        nw += v->reqm[i] != 0;
    }
    for (int k = 0; k < nw; k++) select_queues(v, wait[k]);
    for (int g0 = 0; g0 < nodes; g0 += G) {
        const int gn = nodes - g0 < G ? nodes - g0 : G;
        uint64_t word = 0;
        for (int k = 0; k < gn; k++) {
            int i = g0 + k;
            uint64_t live;
#ifdef OLNET_SSSE3
            if (v->simd)
                live = live_ssse3(v->cnt + (size_t)i * (size_t)NF, v->holder + (size_t)i * (size_t)NF) &
                       ((1ull << NF) - 1);
            else
#endif
                live = v->livem[i];
            word |= (live & ~v->dfull[i]) << (k * NF);
        }
        /* A ready bit is below another of its port when a shift by 1 .. V - 1
         * that stays within the port (gnf) lands on it. */
        uint64_t below = 0, sh = word;
        for (int j = 1; j < V; j++) {
            sh = (sh << 1) & v->gnf;
            below |= sh;
        }
        for (uint64_t lead = word & ~below; lead; lead &= lead - 1) {
            uint32_t e = v->gtab[__builtin_ctzll(lead)];
            const unsigned shift = e >> 8 & 255, ready = (unsigned)(word >> shift) & vmask;
            const unsigned port = (unsigned)g0 * NPORTS + (e >> 16 & 255);
            const unsigned st = v->pnext[(unsigned)v->pstate[port] << V | ready], c = st >> 8;
            v->pstate[port] = (uint8_t)st;
            olfmove *m = &mv[nmv++];
            m->node = g0 + (int)(e & 255);
            m->to = v->nbr[port];
            m->h = (uint8_t)v->holder[(size_t)g0 * (size_t)NF + shift + c];
            m->lo = (uint8_t)((e >> 24) + c);
        }
    }
    return nmv;
}
/* Step 3: the nodes that inject a flit this cycle, against the P FIFOs as
 * they were at its start (the reference's decide_injections). */
HOT int decide_injections(olnet *n, const fview *v, int64_t t)
{
    const int V = v->V, B = v->B;
    int ninj = 0;
    for (int w = 0; w < (n->nodes + 63) / 64; w++)
        for (uint64_t m = n->srcm[w]; m; m &= m - 1) {
            int i = w * 64 + __builtin_ctzll(m);
            olsource *s = &n->src[i];
            if (n->pk[s->id[s->head]].t_gen > t) continue;
            size_t pf = ((size_t)i * NPORTS + PORT_P) * (size_t)V;
            if (s->seq == 0) {
                int c = -1;
                if (n->p.vc_rule == VCRULE_DATELINE) {
                    if (n->cnt[pf] < B) c = 0;
                } else {
                    for (int k = 1; k <= V && c < 0; k++) {
                        int v = s->last_vc + k < V ? s->last_vc + k : s->last_vc + k - V;
                        if (n->cnt[pf + (size_t)v] < B) c = v;
                    }
                }
                if (c < 0) continue;
                s->vc = c;
            } else if (n->cnt[pf + (size_t)s->vc] >= B) {
                continue;
            }
            n->inj[ninj++] = i;
        }
    return ninj;
}

/* Put flit fl into FIFO f of router `node`.  Into an empty FIFO that still
 * holds an output VC (mid-packet) the flit makes the VC live again; into any
 * other empty FIFO it is a header, and f joins hdr[*nh] (see step).  The
 * masks are updated without branching on what the traffic decides (as in
 * pop): more instructions, less time on this machine. */
HOT int push(const fview *v, int node, size_t f, uint32_t fl, int *nh)
{
    const int B = v->B;
    int c = v->cnt[f];
    v->buf[f * (size_t)B + (size_t)c] = fl;
    v->cnt[f] = (uint8_t)(c + 1);
    int r = v->route[f];
    if (!v->simd) v->livem[node] |= (uint64_t)((c == 0) & (r >= 0)) << (r & 63);
    v->hdr[*nh] = (uint32_t)f;
    *nh += (c == 0) & (r < 0);
    return c + 1;
}

/* Take the head flit out of router `node`'s local FIFO `local`, sent through
 * its local output VC lo; returns it.  When a header comes to the head, the
 * FIFO joins hdr[*nh].  The new head slot is read even when the FIFO is now
 * empty (a stale flit of its own, not looked at then). */
HOT uint32_t pop(const fview *v, int node, int local, int lo, int *nh)
{
    const int B = v->B;
    const size_t base = (size_t)node * (size_t)v->NF, f = base + (size_t)local, o = base + (size_t)lo;
    uint32_t *q = v->buf + f * (size_t)B, x = q[0];
    fifo_shift(q, B);
    int left = v->cnt[f] - 1;
    v->cnt[f] = (uint8_t)left;
    if (left == B - 1 && v->lport[local] != PORT_P) {
        /* It was full: the output VC feeding it may send again. */
        int up = v->nbr[node * NPORTS + v->lport[local]];
        v->dfull[up] &= ~(1ull << v->ldown[local]);
    }
    /* A tail frees the output VC; a tail or the last flit leaves it idle. */
    int tail = (int)(FL_TAIL(x) >> 1);
    if (!v->simd) v->livem[node] &= ~(1ull << lo & -(uint64_t)(tail | (left == 0)));
    v->holder[o] = (int8_t)(v->holder[o] | -tail);
    v->route[f] = (int8_t)(v->route[f] | -tail);
    uint32_t next = q[0];
    v->hdr[*nh] = (uint32_t)f;
    *nh += (left != 0) & (int)FL_HEAD(next);
    return x;
}

/* One cycle with V VCs and B-flit FIFOs, live masks found by live_ssse3
 * (simd) or kept in livem. */
HOT int64_t step(olnet *n, int64_t t, int V, int B, int simd)
{
    fview view = view_of(n);
    view.V = V;
    view.B = B;
    view.simd = simd;
    view.NF = NPORTS * V;
    const fview *v = &view;
    const int NF = v->NF;
    const int nmv = decide_moves(n, v), ninj = decide_injections(n, v, t);
    olfmove *mv = n->fmv;
    int nh = 0;
    for (int k = 0; k < nmv; k++) mv[k].x = pop(v, mv[k].node, mv[k].h, mv[k].lo, &nh);
    n->ndone = 0;
    for (int k = 0; k < nmv; k++) {
        const int to = mv[k].to;
        if (to >= 0) {
            const int lo = mv[k].lo, local = v->ldown[lo];
            if (push(v, to, (size_t)to * (size_t)NF + (size_t)local, mv[k].x, &nh) == B) v->dfull[mv[k].node] |= 1ull << lo;
            continue;
        }
        olnet_eject(n, mv[k].x, t);
    }
    for (int k = 0; k < ninj; k++) {
        int i = n->inj[k];
        olsource *s = &n->src[i];
        int32_t id = s->id[s->head];
        int local = PORT_P * V + s->vc;
        if (s->seq == 0) n->pk[id].t_inj = t;
        int len = n->pk[id].len;
        push(v, i, (size_t)i * (size_t)NF + (size_t)local, FL(id, s->seq == 0, s->seq == len - 1), &nh);
        olnet_source_sent(n, i, len);
    }
    /* The headers new at a FIFO's head ask for their outputs only now:
     * listed without a branch, they cost no mispredicted branch a move
     * (9 % faster than routing each as its pop or push found it).  Nothing
     * in between reads a request, and a FIFO is listed at most once (a pop
     * leaves it with flits, a push lists only an empty one). */
    for (int k = 0; k < nh; k++) {
        const size_t f = v->hdr[k];
        const int node = (int)(f / (size_t)NF);
        route_header(v, node, f, (int)(f - (size_t)node * (size_t)NF), head_flit(n, f));
    }
    return nmv + ninj;
}

#ifdef NOCSIM_CHECK
/* The checking build (make check builds one with -DNOCSIM_CHECK): after
 * every cycle the fast path's state is walked against what it stands for,
 * and a run that breaks a rule aborts with the cycle, the router, the local
 * index and the rule. */
#include <stdio.h>
#include <stdlib.h>

static void invariant_broken(int64_t t, int i, int k, const char *rule)
{
    fprintf(stderr, "nocsim: open-loop invariant broken in cycle %lld at router %d, index %d: %s\n", (long long)t, i, k,
            rule);
    abort();
}

static void check_invariants(const olnet *n, int64_t t)
{
    const int V = n->V, B = n->B, NF = n->NF;
    int64_t flits = 0;
    for (int i = 0; i < n->nodes; i++) {
        const size_t base = (size_t)i * (size_t)NF;
        if ((n->reqm[i] | (n->simd ? 0 : n->livem[i]) | n->dfull[i]) >> NF) invariant_broken(t, i, -1, "a mask bit beyond the local indices");
        for (int l = 0; l < NF; l++) {
            /* FIFO l of router i: its flits, its request, its output VC. */
            const size_t f = base + (size_t)l;
            const int c = n->cnt[f], r = n->route[f], waits = (int)(n->reqm[i] >> l & 1);
            /* Without livem (simd), live is what live_ssse3 finds. */
            const int live = r >= 0 && (n->simd ? c > 0 : (int)(n->livem[i] >> r & 1));
            flits += c;
            if (c > B) invariant_broken(t, i, l, "a FIFO holds more than B flits");
            if (waits && r >= 0) invariant_broken(t, i, l, "a FIFO both waits for an output VC (reqm) and holds one");
            if (r >= 0 && n->holder[base + (size_t)r] != l) invariant_broken(t, i, l, "a FIFO's output VC is held by another");
            if ((c > 0) != (waits || live))
                invariant_broken(t, i, l, "a FIFO is non-empty but neither in reqm nor live, or in one of them but empty");
            if (waits && !FL_HEAD(head_flit(n, f))) invariant_broken(t, i, l, "a FIFO in reqm has no header at its head");
            /* Output VC l of router i: its holder and its downstream FIFO. */
            const int h = n->holder[f], d = n->lport[l];
            if (h >= 0 && n->route[base + (size_t)h] != l) invariant_broken(t, i, l, "an output VC's holder routes elsewhere");
            const int to = d == PORT_P ? -1 : n->nbr[i * NPORTS + d];
            const int full = to >= 0 && n->cnt[(size_t)to * (size_t)NF + (size_t)(route_opposite(d) * V + n->lvc[l])] == B;
            if (full != (int)(n->dfull[i] >> l & 1)) invariant_broken(t, i, l, "dfull does not match the downstream FIFO");
        }
        const int queued = n->src[i].count > 0;
        if (queued != (int)(n->srcm[i / 64] >> (i % 64) & 1)) invariant_broken(t, i, -1, "srcm does not match the source queue");
    }
    if (flits != n->in_net) invariant_broken(t, -1, -1, "the FIFOs do not hold the flits in the network");
}
#endif

#ifdef OLNET_SSSE3
/* The SSSE3 instantiations: the target attribute lets live_ssse3 inline. */
__attribute__((target("ssse3"), noinline)) static int64_t step_ssse3_34(olnet *n, int64_t t)
{
    return step(n, t, 3, 4, 1);
}
__attribute__((target("ssse3"), noinline)) static int64_t step_ssse3(olnet *n, int64_t t)
{
    return step(n, t, n->V, n->B, 1);
}
#endif

int64_t olnet_step_fast(olnet *n, int64_t t)
{
    int64_t moved;
    /* The defaults (model.md: three VCs of four flits) get their own. */
#ifdef OLNET_SSSE3
    if (n->simd) moved = n->V == 3 && n->B == 4 ? step_ssse3_34(n, t) : step_ssse3(n, t);
    else
#endif
        moved = n->V == 3 && n->B == 4 ? step(n, t, 3, 4, 0) : step(n, t, n->V, n->B, 0);
#ifdef NOCSIM_CHECK
    check_invariants(n, t);
#endif
    return moved;
}
