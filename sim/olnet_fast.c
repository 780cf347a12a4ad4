/* The open-loop network's fast path (see olnet.h): the reference path's
 * cycle (olnet.c) with the work proportional to the flits that move.  It is
 * nocsim's one fast engine: open-loop curves step it directly, and every
 * closed-loop run (sim_run, the GA, stacking, replays) steps it through
 * sim/closedloop.c, with the extras such a run needs compiled in (CL below).
 * Checked against olnet.c's reference path (tests/test_olnet.c,
 * fuzz_olnet) and, for closed-loop runs, against sim/sim.c's transcription
 * of the model (tests/test_closedloop.c, fuzz_engines, test_decisions).
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
#include "sim/decisions_rec.h"
#include "util/invariant.h"

/* Everything below is inlined into one step function per instantiation
 * (olnet_step_fast), so that V, B and the way live masks are found are
 * constants in each. */
#define HOT static inline __attribute__((always_inline))

/* What a step does beside the open-loop cycle (its CL argument, a constant
 * in each instantiation, so an open-loop or lean step compiles without the
 * rest): CL_ON, a closed-loop run's link flits and injections (olclosed);
 * CL_REC, its decisions (cl->rec is not NULL); CL_ALL, its metrics lb, ir,
 * or_, ib, ob and links' first and last cycles. */
enum { CL_ON = 1, CL_REC = 2, CL_ALL = 4 };
/* XT, a step's other constant: 1 in the instantiations that also do what
 * open-loop runs may ask beside the model's router, router timing (n->tm)
 * and VC rotation (vc_rotate), each looked up at run time there; 0 in the
 * others, which compile without either (a branch for rotation alone in the
 * default step cost 4 % of its instructions: callgrind, 16x16 uniform). */

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
    routing_kind rk;      /* the routing function: dor from olroute, any other from router/ */
    const uint8_t *clo, *chi; /* the VC classes' ranges (olnet) */
    const olnet *net;     /* for any_vc_at (vc_rotate) and olnet_vc_free */
    uint64_t amask;       /* n->amask: output VCs granted only into an empty FIFO */
    int rotate;           /* p.vc_rotate */
    int V, B, NF, any, on_link;
    int simd;             /* 1: live masks found by live_ssse3, livem not kept */
    olclosed *cl;         /* a closed-loop run's extras (instantiations with CL set) */
    const olnet_packet *pk;
} fview;

static fview view_of(olnet *n)
{
    return (fview){ .buf = n->buf, .cnt = n->cnt, .pstate = n->pstate, .qsi = n->qsi, .qtab = n->qtab,
                    .route = n->route, .holder = n->holder, .req_d = n->req_d, .req_c = n->req_c,
                    .reqm = n->reqm, .livem = n->livem, .dfull = n->dfull, .nbr = n->nbr,
                    .x = n->x, .hdr = n->hdr, .prt = n->prt, .dl = n->dl, .lport = n->lport, .lvc = n->lvc, .ldown = n->ldown,
                    .pnext = n->pnext, .gtab = n->gtab, .gnf = n->gnf, .rk = n->p.routing, .clo = n->clo,
                    .chi = n->chi, .V = n->V, .B = n->B, .NF = n->NF,
                    .any = n->p.vc_rule == VCRULE_ANY, .on_link = n->p.rp.dateline == DATELINE_ON_LINK,
                    .cl = n->cl, .pk = n->pk, .net = n, .rotate = n->vlast != NULL, .amask = n->amask };
}

/* The header fl is new at the head of FIFO f (local index `local` of router
 * `node`): it asks for its output from now on. */
/* A header's request under a routing function other than dor: the
 * reference's, olnet_request_routed (not inlined: off the hot path of dor). */
static void route_header_fn(olnet *n, int node, size_t f, int local, uint32_t fl)
{
    olnet_request_routed(n, node, f, local, fl);
}

HOT void route_header(olnet *n, const fview *v, int node, size_t f, int local, uint32_t fl)
{
    if (v->rk != ROUTING_DOR) {
        route_header_fn(n, node, f, local, fl);
        return;
    }
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
HOT int grant(const fview *v, int node, int o, uint64_t cand, int CL)
{
    const int V = v->V;
    size_t base = (size_t)node * (size_t)v->NF;
    unsigned dirs = 0;
    for (uint64_t m = cand; m; m &= m - 1) dirs |= 1u << v->lport[__builtin_ctzll(m)];
    NOCSIM_ASSERT(v->holder[base + (size_t)o] < 0, "olnet grant: an output VC has one holder");
    uint8_t *rank = v->qsi + base + (size_t)o;
    const unsigned e = v->qtab[(unsigned)*rank << 5 | dirs];
    *rank = (uint8_t)e;
    const int wp = (int)(e >> 8);
    if ((CL & CL_REC)) sim_decisions_grant(v->cl->rec, base + (size_t)o, dirs, (unsigned)wp);
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
/* A closed-loop run's slice of the packet whose flit heads FIFO f. */
HOT int head_slice(const fview *v, size_t f) { return v->pk[FL_ID(v->buf[f * (size_t)v->B])].tag; }

/* Closed-loop metrics of queue selection: each request left waiting (bits
 * of `lost`) against each grant of its port (bits of `won`), in order (ir:
 * the waiting one is of a later slice) or out of it (or_). */
HOT void count_lost(const fview *v, size_t base, uint64_t lost, uint64_t won)
{
    for (; lost; lost &= lost - 1) {
        const int ls = head_slice(v, base + (size_t)__builtin_ctzll(lost));
        for (uint64_t w = won; w; w &= w - 1) {
            const int ws = head_slice(v, base + (size_t)__builtin_ctzll(w));
            v->cl->ir += ls > ws;
            v->cl->or_ += ls < ws;
        }
    }
}

/* olnet_vc_free with the common case inline: an output VC outside amask
 * (every VC but min-adaptive's adaptive ones) is free when no packet holds
 * it; AM, a constant in each copy of the queue selection, is 0 when amask
 * is (decide_moves picks the copy once a cycle).  Through olnet_vc_free
 * alone the default GA evaluation ran 3.0 % more instructions, with the
 * amask test inline 2.2 % (callgrind, bench --only eval --count 16). */
HOT int vc_free(const fview *v, int node, size_t base, int o, int AM)
{
    if (v->holder[base + (size_t)o] >= 0) return 0;
    return !AM || !(v->amask >> o & 1) || olnet_vc_free(v->net, node, o);
}

/* The any-VC rule's grants of port d's class cls under vc_rotate [R-VC-6]:
 * from the VC after the port's last grant, going round. */
static void select_rotating(const fview *v, int node, int d, int cls, uint64_t *cand, uint64_t *won, int CL, int AM)
{
    const size_t base = (size_t)node * (size_t)v->NF, port = (size_t)node * NPORTS + (size_t)d;
    for (int j = 0; j < v->chi[cls] - v->clo[cls] && *cand; j++) {
        const int k = any_vc_at(v->net, port, v->clo[cls], v->chi[cls], j);
        if (vc_free(v, node, base, d * v->V + k, AM)) {
            const uint64_t w = 1ull << grant(v, node, d * v->V + k, *cand, CL);
            v->net->vlast[port] = (uint8_t)k;
            *cand &= ~w;
            *won |= w;
        }
    }
}

HOT void select_queues(const fview *v, int node, int CL, int XT, int AM)
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
            if (vc_free(v, node, base, d * V + c, AM)) {
                const uint64_t won = 1ull << grant(v, node, d * V + c, cand, CL);
                if ((CL & CL_ALL)) count_lost(v, base, cand & ~won, won);
            }
            continue;
        }
        uint64_t won = 0;
        const int cls = -1 - c; /* the any-VC rule's request: a class */
        if (XT && v->rotate) {
            select_rotating(v, node, d, cls, &cand, &won, CL, AM);
        } else {
            for (int k = v->clo[cls]; k < v->chi[cls] && cand; k++)
                if (vc_free(v, node, base, d * V + k, AM)) {
                    const uint64_t w = 1ull << grant(v, node, d * V + k, cand, CL);
                    cand &= ~w;
                    won |= w;
                }
        }
        if ((CL & CL_ALL)) count_lost(v, base, cand, won);
    }
}

/* Then min-adaptive's escapes (the reference's queue_selection_escape). */
static void select_escapes(olnet *n, const fview *v, int node)
{
    const size_t base = (size_t)node * (size_t)v->NF;
    for (uint64_t left = escape_waiting(n, node, base); left;) {
        int o;
        const uint64_t same = escape_group(n, base, &left, &o);
        if (v->holder[base + (size_t)o] < 0) grant(v, node, o, same, 0);
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
/* The ports of a packed word (see decide_moves) with a bit in x: their
 * lowest bits. */
HOT uint64_t port_leads(const fview *v, uint64_t x)
{
    uint64_t below = 0, sh = x;
    for (int j = 1; j < v->V; j++) {
        sh = (sh << 1) & v->gnf;
        below |= sh;
    }
    return x & ~below;
}

/* Closed-loop metrics and decisions of a VC selection at `port` that had a
 * choice: st0 its state before, `ready` its ready VCs, c the one picked,
 * o0 its first output VC and base its router's first FIFO.  The pair (last
 * grant, ready VCs) is recorded, and the packet of each other ready VC is
 * in order (ib: of a later slice) or out of it (ob) against the one sent. */
HOT void vc_choice(const fview *v, unsigned port, unsigned st0, unsigned ready, unsigned c, int CL, size_t o0,
                   size_t base)
{
    if ((CL & CL_REC)) sim_decisions_vcsel(v->cl->rec, port, st0 % (unsigned)v->V, ready);
    if (!(CL & CL_ALL)) return;
    const int ws = head_slice(v, base + (size_t)v->holder[o0 + c]);
    for (unsigned others = ready & ~(1u << c); others; others &= others - 1) {
        const int ls = head_slice(v, base + (size_t)v->holder[o0 + (size_t)__builtin_ctz(others)]);
        v->cl->ib += ls > ws;
        v->cl->ob += ls < ws;
    }
}

/* The ready output VCs of routers g0 .. g0 + gn - 1 packed into *word (and,
 * for CL_ALL, their live ones into *lw), NF bits a router. */
HOT void group_words(const fview *v, int g0, int gn, uint64_t *word, uint64_t *lw, int CL)
{
    const int NF = v->NF;
    for (int k = 0; k < gn; k++) {
        int i = g0 + k;
        uint64_t live;
#ifdef OLNET_SSSE3
        if (v->simd)
            live = live_ssse3(v->cnt + (size_t)i * (size_t)NF, v->holder + (size_t)i * (size_t)NF) & ((1ull << NF) - 1);
        else
#endif
            live = v->livem[i];
        *word |= (live & ~v->dfull[i]) << (k * NF);
        if ((CL & CL_ALL)) *lw |= live << (k * NF);
    }
}

HOT int decide_moves(olnet *n, const fview *v, int CL, int XT)
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
    if (v->amask)
        for (int k = 0; k < nw; k++) select_queues(v, wait[k], CL, XT, 1);
    else
        for (int k = 0; k < nw; k++) select_queues(v, wait[k], CL, XT, 0);
    if (n->req_d2)
        for (int k = 0; k < nw; k++)
            if (v->reqm[wait[k]]) select_escapes(n, v, wait[k]);
    for (int g0 = 0; g0 < nodes; g0 += G) {
        uint64_t word = 0, lw = 0;
        /* A whole group's count is a constant, so its loop unrolls (5 % fewer
         * instructions on the default router). */
        if (g0 + G <= nodes) group_words(v, g0, G, &word, &lw, CL);
        else group_words(v, g0, nodes - g0, &word, &lw, CL);
        /* A ready bit is below another of its port when a shift by 1 .. V - 1
         * that stays within the port (gnf) lands on it. */
        const uint64_t leads = port_leads(v, word);
        /* lb: the ports with a live VC but none ready. */
        if ((CL & CL_ALL)) v->cl->lb += __builtin_popcountll(port_leads(v, lw)) - __builtin_popcountll(leads);
        for (uint64_t lead = leads; lead; lead &= lead - 1) {
            uint32_t e = v->gtab[__builtin_ctzll(lead)];
            const unsigned shift = e >> 8 & 255, ready = (unsigned)(word >> shift) & vmask;
            const unsigned port = (unsigned)g0 * NPORTS + (e >> 16 & 255);
            const unsigned st0 = v->pstate[port], st = v->pnext[st0 << V | ready], c = st >> 8;
            v->pstate[port] = (uint8_t)st;
            olfmove *m = &mv[nmv++];
            m->node = g0 + (int)(e & 255);
            m->to = v->nbr[port];
            m->h = (uint8_t)v->holder[(size_t)g0 * (size_t)NF + shift + c];
            m->lo = (uint8_t)((e >> 24) + c);
            if ((CL & (CL_REC | CL_ALL)) && (ready & (ready - 1)))
                vc_choice(v, port, st0, ready, c, CL, (size_t)g0 * (size_t)NF + shift, (size_t)m->node * (size_t)NF);
        }
    }
    return nmv;
}
/* Step 3: the nodes that inject a flit this cycle, against the P FIFOs as
 * they were at its start (the reference's decide_injections). */
HOT int decide_injections(olnet *n, const fview *v, int64_t t)
{
    const int V = v->V, B = v->B;
    const uint8_t *occ = n->occ; /* cnt, or under router timing what the source counts taken */
    int ninj = 0;
    for (int w = 0; w < (n->nodes + 63) / 64; w++)
        for (uint64_t m = n->srcm[w]; m; m &= m - 1) {
            int i = w * 64 + __builtin_ctzll(m);
            olsource *s = &n->src[i];
            if (s->due > t) continue;
            size_t pf = ((size_t)i * NPORTS + PORT_P) * (size_t)V;
            if (s->seq == 0) {
                int c = -1;
                const unsigned vcs = inject_vcs(n, s->id[s->head]);
                if (n->p.vc_rule == VCRULE_DATELINE) {
                    if (occ[pf + (size_t)__builtin_ctz(vcs)] < B) c = __builtin_ctz(vcs);
                } else {
                    unsigned room = 0;
                    for (int k = 0; k < V; k++) room |= (unsigned)(occ[pf + (size_t)k] < B) << k;
                    c = inject_vc_next(room & vcs, s->last_vc, V);
                }
                if (c < 0) continue;
                s->vc = c;
            } else if (occ[pf + (size_t)s->vc] >= B) {
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
    NOCSIM_ASSERT(c < B, "olnet push: a FIFO holds at most B flits");
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
HOT uint32_t pop(olnet *n, const fview *v, int node, int local, int lo, int *nh, int64_t t, int CL, int XT)
{
    const int B = v->B;
    const size_t base = (size_t)node * (size_t)v->NF, f = base + (size_t)local, o = base + (size_t)lo;
    uint32_t *q = v->buf + f * (size_t)B, x = q[0];
    fifo_shift(q, B);
    int left = v->cnt[f] - 1;
    v->cnt[f] = (uint8_t)left;
    if (XT && n->tm) {
        olnet_timing_popped(n, f, t); /* the sender sees the slot when its credit comes back */
    } else if (left == B - 1 && v->lport[local] != PORT_P) {
        /* It was full: the output VC feeding it may send again. */
        int up = v->nbr[node * NPORTS + v->lport[local]];
        v->dfull[up] &= ~(1ull << v->ldown[local]);
    } else if ((CL & CL_REC) && left == B - 1) {
        sim_decisions_room(v->cl->rec, node, t); /* a full P FIFO has room again */
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
/* A closed-loop run's link statistics of flit x crossing router `node`'s
 * output port d in cycle t (see ollink). */
HOT void link_crossed(const fview *v, int node, int d, uint32_t x, int64_t t, int CL)
{
    ollink *lk = &v->cl->links[(size_t)node * 4 + (size_t)d];
    if (FL_HEAD(x)) {
        lk->flits += v->cl->L;
        if ((CL & CL_ALL) && !lk->first1) lk->first1 = (int32_t)t + 1;
    } else if ((CL & CL_ALL) && FL_TAIL(x)) {
        lk->last = (int32_t)t;
    }
}

/* A closed-loop run's decisions at an injection into FIFO f of node i's
 * source: a header's cycle, and whether a tail left the P FIFO full. */
HOT void injected(const fview *v, int i, size_t f, uint32_t x, int64_t t)
{
    if (FL_HEAD(x)) sim_decisions_header(v->cl->rec, i, v->pk[FL_ID(x)].tag, t);
    if (FL_TAIL(x)) sim_decisions_tail(v->cl->rec, i, t, v->cnt[f] == v->B);
}

/* Under router timing, the end of cycle t: the flits sent S + L (a
 * router's) or L (a source's) cycles ago land (the reference's timing_cycle_end), the credits due come back. */
HOT void timing_land(olnet *n, const fview *v, int64_t t, int *nh)
{
    oltiming *tm = n->tm;
    if (tm->Lo) {
        const int s = (int)(t % (tm->Lo + 1));
        const olflight *fl = tm->fl + (size_t)s * (size_t)tm->flcap;
        for (int k = 0; k < tm->nfl[s]; k++) {
            if (fl[k].f >= 0) push(v, fl[k].f / v->NF, (size_t)fl[k].f, fl[k].x, nh);
            else olnet_eject(n, fl[k].x, t);
        }
        tm->nfl[s] = 0;
    }
    olnet_timing_credits_due(n, t);
    tm->next = t + 1;
}

/* The cycle's moves applied under router timing: each sent flit
 * counted taken at its FIFO now and landing S + L cycles later (or now). */
HOT void apply_timed(olnet *n, const fview *v, int nmv, int64_t t, int *nh)
{
    const olfmove *mv = n->fmv;
    const int L = n->tm->Lo;
    for (int k = 0; k < nmv; k++) {
        const int to = mv[k].to;
        int32_t f = -1;
        if (to >= 0) {
            f = (int32_t)((size_t)to * (size_t)v->NF + v->ldown[mv[k].lo]);
            olnet_timing_sent(n, mv[k].node, mv[k].lo, (size_t)f);
            if (n->link_flits) n->link_flits[(size_t)mv[k].node * 4 + v->lport[mv[k].lo]]++;
        }
        if (L) olnet_timing_fly(n, f, mv[k].x, t, L);
        else if (f >= 0) push(v, to, (size_t)f, mv[k].x, nh);
        else olnet_eject(n, mv[k].x, t);
    }
}

HOT int64_t step(olnet *n, int64_t t, int V, int B, int simd, int CL, int XT)
{
    fview view = view_of(n);
    view.V = V;
    view.B = B;
    view.simd = simd;
    view.NF = NPORTS * V;
    const fview *v = &view;
    const int NF = v->NF;
    const int nmv = decide_moves(n, v, CL, XT), ninj = decide_injections(n, v, t);
    const int TM = XT && n->tm != NULL;
    olfmove *mv = n->fmv;
    uint64_t *const lf = n->link_flits;
    int nh = 0;
    for (int k = 0; k < nmv; k++) mv[k].x = pop(n, v, mv[k].node, mv[k].h, mv[k].lo, &nh, t, CL, XT);
    n->ndone = 0;
    if (TM) apply_timed(n, v, nmv, t, &nh);
    else
        for (int k = 0; k < nmv; k++) {
            const int to = mv[k].to;
            if (to >= 0) {
                const int lo = mv[k].lo, local = v->ldown[lo];
                if (push(v, to, (size_t)to * (size_t)NF + (size_t)local, mv[k].x, &nh) == B) v->dfull[mv[k].node] |= 1ull << lo;
                if (CL) link_crossed(v, mv[k].node, v->lport[lo], mv[k].x, t, CL);
                if (lf) lf[(size_t)mv[k].node * 4 + v->lport[lo]]++;
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
        const uint32_t x = FL(id, s->seq == 0, s->seq == len - 1);
        const size_t f = (size_t)i * (size_t)NF + (size_t)local;
        if (TM) olnet_timing_sent(n, i, -1, f);
        if (TM && n->tm->Li) olnet_timing_fly(n, (int32_t)f, x, t, n->tm->Li);
        else push(v, i, f, x, &nh);
        if ((CL & CL_REC)) injected(v, i, f, x, t);
        olnet_source_sent(n, i, len);
    }
    if (CL) v->cl->injected += ninj;
    if (TM) timing_land(n, v, t, &nh);
    /* The headers new at a FIFO's head ask for their outputs only now:
     * listed without a branch, they cost no mispredicted branch a move
     * (9 % faster than routing each as its pop or push found it).  Nothing
     * in between reads a request, and a FIFO is listed at most once (a pop
     * leaves it with flits, a push lists only an empty one).  Under a
     * router delay, the headers listed D cycles ago instead. */
    const uint32_t *hl = v->hdr;
    if (TM && n->tm->D) hl = olnet_timing_headers(n, t, v->hdr, nh, &nh);
    for (int k = 0; k < nh; k++) {
        const size_t f = hl[k];
        const int node = (int)(f / (size_t)NF);
        route_header(n, v, node, f, (int)(f - (size_t)node * (size_t)NF), head_flit(n, f));
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

/* Under router timing: the FIFOs whose header waits out its router delay
 * (a byte each, in pend), the flits on links (returned), and, in taken,
 * the sender's view each FIFO should have (flits on their way + credits
 * not yet back; the caller adds cnt). */
static int64_t timing_pending(const olnet *n, uint8_t *pend, int *taken)
{
    const oltiming *tm = n->tm;
    int64_t flying = 0;
    for (int s = 0; s <= tm->D && tm->D; s++)
        for (int k = 0; k < tm->nhd[s]; k++) pend[tm->hd[(size_t)s * (size_t)tm->hdcap + (size_t)k]] = 1;
    for (int s = 0; s <= tm->Lo && tm->Lo; s++)
        for (int k = 0; k < tm->nfl[s]; k++) {
            const int32_t f = tm->fl[(size_t)s * (size_t)tm->flcap + (size_t)k].f;
            flying++;
            if (f >= 0) taken[f]++;
        }
    for (int s = 0; s <= tm->C && tm->C; s++)
        for (int k = 0; k < tm->ncr[s]; k++) taken[tm->cr[(size_t)s * (size_t)tm->crcap + (size_t)k]]++;
    return flying;
}

static void check_invariants(const olnet *n, int64_t t)
{
    const int V = n->V, B = n->B, NF = n->NF;
    const size_t nf = (size_t)n->nodes * (size_t)NF;
    uint8_t *pend = n->tm ? calloc(nf, 1) : NULL;
    int *taken = n->tm ? calloc(nf, sizeof *taken) : NULL;
    if (n->tm && (!pend || !taken)) invariant_broken(t, -1, -1, "memory for the check");
    int64_t flits = n->tm ? timing_pending(n, pend, taken) : 0;
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
            const int pending = pend && pend[f];
            if (c > B) invariant_broken(t, i, l, "a FIFO holds more than B flits");
            if (waits && r >= 0) invariant_broken(t, i, l, "a FIFO both waits for an output VC (reqm) and holds one");
            if (r >= 0 && n->holder[base + (size_t)r] != l) invariant_broken(t, i, l, "a FIFO's output VC is held by another");
            if ((c > 0) != (waits || live || pending))
                invariant_broken(t, i, l, "a FIFO is non-empty but neither in reqm, live nor in its router delay, or "
                                          "in one of them but empty");
            if (pending && (waits || r >= 0 || !FL_HEAD(head_flit(n, f))))
                invariant_broken(t, i, l, "a FIFO in its router delay holds a header that neither waits nor has an output");
            if (taken && n->tm->ucnt[f] != c + taken[f])
                invariant_broken(t, i, l, "the sender's count is not the flits, those on their way and the credits out");
            if (waits && !FL_HEAD(head_flit(n, f))) invariant_broken(t, i, l, "a FIFO in reqm has no header at its head");
            /* Output VC l of router i: its holder and its downstream FIFO. */
            const int h = n->holder[f], d = n->lport[l];
            if (h >= 0 && n->route[base + (size_t)h] != l) invariant_broken(t, i, l, "an output VC's holder routes elsewhere");
            const int to = d == PORT_P ? -1 : n->nbr[i * NPORTS + d];
            const int full = to >= 0 && n->occ[(size_t)to * (size_t)NF + (size_t)(route_opposite(d) * V + n->lvc[l])] == B;
            if (full != (int)(n->dfull[i] >> l & 1)) invariant_broken(t, i, l, "dfull does not match the downstream FIFO");
            /* Min-adaptive's adaptive VCs (its last class, found here apart
             * from amask) are granted with their downstream FIFO empty
             * (olnet_vc_free): while held, it holds only the holder's
             * packet [R-RF-12]. */
            if (h >= 0 && to >= 0 && routing_info_of(n->p.routing)->escape && n->lcls[l] == n->K - 1) {
                const size_t df = (size_t)to * (size_t)NF + (size_t)(route_opposite(d) * V + n->lvc[l]);
                const size_t hf = base + (size_t)h;
                int32_t id = n->cnt[hf] ? FL_ID(head_flit(n, hf)) : -1;
                for (int k = 0; k < n->cnt[df]; k++) {
                    const int32_t x = FL_ID(n->buf[df * (size_t)B + (size_t)k]);
                    if (id < 0) id = x;
                    else if (x != id)
                        invariant_broken(t, i, l, "a held adaptive VC's downstream FIFO holds another packet's flits");
                }
            }
        }
        const int queued = n->src[i].count > 0;
        if (queued != (int)(n->srcm[i / 64] >> (i % 64) & 1)) invariant_broken(t, i, -1, "srcm does not match the source queue");
        if (queued && n->src[i].due != n->pk[n->src[i].id[n->src[i].head]].t_gen)
            invariant_broken(t, i, -1, "a source's due cycle is not its head packet's");
    }
    if (flits != n->in_net) invariant_broken(t, -1, -1, "the FIFOs and links do not hold the flits in the network");
    free(pend);
    free(taken);
}
#endif

/* The instantiations: SSSE3 or not (the target attribute lets live_ssse3
 * inline), the default router (three VCs of four flits, [R-NET-4]) or any
 * size, and each mode of CL a closed-loop run may ask for.  The default
 * router gets the modes of the open-loop curves and of a search's runs; a
 * run that counts every metric (CL_ALL, a few hundred of a GA run) takes
 * the one compiled for any size. */
typedef int64_t (*step_fn)(olnet *n, int64_t t);
#define STEPS(prefix, attr, simd) \
    attr static int64_t prefix##34_0(olnet *n, int64_t t) { return step(n, t, 3, 4, simd, 0, 0); } \
    attr static int64_t prefix##34_1(olnet *n, int64_t t) { return step(n, t, 3, 4, simd, CL_ON, 0); } \
    attr static int64_t prefix##34_3(olnet *n, int64_t t) { return step(n, t, 3, 4, simd, CL_ON | CL_REC, 0); } \
    attr static int64_t prefix##34_5(olnet *n, int64_t t) { return step(n, t, 3, 4, simd, CL_ON | CL_ALL, 0); } \
    attr static int64_t prefix##34_7(olnet *n, int64_t t) \
    { \
        return step(n, t, 3, 4, simd, CL_ON | CL_REC | CL_ALL, 0); \
    } \
    attr static int64_t prefix##_0(olnet *n, int64_t t) { return step(n, t, n->V, n->B, simd, 0, 0); } \
    attr static int64_t prefix##_1(olnet *n, int64_t t) { return step(n, t, n->V, n->B, simd, CL_ON, 0); } \
    attr static int64_t prefix##_3(olnet *n, int64_t t) { return step(n, t, n->V, n->B, simd, CL_ON | CL_REC, 0); } \
    attr static int64_t prefix##_5(olnet *n, int64_t t) { return step(n, t, n->V, n->B, simd, CL_ON | CL_ALL, 0); } \
    attr static int64_t prefix##_7(olnet *n, int64_t t) \
    { \
        return step(n, t, n->V, n->B, simd, CL_ON | CL_REC | CL_ALL, 0); \
    } \
    attr static int64_t prefix##34_tm(olnet *n, int64_t t) { return step(n, t, 3, 4, simd, 0, 1); } \
    attr static int64_t prefix##_tm(olnet *n, int64_t t) { return step(n, t, n->V, n->B, simd, 0, 1); } \
    static const step_fn prefix##_extras[2] = { prefix##_tm, prefix##34_tm }; \
    static const step_fn prefix##_modes[2][8] = { \
        { prefix##_0, prefix##_1, NULL, prefix##_3, NULL, prefix##_5, NULL, prefix##_7 }, \
        { prefix##34_0, prefix##34_1, NULL, prefix##34_3, NULL, prefix##34_5, NULL, prefix##34_7 }, \
    };
#ifdef OLNET_SSSE3
STEPS(step_ssse3, __attribute__((target("ssse3"), noinline)), 1)
#endif
STEPS(step_plain, __attribute__((noinline)), 0)

int64_t olnet_step_fast(olnet *n, int64_t t)
{
    const int d34 = n->V == 3 && n->B == 4;
    const int mode = n->cl ? CL_ON | (n->cl->rec ? CL_REC : 0) | (n->cl->full ? CL_ALL : 0) : 0;
    const int extras = n->tm || n->vlast;
    NOCSIM_ASSERT(!(extras && n->cl), "olnet: router timing and VC rotation are for open-loop runs");
#ifdef OLNET_SSSE3
    const int64_t moved = extras ? (n->simd ? step_ssse3_extras : step_plain_extras)[d34](n, t)
                                 : (n->simd ? step_ssse3_modes : step_plain_modes)[d34][mode](n, t);
#else
    const int64_t moved = extras ? step_plain_extras[d34](n, t) : step_plain_modes[d34][mode](n, t);
#endif
#ifdef NOCSIM_CHECK
    check_invariants(n, t);
#endif
    return moved;
}
