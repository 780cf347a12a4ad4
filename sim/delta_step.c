/* The cone stepper prototype of sim/delta_step.h: one cycle of a child's
 * closed-loop run on its cone's routers, the rest taken from the parent's
 * record.  Written after sim/olnet_fast.c's step (the fast path), with its
 * V = 3, B = 4, SSSE3 and lean instantiation, router by router over the cone
 * list instead of over every router packed four to a word.
 *
 * Why a router outside the cone needs no stepping, and what the cone reads:
 *  - A router's decisions in cycle t (queue selection, VC selection, the
 *    injection) read only its own state at the cycle's start, dfull
 *    included; so a router whose state is the parent's sends what the
 *    parent's sent, and the record holds it (flit and VC per link).
 *  - A neighbour changes a router's state only by the flit it pushes in and
 *    by its own FIFO counts, which dfull mirrors (dfull[i]'s bits of port d
 *    are exactly "the neighbour's FIFO this VC feeds is full" at the cycle's
 *    end, the fast path's invariant).  So a cone router's bits towards an
 *    outside neighbour are the parent's (the record's dfull), and an
 *    outside router j joins the cone at the end of cycle t exactly when a
 *    cone neighbour sent it another flit than the record says or its FIFOs'
 *    fullness, which j's dfull mirrors, is not the record's (the edge check).
 *  - A router joining at the end of t held the parent's state at the
 *    cycle's start: that state is copied (here from the parent's run stepped
 *    beside the child; the product would replay from a snapshot) and cycle
 *    t is stepped again for it alone, its inputs from its cone neighbours'
 *    moves and, for the rest, the record.  Its own outputs in t were the
 *    parent's (its decisions read only its start state), so nothing already
 *    stepped changes.  Then the dfull bits between it and its cone
 *    neighbours are set from their counts.
 *  - A router whose only changed genes are its release cycles joins at the
 *    start of the first cycle such a packet is released in either run
 *    (sim/delta.c's release-aware cone), its state the parent's then with
 *    the child's release cycle of its head packet; one whose VC-selection
 *    schemes or queue orders changed is in the cone from cycle 0.
 *  - A packet whose tail the child ejects outside the cone ejects when the
 *    parent's does (taken from the parent's run here, a record's entry in a
 *    product). */
#include "sim/delta_step.h"
#include "sim/closedloop.h"
#include "sim/olnet_internal.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef OLNET_SSSE3
#include <tmmintrin.h>
#endif

enum { CV = 3, CB = 4, CNF = NPORTS * CV };
#define HOT static inline __attribute__((always_inline))
/* The functions that find live masks are compiled for SSSE3, as the fast
 * path's step is (delta_cone_job refuses a network without it). */
#ifdef OLNET_SSSE3
#define CONE_TARGET __attribute__((target("ssse3")))
#else
#define CONE_TARGET
#endif

struct delta_cone {
    sim_params p;
    int nodes;
    closedloop *pa, *pb, *pr; /* the parent, the child on its cone, the whole child (the check) */
    olnet *a, *b, *r;         /* their networks during a job */
    uint32_t *rl;             /* the record: per cycle, per link, its entry (delta_step.h) */
    uint16_t *rf;             /*   and per router its dfull at the cycle's end */
    int64_t rcycles, rcap;
    uint8_t *in;              /* per router: in the cone */
    int32_t *list;            /* the cone's routers */
    int ncone;
    uint8_t *emask;           /* per cone router: its ports whose neighbour is outside (the edge) */
    uint16_t etab[16];        /* a port mask's dfull bits */
    int32_t *rord;            /* the routers that join by their releases, by the cycle they do */
    int nrord, relp;
    uint8_t *flag;            /* per router: joins at this cycle's end */
    uint8_t *on;              /* per router: active this cycle (the whole child's) */
    int32_t *jl;              /* those routers */
    int nj;
    uint32_t *cfl;            /* per link out of a cone router: the child's entry this cycle */
    olfmove *mv;              /* the cycle's moves (a cone's, or a joiner's) */
    int32_t *inj;             /* the cycle's injecting cone routers */
    uint32_t *hdr;            /* FIFOs with a new header at their head */
    int64_t *rel_at;          /* per router: the cycle it joins by its release cycles */
    int64_t *tails, *tails2;  /* the GA run's tail cycles, the cone run's */
    int64_t npk;
    int on_link;              /* the dateline rule's variant (route_params) */
};

void delta_cone_free(delta_cone *d)
{
    if (!d) return;
    closedloop_free(d->pa);
    closedloop_free(d->pb);
    closedloop_free(d->pr);
    free(d->rl);
    free(d->rf);
    free(d->in);
    free(d->list);
    free(d->emask);
    free(d->rord);
    free(d->flag);
    free(d->on);
    free(d->jl);
    free(d->cfl);
    free(d->mv);
    free(d->inj);
    free(d->hdr);
    free(d->rel_at);
    free(d->tails);
    free(d->tails2);
    free(d);
}

delta_cone *delta_cone_new(const sim_params *p, const int32_t *dest)
{
    if (p->routing != ROUTING_DOR || p->vc_rule != VCRULE_DATELINE || p->vcs != CV || p->buffer != CB ||
        !closedloop_supports(p))
        return NULL;
    delta_cone *d = calloc(1, sizeof *d);
    if (!d) return NULL;
    d->p = *p;
    d->nodes = sim_nodes(p);
    const size_t N = (size_t)d->nodes;
    d->npk = (int64_t)N * p->slices;
    d->pa = closedloop_new(p, dest, 0);
    d->pb = closedloop_new(p, dest, 0);
    d->pr = closedloop_new(p, dest, 0);
    d->in = calloc(N, 1);
    d->flag = calloc(N, 1);
    d->on = calloc(N, 1);
    d->list = malloc(sizeof *d->list * N);
    d->emask = calloc(N, 1);
    d->rord = malloc(sizeof *d->rord * N);
    for (int m = 0; m < 16; m++)
        for (int p = 0; p < PORT_P; p++)
            if (m >> p & 1) d->etab[m] |= (uint16_t)(7u << (p * CV));
    d->jl = malloc(sizeof *d->jl * N);
    d->cfl = calloc(N * 4, sizeof *d->cfl);
    d->mv = malloc(sizeof *d->mv * N * NPORTS);
    d->inj = malloc(sizeof *d->inj * N);
    d->hdr = malloc(sizeof *d->hdr * N * (CNF + 1));
    d->rel_at = malloc(sizeof *d->rel_at * N);
    d->tails = malloc(sizeof *d->tails * (size_t)d->npk);
    d->tails2 = malloc(sizeof *d->tails2 * (size_t)d->npk);
    d->on_link = sim_route_params(p).dateline == DATELINE_ON_LINK;
    if (!d->pa || !d->pb || !d->pr || !d->in || !d->flag || !d->on || !d->list || !d->emask || !d->rord || !d->jl || !d->cfl || !d->mv || !d->inj ||
        !d->hdr || !d->rel_at || !d->tails || !d->tails2) {
        delta_cone_free(d);
        return NULL;
    }
    return d;
}

/* ---- the record ---- */

static int grow_record(delta_cone *d, int64_t t)
{
    if (t < d->rcap) return 0;
    const int64_t cap = d->rcap ? 2 * d->rcap : 1024;
    uint32_t *rl = realloc(d->rl, sizeof *rl * (size_t)cap * (size_t)d->nodes * 4);
    if (!rl) return -1;
    d->rl = rl;
    uint16_t *rf = realloc(d->rf, sizeof *rf * (size_t)cap * (size_t)d->nodes);
    if (!rf) return -1;
    d->rf = rf;
    d->rcap = cap;
    return 0;
}

/* A flit into VC c as a record entry. */
HOT uint32_t entry_of(uint32_t x, int c) { return (x + 1) | (uint32_t)c << 28; }

/* Cycle t of the parent's run, just stepped (nmv moves in n->fmv). */
static __attribute__((noinline)) void delta_cone_rec_cycle(delta_cone *d, const olnet *n, int64_t t, int nmv)
{
    const size_t N = (size_t)d->nodes;
    uint32_t *rl = d->rl + (size_t)t * N * 4;
    memset(rl, 0, sizeof *rl * N * 4);
    for (int k = 0; k < nmv; k++) {
        const olfmove *m = &n->fmv[k];
        if (m->to >= 0) rl[m->node * 4 + n->lport[m->lo]] = entry_of(m->x, n->lvc[m->lo]);
    }
    uint16_t *rf = d->rf + (size_t)t * N;
    for (size_t i = 0; i < N; i++) rf[i] = (uint16_t)n->dfull[i];
}

int64_t delta_cone_record(delta_cone *d, const sim_config *parent)
{
    olnet *n = closedloop_begin(d->pa, parent);
    int64_t to_send = 0, done = 0, t = 0;
    for (int i = 0; i < d->nodes; i++) to_send += n->src[i].count;
    for (; done < to_send && t < d->p.max_cycles; t++) {
        const int64_t inj0 = n->cl->injected;
        const int32_t *ids;
        int nd;
        const int64_t moved = olnet_step(n, t, &ids, &nd);
        done += nd;
        if (grow_record(d, t)) return -1;
        delta_cone_rec_cycle(d, n, t, (int)(moved - (n->cl->injected - inj0)));
    }
    d->rcycles = t;
    return done == to_send ? t : -1;
}

/* ---- one router's cycle, in the fast path's pieces (V = 3, B = 4, dor,
 * dateline rule, SSSE3 live masks, lean) ---- */

/* The live output VCs of router i (see olnet_fast.c's live_ssse3). */
#ifdef OLNET_SSSE3
CONE_TARGET HOT uint64_t live_of(const olnet *n, int i)
{
    const __m128i c = _mm_loadu_si128((const __m128i *)(const void *)(n->cnt + (size_t)i * CNF));
    const __m128i h = _mm_loadu_si128((const __m128i *)(const void *)(n->holder + (size_t)i * CNF));
    const __m128i held = _mm_shuffle_epi8(c, h);
    return ~(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(held, _mm_setzero_si128())) & ((1u << CNF) - 1);
}
#else
HOT uint64_t live_of(const olnet *n, int i)
{
    const size_t base = (size_t)i * CNF;
    uint64_t live = 0;
    for (int o = 0; o < CNF; o++) {
        const int h = n->holder[base + (size_t)o];
        live |= (uint64_t)(h >= 0 && n->cnt[base + (size_t)h]) << o;
    }
    return live;
}
#endif

/* Queue selection at router i (olnet_fast.c's select_queues and grant under
 * the dateline rule, no amask). */
HOT void cone_select(olnet *n, int i)
{
    const size_t base = (size_t)i * CNF;
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
        const int o = dd * CV + c;
        if (n->holder[base + (size_t)o] >= 0) continue;
        unsigned dirs = 0;
        for (uint64_t m = cand; m; m &= m - 1) dirs |= 1u << n->lport[__builtin_ctzll(m)];
        uint8_t *rank = n->qsi + base + (size_t)o;
        const unsigned e = n->qtab[(unsigned)*rank << 5 | dirs];
        *rank = (uint8_t)e;
        const int wp = (int)(e >> 8);
        const int win = __builtin_ctzll(cand & (((1ull << CV) - 1) << (wp * CV)));
        n->holder[base + (size_t)o] = (int8_t)win;
        n->route[base + (size_t)win] = (int8_t)o;
        n->reqm[i] &= ~(1ull << win);
    }
}

/* VC selection at router i: its moves appended to mv[*nmv]. */
CONE_TARGET HOT void cone_vcsel(olnet *n, int i, olfmove *mv, int *nmv)
{
    const uint64_t word = live_of(n, i) & ~n->dfull[i];
    uint64_t below = 0, sh = word;
    for (int j = 1; j < CV; j++) {
        sh = (sh << 1) & n->gnf;
        below |= sh;
    }
    for (uint64_t lead = word & ~below; lead; lead &= lead - 1) {
        const uint32_t e = n->gtab[__builtin_ctzll(lead)]; /* router 0 of a group: port d at bit d * V */
        const unsigned shift = e >> 8 & 255, ready = (unsigned)(word >> shift) & ((1u << CV) - 1);
        const unsigned port = (unsigned)i * NPORTS + (e >> 16 & 255);
        const unsigned st = n->pnext[(unsigned)n->pstate[port] << CV | ready], c = st >> 8;
        n->pstate[port] = (uint8_t)st;
        olfmove *m = &mv[(*nmv)++];
        m->node = i;
        m->to = n->nbr[port];
        m->h = (uint8_t)n->holder[(size_t)i * CNF + shift + c];
        m->lo = (uint8_t)((e >> 24) + c);
    }
}

/* Does router i's source inject this cycle (decide_injections, dor and the
 * dateline rule: VC 0 of P for a new packet)? */
HOT int cone_injects(olnet *n, int i, int64_t t)
{
    olsource *s = &n->src[i];
    if (!s->count || s->due > t) return 0;
    const size_t pf = ((size_t)i * NPORTS + PORT_P) * CV;
    if (s->seq == 0) {
        if (n->cnt[pf] >= CB) return 0;
        s->vc = 0;
        return 1;
    }
    return n->cnt[pf + (size_t)s->vc] < CB;
}

/* The head of router `node`'s FIFO `local` sent through output VC lo; up:
 * whether the upstream router's dfull is to be kept (it is in the cone). */
HOT uint32_t cone_pop(olnet *n, const uint8_t *in, int node, int local, int lo, uint32_t *hdr, int *nh)
{
    const size_t base = (size_t)node * CNF, f = base + (size_t)local, o = base + (size_t)lo;
    uint32_t *q = n->buf + f * CB, x = q[0];
    fifo_shift(q, CB);
    const int left = n->cnt[f] - 1;
    n->cnt[f] = (uint8_t)left;
    if (left == CB - 1 && n->lport[local] != PORT_P) {
        const int up = n->nbr[node * NPORTS + n->lport[local]];
        if (in[up]) n->dfull[up] &= ~(1ull << n->ldown[local]);
    }
    const int tail = (int)(FL_TAIL(x) >> 1);
    n->holder[o] = (int8_t)(n->holder[o] | -tail);
    n->route[f] = (int8_t)(n->route[f] | -tail);
    hdr[*nh] = (uint32_t)f;
    *nh += (left != 0) & (int)FL_HEAD(q[0]);
    return x;
}

HOT int cone_push(olnet *n, size_t f, uint32_t fl, uint32_t *hdr, int *nh)
{
    const int c = n->cnt[f];
    n->buf[f * CB + (size_t)c] = fl;
    n->cnt[f] = (uint8_t)(c + 1);
    hdr[*nh] = (uint32_t)f;
    *nh += (c == 0) & (n->route[f] < 0);
    return c + 1;
}

/* Router i's source puts its next flit into its P FIFO. */
HOT void cone_inject(olnet *n, int i, int64_t t, uint32_t *hdr, int *nh)
{
    olsource *s = &n->src[i];
    const int32_t id = s->id[s->head];
    const int len = n->pk[id].len;
    if (s->seq == 0) n->pk[id].t_inj = t;
    cone_push(n, (size_t)i * CNF + PORT_P * CV + (size_t)s->vc, FL(id, s->seq == 0, s->seq == len - 1), hdr, nh);
    if (++s->seq == len) {
        s->seq = 0;
        s->last_vc = s->vc;
        s->head = s->head + 1 < s->cap ? s->head + 1 : 0;
        if (--s->count == 0) n->srcm[i / 64] &= ~(1ull << (i % 64));
        else s->due = n->pk[s->id[s->head]].t_gen;
    }
}

/* A header new at the head of FIFO f asks for its output (route_header,
 * dor, dateline rule). */
HOT void cone_route(olnet *n, int on_link, size_t f)
{
    const int node = (int)(f / CNF), local = (int)(f - (size_t)node * CNF);
    const olroute *r = &n->prt[FL_ID(n->buf[f * CB])];
    const int x = n->x[node], px = r->px, py = r->py, dy = node - x != r->row ? py : PORT_P;
    const int d = x != r->col ? px : dy;
    n->req_d[f] = (int8_t)d;
    const int port = n->lport[local];
    const int up = on_link ? d != PORT_P && (n->dl[node] >> d & 1) : port != PORT_P && (n->dl[node] >> (4 + port) & 1);
    n->req_c[f] = (int8_t)(n->lvc[local] + up);
    n->reqm[node] |= 1ull << local;
}

HOT void cone_eject(olnet *n, uint32_t x, int64_t t)
{
    if (FL_TAIL(x)) n->pk[FL_ID(x)].t_done = t;
}

/* Router i's dfull bits of port p set from router j's FIFOs at its port q
 * (the one p feeds). */
HOT void full_from(olnet *n, int i, int p, int j, int q)
{
    const uint8_t *c = n->cnt + (size_t)j * CNF + (size_t)q * CV;
    const uint64_t bits = (uint64_t)(c[0] == CB) | (uint64_t)(c[1] == CB) << 1 | (uint64_t)(c[2] == CB) << 2;
    n->dfull[i] = (n->dfull[i] & ~(7ull << (p * CV))) | bits << (p * CV);
}

/* ---- the cone's cycle ---- */

/* Cycle t at the cone's routers, the edge's inputs from the record. */
CONE_TARGET static __attribute__((noinline)) void delta_cone_step(delta_cone *d, int64_t t)
{
    olnet *n = d->b;
    const size_t N = (size_t)d->nodes;
    const uint32_t *rl = d->rl + (size_t)t * N * 4;
    const uint16_t *rf = d->rf + (size_t)t * N;
    const uint8_t *in = d->in;
    const int32_t *list = d->list, nc = d->ncone;
    olfmove *mv = d->mv;
    uint32_t *hdr = d->hdr, *cfl = d->cfl;
    int nmv = 0, ninj = 0, nh = 0;
    for (int k = 0; k < nc; k++) {
        const int i = list[k];
        memset(cfl + (size_t)i * 4, 0, 4 * sizeof *cfl);
        if (n->reqm[i]) cone_select(n, i);
        cone_vcsel(n, i, mv, &nmv);
        d->inj[ninj] = i;
        ninj += cone_injects(n, i, t);
    }
    for (int k = 0; k < nmv; k++) mv[k].x = cone_pop(n, in, mv[k].node, mv[k].h, mv[k].lo, hdr, &nh);
    ollink *links = n->cl->links;
    const int L = n->cl->L;
    for (int k = 0; k < nmv; k++) {
        const int to = mv[k].to, lo = mv[k].lo, node = mv[k].node;
        const uint32_t x = mv[k].x;
        if (to < 0) {
            cone_eject(n, x, t);
            continue;
        }
        const int link = node * 4 + n->lport[lo];
        links[link].flits += FL_HEAD(x) ? L : 0; /* what the load bound reads */
        if (in[to]) {
            if (cone_push(n, (size_t)to * CNF + n->ldown[lo], x, hdr, &nh) == CB) n->dfull[node] |= 1ull << lo;
        } else {
            cfl[link] = entry_of(x, n->lvc[lo]);
        }
    }
    /* The edge: flits from outside neighbours, and their fullness (the
     * ports of emask: walking all four and testing in[] was 22 % of the
     * step's instructions). */
    for (int k = 0; k < nc; k++) {
        const int i = list[k];
        const unsigned em = d->emask[i];
        for (unsigned m = em; m; m &= m - 1) {
            const int p = __builtin_ctz(m), j = n->nbr[i * NPORTS + p];
            const uint32_t e = rl[j * 4 + route_opposite(p)];
            if (e) cone_push(n, (size_t)i * CNF + (size_t)p * CV + (e >> 28), (e & 0x0fffffffu) - 1, hdr, &nh);
        }
        const uint64_t eb = d->etab[em];
        n->dfull[i] = (n->dfull[i] & ~eb) | (rf[i] & eb);
    }
    for (int k = 0; k < ninj; k++) cone_inject(n, d->inj[k], t, hdr, &nh);
    for (int k = 0; k < nh; k++) cone_route(n, d->on_link, hdr[k]);
    n->cl->injected += ninj;
}

/* The edge check after cycle t: the outside routers that join (d->jl).
 * Returns the edge's links. */
static __attribute__((noinline)) int delta_cone_edge(delta_cone *d, int64_t t)
{
    const olnet *n = d->b;
    const size_t N = (size_t)d->nodes;
    const uint32_t *rl = d->rl + (size_t)t * N * 4;
    const uint16_t *rf = d->rf + (size_t)t * N;
    int links = 0;
    d->nj = 0;
    for (int k = 0; k < d->ncone; k++) {
        const int i = d->list[k];
        const uint8_t *c = n->cnt + (size_t)i * CNF;
        for (unsigned em = d->emask[i]; em; em &= em - 1) {
            const int p = __builtin_ctz(em), j = n->nbr[i * NPORTS + p];
            links++;
            const unsigned q = (unsigned)route_opposite(p) * CV;
            const unsigned full = (unsigned)(c[p * CV] == CB) | (unsigned)(c[p * CV + 1] == CB) << 1 |
                                  (unsigned)(c[p * CV + 2] == CB) << 2;
            const int differs = d->cfl[i * 4 + p] != rl[i * 4 + p] || full != ((rf[j] >> q) & 7u);
            if (differs && !d->flag[j]) {
                d->flag[j] = 1;
                d->jl[d->nj++] = j;
            }
        }
    }
    return links;
}

/* Router j's state in b made the parent's (a's, at the same moment), with
 * the child's release cycle of its head packet. */
HOT void copy_router(olnet *b, const olnet *a, int j)
{
    const size_t f = (size_t)j * CNF;
    memcpy(b->buf + f * CB, a->buf + f * CB, sizeof *b->buf * CNF * CB);
    memcpy(b->cnt + f, a->cnt + f, CNF);
    memcpy(b->route + f, a->route + f, CNF);
    memcpy(b->holder + f, a->holder + f, CNF);
    memcpy(b->req_d + f, a->req_d + f, CNF);
    memcpy(b->req_c + f, a->req_c + f, CNF);
    memcpy(b->qsi + f, a->qsi + f, CNF);
    memcpy(b->pstate + (size_t)j * NPORTS, a->pstate + (size_t)j * NPORTS, NPORTS);
    b->reqm[j] = a->reqm[j];
    b->dfull[j] = a->dfull[j];
    if (!b->simd) b->livem[j] = a->livem[j];
    olsource *s = &b->src[j];
    const olsource *u = &a->src[j];
    s->head = u->head;
    s->count = u->count;
    s->seq = u->seq;
    s->vc = u->vc;
    s->last_vc = u->last_vc;
    s->due = s->count ? b->pk[s->id[s->head]].t_gen : u->due;
    const uint64_t bit = 1ull << (j % 64);
    b->srcm[j / 64] = s->count ? b->srcm[j / 64] | bit : b->srcm[j / 64] & ~bit;
}

/* The joiners put in the cone, their dfull bits towards their cone
 * neighbours and back set from the FIFO counts, and the edge's ports
 * (emask) updated. */
HOT void settle_joins(delta_cone *d, const int32_t *jl, int nj)
{
    olnet *n = d->b;
    for (int k = 0; k < nj; k++) {
        const int j = jl[k];
        d->in[j] = 1;
        d->flag[j] = 0;
        d->list[d->ncone++] = j;
    }
    for (int k = 0; k < nj; k++) {
        const int j = jl[k];
        unsigned em = 0;
        for (int p = 0; p < PORT_P; p++) {
            const int i = n->nbr[j * NPORTS + p];
            if (i < 0) continue;
            if (!d->in[i]) {
                em |= 1u << p;
                continue;
            }
            full_from(n, j, p, i, route_opposite(p));
            full_from(n, i, route_opposite(p), j, p);
            d->emask[i] &= (uint8_t)~(1u << route_opposite(p));
        }
        d->emask[j] = (uint8_t)em;
    }
}

/* The routers that join at the end of cycle t (the edge check's): the
 * parent's state at the cycle's start, then the cycle stepped for each
 * alone, its inputs from the cone's moves and the record. */
CONE_TARGET static __attribute__((noinline)) void delta_cone_join(delta_cone *d, int64_t t)
{
    olnet *n = d->b;
    const size_t N = (size_t)d->nodes;
    const uint32_t *rl = d->rl + (size_t)t * N * 4;
    const uint16_t *rf = d->rf + (size_t)t * N;
    uint32_t *hdr = d->hdr;
    for (int k = 0; k < d->nj; k++) {
        const int j = d->jl[k];
        copy_router(n, d->a, j);
        int nmv = 0, nh = 0;
        if (n->reqm[j]) cone_select(n, j);
        cone_vcsel(n, j, d->mv, &nmv);
        const int inj = cone_injects(n, j, t);
        /* Its moves are the parent's: the pops and ejections change it,
         * the pushes out are the record's already. */
        for (int m = 0; m < nmv; m++) {
            const uint32_t x = cone_pop(n, d->in, j, d->mv[m].h, d->mv[m].lo, hdr, &nh);
            if (d->mv[m].to < 0) cone_eject(n, x, t);
        }
        for (int p = 0; p < PORT_P; p++) {
            const int i = n->nbr[j * NPORTS + p];
            if (i < 0) continue;
            const int q = route_opposite(p);
            const uint32_t e = d->in[i] ? d->cfl[i * 4 + q] : rl[i * 4 + q];
            if (e) cone_push(n, (size_t)j * CNF + (size_t)p * CV + (e >> 28), (e & 0x0fffffffu) - 1, hdr, &nh);
        }
        if (inj) cone_inject(n, j, t, hdr, &nh);
        for (int m = 0; m < nh; m++) cone_route(n, d->on_link, hdr[m]);
        n->dfull[j] = rf[j];
    }
    settle_joins(d, d->jl, d->nj);
}

/* The routers that join at the start of cycle t by their release cycles
 * (rord, from release_at), those not in the cone already. */
static __attribute__((noinline)) int delta_cone_release(delta_cone *d, int64_t t)
{
    int nj = 0;
    for (; d->relp < d->nrord && d->rel_at[d->rord[d->relp]] <= t; d->relp++) {
        const int i = d->rord[d->relp];
        if (d->in[i]) continue;
        if (t > 0) copy_router(d->b, d->a, i);
        d->jl[nj++] = i;
    }
    if (nj) settle_joins(d, d->jl, nj);
    return nj;
}

/* ---- a job, and its check ---- */

/* Does router i's state differ between x and y (sim/delta.c's
 * router_diff: bit 0 dynamic state, bit 1 configuration)? */
static int state_diff(const olnet *x, const olnet *y, int i)
{
    const size_t base = (size_t)i * CNF;
    int r = 0;
    if (x->reqm[i] != y->reqm[i] || x->dfull[i] != y->dfull[i]) r |= 1;
    for (int l = 0; l < CNF; l++) {
        const size_t f = base + (size_t)l;
        const int c = x->cnt[f];
        if (c != y->cnt[f] || x->route[f] != y->route[f] || x->holder[f] != y->holder[f] ||
            memcmp(x->buf + f * CB, y->buf + f * CB, sizeof *x->buf * (size_t)c))
            r |= 1;
        else if ((x->reqm[i] >> l & 1) && (x->req_d[f] != y->req_d[f] || x->req_c[f] != y->req_c[f]))
            r |= 1;
        if (x->qsi[f] != y->qsi[f]) r |= 2;
    }
    for (int p = 0; p < NPORTS; p++) {
        const int u = x->pstate[(size_t)i * NPORTS + (size_t)p], w = y->pstate[(size_t)i * NPORTS + (size_t)p];
        if (u % CV != w % CV) r |= 1;
        if (u / CV != w / CV) r |= 2;
    }
    const olsource *s = &x->src[i], *u = &y->src[i];
    if (s->count != u->count || s->head != u->head || s->seq != u->seq || s->vc != u->vc || s->last_vc != u->last_vc)
        r |= 1;
    else if (s->count && s->due != u->due)
        r |= 2;
    return r;
}

/* The cycle each router joins the cone by its genes (sim/delta.c's
 * release_joins): 0 for changed schemes or queue orders, the first release
 * of a packet whose release changed in either run, never. */
static void release_at(delta_cone *d, const sim_config *a, const sim_config *b, const olnet *n)
{
    const int S = d->p.slices;
    for (int i = 0; i < d->nodes; i++) {
        const size_t q = (size_t)i * NPORTS * CV * NPORTS;
        if (memcmp(a->scheme + (size_t)i * NPORTS, b->scheme + (size_t)i * NPORTS, NPORTS) ||
            memcmp(a->qorder + q, b->qorder + q, NPORTS * CV * NPORTS)) {
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
    /* Those that join, by their cycle (insertion: a few hundred at most). */
    d->nrord = d->relp = 0;
    for (int i = 0; i < d->nodes; i++) {
        if (d->rel_at[i] == INT64_MAX) continue;
        int k = d->nrord++;
        for (; k > 0 && d->rel_at[d->rord[k - 1]] > d->rel_at[i]; k--) d->rord[k] = d->rord[k - 1];
        d->rord[k] = i;
    }
}

/* Would closedloop.c step cycle t of run n (*any), and which routers are
 * active (a flit in a FIFO or a source due: d->on)?  Returns how many are. */
static int active_routers(delta_cone *d, const olnet *n, int64_t t, int *any)
{
    int on_all = 0;
    *any = n->in_net > 0;
    for (int i = 0; i < d->nodes; i++) {
        int on = 0;
        const uint8_t *c = n->cnt + (size_t)i * CNF;
        for (int l = 0; l < CNF; l++) on |= c[l];
        const olsource *s = &n->src[i];
        if (s->count && (s->seq || s->due <= t)) on = 1, *any = 1;
        on_all += on != 0;
        d->on[i] = on != 0;
    }
    return on_all;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The parent's cycle t stepped; its ejections outside the cone (the
 * record's, in a product) are the child's. */
static void parent_cycle(delta_cone *d, int64_t t)
{
    olnet *a = d->a, *b = d->b;
    const int64_t inj0 = a->cl->injected;
    const int32_t *ids;
    int nd;
    const int nmv = (int)(olnet_step(a, t, &ids, &nd) - (a->cl->injected - inj0));
    for (int k = 0; k < nmv; k++) {
        const olfmove *mv = &a->fmv[k];
        if (mv->to < 0 && (!d->in[mv->node] || d->flag[mv->node]) && FL_TAIL(mv->x)) b->pk[FL_ID(mv->x)].t_done = t;
    }
}

/* The check of cycle t: the whole child stepped too; the cone holds its
 * state, the rest the parent's. */
static void check_cycle(delta_cone *d, int64_t t, delta_cone_stats *st)
{
    const int32_t *ids;
    int nd;
    olnet_step(d->r, t, &ids, &nd);
    for (int i = 0; i < d->nodes; i++) {
        if (d->in[i]) st->state_diffs += state_diff(d->b, d->r, i) != 0;
        else st->outside_diffs += state_diff(d->a, d->r, i) & 1;
    }
}

int64_t delta_cone_job(delta_cone *d, const sim_config *parent, const sim_config *child, int64_t cutoff, int check,
                       delta_cone_stats *st, delta_cone_cycle *cyc, int64_t cap)
{
    sim_metrics m;
    const double t0 = now();
    const sim_status s = closedloop_run(d->pr, child, cutoff > 0 ? cutoff : INT64_MAX, NULL, CL_LEAN, &m);
    st->sec_full += now() - t0;
    const int64_t end = s == SIM_OK ? m.duration : s == SIM_CUTOFF ? m.stop_cycle : 0;
    d->a = closedloop_begin(d->pa, parent);
    d->b = closedloop_begin(d->pb, child);
    d->r = closedloop_begin(d->pr, child);
    olnet *b = d->b, *r = d->r;
#ifdef OLNET_SSSE3
    if (!b->simd) return -1;
#endif
    release_at(d, parent, child, b);
    memset(d->in, 0, (size_t)d->nodes);
    memset(d->flag, 0, (size_t)d->nodes);
    d->ncone = 0;
    int64_t stepped = 0, ncyc = 0;
    for (int64_t t = 0; t < end; t++) {
        /* Activity first, on the whole child at the cycle's start (the
         * release joins change no state, only membership). */
        int any = 1;
        const int on = check ? active_routers(d, r, t, &any) : 0;
        const double c0 = now();
        const int nrel = delta_cone_release(d, t);
        const int ncone = d->ncone;
        int edge = 0;
        d->nj = 0;
        if (t < d->rcycles) {
            delta_cone_step(d, t);
            edge = delta_cone_edge(d, t);
            delta_cone_join(d, t);
        }
        st->sec_cone += now() - c0;
        int inc = 0;
        for (int k = 0; k < ncone; k++) inc += d->on[d->list[k]];
        if (t >= d->rcycles) {
            /* Past the parent's end nothing is recorded: not met on the
             * GA's jobs (a child is cut by its parent's duration). */
            st->state_diffs += d->nodes;
        }
        const int nj = d->nj;
        st->joins_edge += nj;
        st->joins_rel += nrel;
        parent_cycle(d, t);
        if (!check) continue;
        check_cycle(d, t, st);
        if (any) {
            stepped++;
            st->cone_rc += ncone;
            st->cone_active_rc += inc;
            st->active_rc += on;
            st->edge_lc += edge;
        }
        if (cyc && ncyc < cap)
            cyc[ncyc++] = (delta_cone_cycle){ .ncone = ncone, .cone_active = inc, .active = on, .edge = edge,
                                               .joins = nj + nrel, .stepped = any };
    }
    st->jobs++;
    if (!check) return ncyc;
    st->cycles += stepped;
    st->unlike_ga += stepped != m.cycles;
    /* Every packet's tail cycle as the whole child's. */
    closedloop_tail_cycles(d->pr, d->tails);
    closedloop_tail_cycles(d->pb, d->tails2);
    st->inexact += memcmp(d->tails, d->tails2, sizeof *d->tails * (size_t)d->npk) != 0;
    return ncyc;
}
