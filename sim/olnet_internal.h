/* What sim/olnet.c (construction, packets, the reference path, queue
 * selection) and sim/olnet_fast.c (the fast path) share: the network's
 * state.  Not for other parts: olnet.h is the interface. */
#ifndef NOCSIM_SIM_OLNET_INTERNAL_H
#define NOCSIM_SIM_OLNET_INTERNAL_H

#include "sim/olnet.h"
#include "sim/decisions.h"
#include "util/invariant.h"
#include "util/rng.h"

#include <string.h>

/* x86 with GCC or clang: the fast path may find live masks with SSSE3's
 * byte shuffle, chosen at run time (olnet_new). */
#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
#define OLNET_SSSE3 1
#endif

/* A flit is its packet id and two bits: header, tail (a 1-flit packet is
 * both), so the hot path never looks a packet up to tell. */
#define FL(id, head, tail) (((uint32_t)(id) << 2) | (uint32_t)(head) | (uint32_t)(tail) << 1)
#define FL_ID(f) ((int32_t)((f) >> 2))
#define FL_HEAD(f) ((f) & 1u)
#define FL_TAIL(f) ((f) & 2u)

/* One move decided this cycle: FIFO f of router `node` sends through
 * output VC o to router `to` (-1: ejection). */
typedef struct {
    int32_t f, o, node, to;
} olmove;

/* The fast path's move: router `node`'s local FIFO h sends through its
 * local output VC lo to router `to` (-1: ejection); x is the flit, once
 * popped.  The same 16 bytes as an olmove, in the same array. */
typedef struct {
    int32_t node, to;
    uint32_t x;
    uint8_t h, lo;
} olfmove;
_Static_assert(sizeof(olfmove) <= sizeof(olmove), "olfmove shares olmove's array");

/* A node's source queue: a growing ring of packet ids. */
typedef struct {
    int32_t *id;
    int head, count, cap;
    int seq;          /* flits of the head packet already injected */
    int vc;           /* the P input VC the head packet goes into */
    int last_vc;      /* the P input VC of the previous packet (any-VC rule) */
    int64_t due;      /* the head packet's t_gen (while count > 0): the fast path
                         reads it every cycle, one load instead of three */
} olsource;

/* A packet's route, fixed at its source: dimension order travels X in one
 * direction until the column is the destination's, then Y in one direction
 * (a tie is resolved once, and every later offset is shorter than half a
 * ring), so the port at any router is one of two (fast path). */
typedef struct {
    int32_t col;      /* destination's x */
    int32_t row;      /* destination's y * w */
    int8_t px, py;    /* the X port and the Y port of the route (P if none) */
} olroute;

/* A link's statistics in a closed-loop run, link = node * 4 + port: the
 * cycle its first header crossed plus one (0: unused), the cycle its last
 * tail crossed, and its flits, counted a whole packet (L) at its header. */
typedef struct {
    int32_t first1, last, flits;
} ollink;

/* What a closed-loop run (sim/closedloop.c) asks of the fast path beside
 * the moves: per-link statistics (the load bound reads `flits`), the
 * metrics of sim_metrics that the step alone sees, and the decisions for
 * sim/decisions.h.  Packets carry their slice in their tag. */
typedef struct {
    ollink *links;        /* nodes * 4 */
    int32_t L;            /* flits of every packet */
    int full;             /* 1: count lb, ir, or_, ib, ob and the links' first and last
                             cycles too; 0: only the links' flits */
    sim_decisions *rec;   /* not NULL: record the run's decisions (dateline rule only) */
    int64_t lb, ir, or_, ib, ob;
    int64_t injected;     /* flits injected */
} olclosed;

/* A flit on a link under router timing: it enters FIFO f (f < 0: it is
 * ejected) when its cycle comes. */
typedef struct {
    int32_t f;
    uint32_t x;
} olflight;

/* Router timing [R-TM-*] (olnet_params' delays, not all 0): three wheels
 * of slots, one a cycle of the delay + 1 they span, each slot sized for
 * the most a cycle can add (so stepping never allocates), and what each
 * FIFO's sender counts as taken.  Both paths share them: a cycle's end
 * lands the flits sent L cycles before, returns the credits of the slots
 * freed C cycles before, and routes the headers that came to a head D
 * cycles before (olnet_timing_*). */
typedef struct {
    int D, C;
    int Lo, Li;              /* a router's flit lands S + L cycles after it is sent, a source's L */
    uint8_t *ucnt;           /* per FIFO: its flits, the flits on their way to it and the slots
                                freed whose credit has not come back (the sender's view) */
    olflight *fl;            /* (Lo + 1) x flcap: the flits landing at the end of each cycle */
    uint32_t *cr, *hd;       /* (C + 1) x crcap: FIFOs whose credit comes back; (D + 1) x hdcap:
                                FIFOs whose header asks for its output */
    int *nfl, *ncr, *nhd;    /* entries in each slot */
    int flcap, crcap, hdcap;
    int64_t next;            /* the first cycle whose slots are not yet applied */
} oltiming;

struct olnet {
    olnet_params p;
    int w, h, nodes, V, B, NF;
    size_t bytes;
    /* Input FIFOs, f = node * NF + port * V + vc. */
    uint32_t *buf;
    uint8_t *cnt;
    int8_t *route;        /* held output VC (local d * V + c), -1 */
    int8_t *req_d, *req_c;/* the head header's request: port, VC (-1: any VC) */
    uint64_t *reqm;       /* per router: local FIFOs whose head header waits */
    uint64_t *livem;      /* per router: held output VCs whose holding FIFO has a flit
                             (fast path without simd only) */
    int simd;             /* fast path: live masks found from cnt and holder by SSSE3
                             each cycle instead of kept in livem (olnet_fast.c) */
    int32_t *rflits;      /* reference path: per router, flits in its input FIFOs */
    /* Output VCs, o = node * NF + d * V + c. */
    int8_t *holder;       /* local FIFO holding it, -1 */
    int32_t *down;        /* reference path: downstream FIFO, -1 for P and missing mesh links */
    int32_t *nbr;         /* per router and port d < P: the neighbour, -1 */
    uint8_t *qst;         /* reference path: queue-selection orders, NPORTS bytes each */
    uint8_t *qsi;         /* fast path: the same orders as ranks (qsel_rank) */
    uint16_t *qtab;       /* fast path: qsel_table's grants */
    /* Output ports, node * NPORTS + d. */
    olsource *src;
    int32_t *inj;         /* this cycle's injecting nodes */
    uint32_t *hdr;        /* fast path: FIFOs with a new header at their head this cycle
                             (at most a pop and a push a move and an injection a node) */
    union {               /* one array of moves, np of them */
        olmove *mv;       /* reference path */
        olfmove *fmv;     /* fast path */
    };
    int nmv, ninj;
    int nhdr;             /* reference path: new headers listed in hdr this cycle */
    /* Packets. */
    olnet_packet *pk;
    int32_t pk_cap, pk_next;
    int32_t *freeids;
    int32_t nfree;
    int64_t alive, in_net;
    int32_t *done;
    int ndone;
    /* Fast path only. */
    olroute *prt;         /* per packet id (grows with pk) */
    int32_t *x;           /* per router: its x */
    uint8_t *dl;          /* per router: bit d, the link out of port d is a dateline;
                             bit 4 + p, the link into port p is */
    uint64_t *dfull;      /* per router: output VCs whose downstream FIFO is full */
    uint8_t *pstate;      /* per output port: scheme * V + VC granted last (both paths) */
    uint16_t *pnext;      /* pnext[(state << V) | ready]: the state after a grant, and
                             its VC << 8 */
    uint64_t *srcm;       /* nodes whose source queue is not empty, a bit each */
    uint8_t lport[NPORTS * SIM_MAX_VCS], lvc[NPORTS * SIM_MAX_VCS]; /* local index -> port, VC */
    uint8_t ldown[NPORTS * SIM_MAX_VCS]; /* local output VC -> the local index of the FIFO it feeds */
    /* Bit b of a word packing the ready output VCs of 64 / NF routers: the
     * router in the group (bits 0-7), its port's first bit (8-15), the port
     * in the group (16-23), the port's first local index (24-31). */
    uint32_t gtab[64];
    uint64_t gnf;         /* bits of such a word that are not the first of their port */
    olclosed *cl;         /* not NULL: the fast path steps a closed-loop run (closedloop.c) */
    uint64_t *link_flits; /* not NULL: flits over each link, node * 4 + d (olnet_count_links) */
    /* Routing other than dor (p.routing != ROUTING_DOR, router/routing.h). */
    int K;                /* VC classes of the routing function */
    uint8_t lcls[NPORTS * SIM_MAX_VCS]; /* local index -> the class of its VC */
    /* Class c's VCs are clo[c] .. chi[c] - 1; class K stands for every VC
     * (an ejection may take any). */
    uint8_t clo[ROUTING_MAX_CLASSES + 1], chi[ROUTING_MAX_CLASSES + 1];
    routing_plan *pln;    /* per packet id (grows with pk): its random choices */
    rng rr;               /* draws the plans, seeded by p.route_seed */
    int8_t *req_d2, *req_c2; /* min-adaptive: a waiting header's escape request (port -1: none) */
    oltiming *tm;         /* router timing, NULL when every delay is 0 */
    uint8_t *vlast;       /* p.vc_rotate: per output port, the VC it granted last (V - 1 at first) */
    uint8_t *occ;         /* per FIFO: the slots its sender counts as taken (cnt, or tm->ucnt) */
    uint64_t amask;       /* local output VCs granted only with their downstream FIFO empty (every
                             router alike): min-adaptive's adaptive VCs of N, E, S, W [R-RF-12] */
};

/* Under the any-VC rule, the k-th VC (k = 0, 1, ...) a free VC of class
 * [lo, hi) of output port `port` is looked for at: from lo up, or with
 * vc_rotate from the one after the port's last grant, going round. */
static inline int any_vc_at(const olnet *n, size_t port, int lo, int hi, int k)
{
    if (!n->vlast) return lo + k;
    const int first = n->vlast[port] + 1 >= lo && n->vlast[port] + 1 < hi ? n->vlast[port] + 1 : lo;
    return first + k < hi ? first + k : first + k - (hi - lo);
}

/* May output VC o (local) of router `node` be granted to a new packet?  No
 * packet holds it, and, for min-adaptive's adaptive VCs (amask), its
 * downstream FIFO is empty as its sender sees it (no flit in it or on the
 * way, every credit back): a header granted an adaptive VC then waits only
 * on its own packet's flits, never on another packet's tail left in that
 * FIFO, which is what Duato's condition needs [R-RF-12]. */
static inline int olnet_vc_free(const olnet *n, int node, int o)
{
    const size_t base = (size_t)node * (size_t)n->NF;
    if (n->holder[base + (size_t)o] >= 0) return 0;
    if (!(n->amask >> o & 1)) return 1;
    const int d = n->lport[o], nb = n->nbr[node * NPORTS + d];
    return nb < 0 || n->occ[((size_t)nb * NPORTS + (size_t)route_opposite(d)) * (size_t)n->V + n->lvc[o]] == 0;
}

/* The P input VCs packet id may enter, a bit each (every VC under dor). */
static inline unsigned inject_vcs(const olnet *n, int32_t id)
{
    return n->pln ? routing_inject_vcs(n->p.routing, &n->p.rp, &n->pln[id], n->V) : (1u << n->V) - 1;
}

/* Free slots, at this moment, of the FIFOs of class c that output port d
 * of router `node` feeds (a mesh's missing link: none). */
static inline int free_downstream(const olnet *n, int node, int d, int c)
{
    const int nb = n->nbr[node * NPORTS + d];
    if (nb < 0) return 0;
    int free = 0;
    for (int v = n->clo[c]; v < n->chi[c]; v++)
        free += n->B - n->occ[((size_t)nb * NPORTS + (size_t)route_opposite(d)) * (size_t)n->V + (size_t)v];
    return free;
}

/* Min-adaptive's escape requests at router `node` (its first FIFO base)
 * still waiting, a bit each; then, taken from *left one group at a time,
 * the requests naming one escape VC, whose local index goes into *o.  Both
 * paths grant each group after the adaptive requests [R-RF-4]. */
static inline uint64_t escape_waiting(const olnet *n, int node, size_t base)
{
    uint64_t left = 0;
    for (uint64_t m = n->reqm[node]; m; m &= m - 1)
        if (n->req_d2[base + (size_t)__builtin_ctzll(m)] >= 0) left |= m & -m;
    return left;
}

static inline uint64_t escape_group(const olnet *n, size_t base, uint64_t *left, int *o)
{
    const size_t f0 = base + (size_t)__builtin_ctzll(*left);
    const int d = n->req_d2[f0], c = n->req_c2[f0];
    uint64_t same = 0;
    for (uint64_t m = *left; m; m &= m - 1) {
        const size_t f = base + (size_t)__builtin_ctzll(m);
        if (n->req_d2[f] == d && n->req_c2[f] == n->req_c2[f0]) same |= m & -m;
    }
    *left &= ~same;
    *o = d * n->V + c;
    return same;
}

/* The request of a header new at the head of FIFO f (local index `local` of
 * router `node`) under a routing function other than dor, for both paths:
 * the function's admissible ports, one picked by the selection rule when
 * there are several [R-RF-5]; under the any-VC rule any VC of the output
 * class (req_c = -1 - class; an ejection any VC at all), under the dateline
 * rule the class's first; min-adaptive's escape beside it (req_d2). */
static inline void olnet_request_routed(olnet *n, int node, size_t f, int local, uint32_t fl)
{
    const int32_t id = FL_ID(fl);
    const olnet_packet *pk = &n->pk[id];
    const int in_port = n->lport[local], any = n->p.vc_rule == VCRULE_ANY;
    const routing_options o = routing_admissible(n->p.routing, &n->p.rp, &n->pln[id], node, pk->src, pk->dest,
                                                 in_port, n->lcls[local]);
    int d = __builtin_ctz(o.ports);
    if (o.ports & (o.ports - 1)) {
        int free[PORT_P] = { 0 };
        if (n->p.selection == SELECT_CREDITS)
            for (unsigned m = o.ports; m; m &= m - 1) free[__builtin_ctz(m)] = free_downstream(n, node, __builtin_ctz(m), o.cls);
        d = routing_select(n->p.selection, o.ports, free,
                           n->p.selection == SELECT_RANDOM ? routing_hash(n->p.route_seed, id, node) : 0);
    }
    NOCSIM_ASSERT(in_port == PORT_P || d == PORT_P ||
                      routing_turn_allowed(n->p.routing, &n->p.rp, node, route_opposite(in_port), d),
                  "olnet: a routing function never takes a turn it forbids");
    n->req_d[f] = (int8_t)d;
    n->req_c[f] = (int8_t)(any ? -1 - (d == PORT_P ? n->K : o.cls) : n->clo[o.cls]);
    if (n->req_d2) {
        n->req_d2[f] = (int8_t)o.esc;
        n->req_c2[f] = (int8_t)n->clo[o.esc_cls]; /* one VC a class: either rule's */
    }
    n->reqm[node] |= 1ull << local;
}

/* A FIFO's flits are its slots 0 .. cnt - 1, the head in slot 0: a pop
 * shifts the others down. */
static inline uint32_t head_flit(const olnet *n, size_t f) { return n->buf[f * (size_t)n->B]; }

/* Shift the B slots at q down by one after the head left.  For 4-flit
 * FIFOs one 16-byte copy: slot 4 is the next FIFO's (or the slack after
 * the last, see olnet_new), and what lands in slot 3 is past the count. */
static inline void fifo_shift(uint32_t *q, int B)
{
    if (B == 4) {
        uint32_t t4[4];
        memcpy(t4, q + 1, sizeof t4);
        memcpy(q, t4, sizeof t4);
    } else {
        memmove(q, q + 1, sizeof *q * (size_t)(B - 1));
    }
}


/* Flit x reached its destination's P output in cycle t: a tail finishes
 * its packet, which joins the cycle's done list. */
static inline void olnet_eject(olnet *n, uint32_t x, int64_t t)
{
    NOCSIM_ASSERT(FL_ID(x) < n->pk_next && n->pk[FL_ID(x)].len > 0, "olnet_eject: a flit of a live packet");
    n->in_net--;
    if (FL_TAIL(x)) {
        n->pk[FL_ID(x)].t_done = t;
        n->done[n->ndone++] = FL_ID(x);
    }
}

/* Node i's source put the next flit of its head packet (len flits) into
 * the network: after the tail, the next packet comes up. */
static inline void olnet_source_sent(olnet *n, int i, int len)
{
    olsource *s = &n->src[i];
    n->in_net++;
    if (++s->seq == len) {
        s->seq = 0;
        s->last_vc = s->vc;
        s->head = s->head + 1 < s->cap ? s->head + 1 : 0;
        if (--s->count == 0) n->srcm[i / 64] &= ~(1ull << (i % 64));
        else s->due = n->pk[s->id[s->head]].t_gen;
    }
}

/* Router timing's bookkeeping, shared by both paths [R-TM-2..4]. */

/* Output VC lo (local) of router `node` sent a flit towards FIFO f (of the
 * neighbour, or node's own P FIFO for an injection, lo < 0): f counts one
 * more slot taken, and a full one stops lo. */
static inline void olnet_timing_sent(olnet *n, int node, int lo, size_t f)
{
    const int c = ++n->tm->ucnt[f];
    NOCSIM_ASSERT(c <= n->B, "olnet timing: a sender never counts more than B slots taken");
    if (lo >= 0 && c == n->B) n->dfull[node] |= 1ull << lo;
}

/* FIFO f's credit came back: its sender counts one slot fewer, and the
 * output VC feeding it (when f is not a P FIFO) may send again. */
static inline void olnet_timing_credit(olnet *n, size_t f)
{
    const int c = n->tm->ucnt[f]--;
    NOCSIM_ASSERT(c > n->cnt[f], "olnet timing: a credit returns a slot its FIFO no longer holds");
    const int node = (int)(f / (size_t)n->NF), local = (int)(f - (size_t)node * (size_t)n->NF);
    if (c == n->B && n->lport[local] != PORT_P)
        n->dfull[n->nbr[node * NPORTS + n->lport[local]]] &= ~(1ull << n->ldown[local]);
}

/* FIFO f's head left in cycle t: its credit comes back at the end of
 * t + C. */
static inline void olnet_timing_popped(olnet *n, size_t f, int64_t t)
{
    oltiming *tm = n->tm;
    if (!tm->C) {
        olnet_timing_credit(n, f);
        return;
    }
    const int s = (int)((t + tm->C) % (tm->C + 1));
    tm->cr[(size_t)s * (size_t)tm->crcap + (size_t)tm->ncr[s]++] = (uint32_t)f;
}

/* Flit x sent in cycle t lands in FIFO f (f < 0: is ejected) at the end of
 * t + delay (0 < delay <= Lo). */
static inline void olnet_timing_fly(olnet *n, int32_t f, uint32_t x, int64_t t, int delay)
{
    oltiming *tm = n->tm;
    const int s = (int)((t + delay) % (tm->Lo + 1));
    tm->fl[(size_t)s * (size_t)tm->flcap + (size_t)tm->nfl[s]++] = (olflight){ f, x };
}

/* The credits due at the end of cycle t come back. */
static inline void olnet_timing_credits_due(olnet *n, int64_t t)
{
    oltiming *tm = n->tm;
    if (!tm->C) return;
    const int s = (int)(t % (tm->C + 1));
    const uint32_t *cr = tm->cr + (size_t)s * (size_t)tm->crcap;
    for (int k = 0; k < tm->ncr[s]; k++) olnet_timing_credit(n, cr[k]);
    tm->ncr[s] = 0;
}

/* The headers listed this cycle (hdr[0 .. nh - 1]) wait D cycles (D > 0):
 * into their slot; returns the slot of the headers whose wait ends now
 * (routed by the caller), its entries in *count, emptied. */
static inline const uint32_t *olnet_timing_headers(olnet *n, int64_t t, const uint32_t *hdr, int nh, int *count)
{
    oltiming *tm = n->tm;
    const int in = (int)((t + tm->D) % (tm->D + 1)), out = (int)(t % (tm->D + 1));
    memcpy(tm->hd + (size_t)in * (size_t)tm->hdcap + (size_t)tm->nhd[in], hdr, sizeof *hdr * (size_t)nh);
    tm->nhd[in] += nh;
    *count = tm->nhd[out];
    tm->nhd[out] = 0;
    return tm->hd + (size_t)out * (size_t)tm->hdcap;
}

/* Before stepping cycle t after a jump (the network was empty: only
 * credits can be on their way, due within C cycles of the last step), the
 * credits due in the cycles jumped over. */
static inline void olnet_timing_catch_up(olnet *n, int64_t t)
{
    oltiming *tm = n->tm;
    NOCSIM_ASSERT(tm->next >= t || n->in_net == 0, "olnet timing: cycles are jumped over only with the network empty");
    for (int64_t c = tm->next; c < t && c <= tm->next + tm->C; c++) olnet_timing_credits_due(n, c);
}

/* For a closed-loop run (sim/closedloop.c), which queues its packets itself:
 * olnet_clear empties the network (no flit in a FIFO, every output VC free,
 * every mask clear, every source queue empty from its first slot, its
 * first packet bound for VC 0; the packets' records and routes stay), and
 * olnet_configure sets every port's VC-selection scheme and every output
 * VC's queue-selection order from cfg, which must fit n and pass
 * sim_config_check; rank is qsel_rank_table's table. */
void olnet_clear(olnet *n);
void olnet_configure(olnet *n, const sim_config *cfg, const uint8_t *rank);

/* The fast path's olnet_step: applies the cycle's moves and injections and
 * returns the flits moved. */
int64_t olnet_step_fast(olnet *n, int64_t t);

#endif
