/* The fast cycle engine (see fast.h): the reference automaton of sim.c with
 * the work of a cycle proportional to what changes, not to the network.
 *
 * What makes it fast, and why each piece keeps the results exact:
 *  - Per router three bit masks over its local indices (port * V + vc):
 *    `reqm`, input FIFOs whose head is a header still waiting for an output
 *    VC; `livem`, output VCs that are held and whose holding FIFO has a flit
 *    (a FIFO is non-empty exactly when it is in one of the two); `dfull`,
 *    output VCs whose downstream FIFO is full.  A port's ready VCs are two
 *    shifts and a mask, and VC selection is one table look-up on the port's
 *    state byte (scheme and last grant, `pnext`).
 *  - Events instead of scans.  An output port is evaluated in cycle t
 *    only if it may send: it sent in t-1, a VC of it was granted in t or
 *    became live in t-1, or a full downstream FIFO of it popped in t-1.  A
 *    port found blocked (every live VC's downstream FIFO full) stays blocked
 *    until one of those events, since nothing else changes its inputs; its
 *    blocked cycles (lb) are added up when it is next evaluated.  Queue
 *    selection runs at a router only when a header reached a FIFO head or a
 *    tail freed an output VC there in t-1: a waiting request can be granted
 *    only after such an event.  A node due to inject but facing a full P
 *    FIFO sleeps until that FIFO pops.
 *  - A header's request (output port and VC) is computed once, when the
 *    header reaches the head of its FIFO; the reference recomputes it every
 *    cycle.
 *  - Decisions read only start-of-cycle state and are recorded in a move
 *    list, applied afterwards in one pass (apply_moves says why the order
 *    of pops and pushes does not matter), then injections.  Queue selection
 *    of router i changes only router i, and VC selection reads only its own
 *    port's state and dfull, so the visiting order is free; all queue
 *    selections of a cycle still come before its VC selections, as a grant
 *    may send at once.  Every metric is a sum, a count or a max; link
 *    statistics are kept per packet (its header and its tail).
 *  - FIFO contents: with B <= L + 1 (the defaults) a FIFO holds flits of at
 *    most two packets, and one word describes it (the head flit and the
 *    next header); larger FIFOs use a ring.  Flits are 32 bits.
 *  - Sources wait in a heap keyed by release time.
 *  - After a run that ended normally every FIFO is empty and every output VC
 *    free, so the next run resets only the arbitration state, the event
 *    stamps and the links.
 * Measured and dropped (callgrind counted fewer instructions, the clock more
 * time): moving flits as soon as their port decides, and one struct per
 * router and per FIFO instead of separate arrays. */
#include "sim/fast.h"
#include "sim/decisions_rec.h"
#include "sim/tailwin.h"

#include <stdlib.h>
#include <string.h>

/* A flit is 32 bits: its packet (source << sbits | slice, below 2^24, see
 * fast_supports) and its sequence number (header 0, tail L-1).  The
 * packet's destination and slice are looked up when a header is routed and
 * when slices are compared. */
typedef uint32_t flit;
#define FL_SEQ(f) ((int)((f) & 0xffu))
#define FL_PKT(f) ((f) >> 8)

typedef struct {
    int64_t t;
    int32_t node;
} release;

/* One flit move decided this cycle: from FIFO g out of port p8 on VC vc. */
typedef struct {
    uint32_t g;     /* source FIFO */
    uint32_t dst;   /* downstream FIFO (unused for P) */
    uint32_t p8;    /* output port, router * PSTRIDE + d */
    uint32_t vc;
} fmove;

/* Output ports are numbered router * PSTRIDE + d, so that the router and the
 * direction are a shift and a mask. */
#define PSTRIDE 8

/* Link statistics; first is stored plus one so that zero means unused and a
 * reset is a memset. */
typedef struct {
    int32_t first1, last, flits;
} flink;

struct fast_sim {
    sim_params p;
    int n, half, nodes, V, B, L, S, NF; /* NF = local FIFOs per router = NPORTS * V */
    int h, halfy;          /* height (n is the width) and its half */
    int sbits;             /* bits of a slice number in a packet number */
    int ok_run;            /* last run ended with the network empty */
    size_t bytes;
    /* Static tables. */
    uint16_t *dx, *dy;     /* per source: destination coordinates */
    int32_t *hops;         /* per source: route length, for the cutoff bound */
    uint8_t *sends;        /* per source: sends S packets */
    int32_t *nbr;          /* nbr[i * 4 + d] */
    int32_t *downbase;     /* first downstream FIFO of output port d < P */
    int32_t *upport;       /* output port (p8) feeding input port p < P of router i, [i * 4 + p] */
    uint16_t *x, *y;
    uint8_t *dl;           /* bit d: link out of port d is a dateline; bit 4 + p: link into port p is */
    /* VC selection as a state machine: a port's state byte is scheme * V +
     * (VC granted last); pnext[(state << V) | ready] is the state after the
     * grant, and psvc[state] the VC it granted. */
    uint8_t *pnext;
    uint8_t psvc[VCSEL_NSCHEMES * SIM_MAX_VCS];
    uint8_t lport[NPORTS * SIM_MAX_VCS], lvc[NPORTS * SIM_MAX_VCS];
    /* Input FIFOs, f = i * NF + port * V + vc. */
    /* When B <= L + 1 a FIFO holds flits of at most two packets and its flits
     * need not be stored: word[f] is the head flit (low half) and the next
     * packet's header (high half, 0 if none).  Otherwise a ring: buf, head. */
    uint64_t *word;
    flit *buf;
    uint8_t *cnt, *head;
    int8_t *route;         /* held output VC (local), -1 */
    int8_t *req;           /* request of the head header (valid while in reqm) */
    /* Output VCs, o = i * NF + d * V + c. */
    int8_t *holder;        /* local FIFO holding it, -1 */
    uint8_t *qst;          /* queue-selection orders, 5 bytes each */
    /* Output ports, p8 = i * PSTRIDE + d. */
    uint8_t *pstate;       /* VC-selection state byte (see pnext) */
    int32_t *blocked;      /* blocked from this cycle on, not yet counted in lb; -1 */
    /* Routers: bit masks over the local indices. */
    uint64_t *reqm, *livem;
    uint64_t *dfull;       /* output VCs whose downstream FIFO is full */
    /* Events for this cycle and the next: bit sets of output ports and of
     * routers (visited in index order, which keeps memory access sequential
     * on large networks), a list of sources. */
    uint64_t *pbits[2], *qbits[2];
    int32_t *ilist[2];
    /* Sources. */
    int32_t *slice;
    uint16_t *seq;
    uint8_t *istate;       /* ISRC_* */
    uint8_t *injok;
    uint8_t *ivc;          /* any-VC rule: the P input VC of the packet being injected */
    uint8_t *lastvc;       /* any-VC rule: the P input VC of the node's previous packet */
    int mesh, any;         /* topology and VC rule (sim_params.topo, vc_rule) */
    release *heap;
    int nheap;
    fmove *moves;
    flink *links;
    int32_t *tail_at;      /* per packet number: the cycle its tail ejected */
    /* The cutoff's load bound (link_reach): per link its whole load plus
     * the hops after it, and the loaded links by decreasing reach. */
    int32_t *reach;
    int32_t *after;        /* the hops after the link */
    int32_t *lorder;
    int nloaded;
    release *lheap;        /* a cut run's links by proof cycle (load_exceeds) */
    /* The run's decisions are written here when it is not NULL
     * (fast_run_recording); now is the cycle being stepped, for them. */
    sim_decisions *rec;
    int64_t now;
};

/* Where a source is: waiting for its release (heap) or done, listed for a
 * cycle, or asleep behind a full P FIFO. */
enum { ISRC_IDLE = 0, ISRC_LISTED, ISRC_STALLED };

/* The sizes the hot loop multiplies and compares with, and the topology's
 * switches.  The loop is instantiated once with the defaults as constants
 * (3 VCs, 4-flit FIFOs, 8-flit packets, torus, dateline rule) so that the
 * compiler folds them, twice for any size on the torus (FIFO contents in a
 * word or in a ring), and twice for meshes, where the switches are read at
 * run time: the torus paths never test them. */
typedef struct {
    int V, B, L, NF;
    int word;              /* FIFO contents in word[] (B <= L + 1), else in the ring */
    int mesh, any;         /* a mesh (no wrap); the any-VC rule */
} geo;

#define HOT static inline __attribute__((always_inline))

/* Words of the port and router bit sets. */
#define PWORDS(nodes) (((size_t)(nodes) * PSTRIDE + 63) / 64)
#define QWORDS(nodes) (((size_t)(nodes) + 63) / 64)

/* Do packet numbers, source << sbits | slice, fit in a flit's 24 bits? */
static int packets_fit(const sim_params *p)
{
    int sbits = 0;
    while ((1 << sbits) < p->slices) sbits++;
    return ((int64_t)sim_nodes(p) << sbits) <= (1 << 24);
}

int fast_supports(const sim_params *p)
{
    return p->slot_reuse == SLOT_NEXT_CYCLE && p->input_limit == INPUT_PER_VC && p->vcs <= SIM_MAX_VCS &&
           !p->slice_reinit && !p->interlock &&
           p->max_cycles <= INT32_MAX - 1 && p->n <= 1024 && packets_fit(p);
}

static void *alloc(fast_sim *f, size_t n, size_t size, int *ok)
{
    void *q = calloc(n ? n : 1, size);
    if (!q) *ok = 0;
    f->bytes += n * size;
    return q;
}

void fast_free(fast_sim *f)
{
    if (!f) return;
    free(f->dx); free(f->dy); free(f->word); free(f->hops); free(f->sends); free(f->nbr); free(f->downbase); free(f->upport);
    free(f->x); free(f->y); free(f->dl); free(f->pnext);
    free(f->buf); free(f->cnt); free(f->head); free(f->route); free(f->req);
    free(f->holder); free(f->qst); free(f->pstate); free(f->blocked);
    free(f->reqm); free(f->livem); free(f->dfull);
    for (int k = 0; k < 2; k++) { free(f->pbits[k]); free(f->qbits[k]); free(f->ilist[k]); }
    free(f->slice); free(f->seq); free(f->istate); free(f->injok); free(f->ivc); free(f->lastvc); free(f->heap);
    free(f->moves); free(f->links); free(f->reach); free(f->after); free(f->lorder); free(f->lheap); free(f->tail_at);
    free(f);
}

size_t fast_bytes(const fast_sim *f) { return f->bytes + sizeof *f; }

static int u64_cmp(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* What the load bound knows of each link before a run: the flits it
 * carries in a whole run (S packets of L flits from every sending source
 * whose route, x first, then y, as route_req, uses it), plus the fewest hops
 * a packet over it still has to go after it; and the loaded links sorted by
 * decreasing reach. */
static int link_reach(fast_sim *f, const route_params *rp)
{
    const int nl = f->nodes * 4;
    int32_t *after = f->after;
    uint64_t *key = malloc(sizeof *key * (size_t)nl);
    if (!key) return -1;
    for (int l = 0; l < nl; l++) after[l] = INT32_MAX;
    for (int i = 0; i < f->nodes; i++) {
        if (!f->sends[i]) continue;
        const int dest = f->dy[i] * f->n + f->dx[i]; /* node = y * width + x */
        for (int j = i, h = f->hops[i];; h--) {
            int d = route_grid_port(rp, j, dest);
            if (d == PORT_P) break;
            f->reach[j * 4 + d] += f->L * f->S;
            if (h - 1 < after[j * 4 + d]) after[j * 4 + d] = h - 1;
            j = f->nbr[j * 4 + d];
        }
    }
    f->nloaded = 0;
    for (int l = 0; l < nl; l++)
        if (f->reach[l]) {
            f->reach[l] += after[l];
            /* Sort keys: the reach's complement above the link number. */
            key[f->nloaded++] = (uint64_t)(INT32_MAX - f->reach[l]) << 32 | (uint32_t)l;
        }
    qsort(key, (size_t)f->nloaded, sizeof *key, u64_cmp);
    for (int k = 0; k < f->nloaded; k++) f->lorder[k] = (int32_t)(uint32_t)key[k];
    free(key);
    return 0;
}

/* Every array of the engine, sized for f's network; 0, or -1 when out of memory. */
static int fast_alloc(fast_sim *f)
{
    size_t nodes = (size_t)f->nodes, nf = nodes * (size_t)f->NF;
    int ok = 1;
    f->dx = alloc(f, nodes, sizeof *f->dx, &ok);
    f->dy = alloc(f, nodes, sizeof *f->dy, &ok);
    f->hops = alloc(f, nodes, sizeof *f->hops, &ok);
    f->sends = alloc(f, nodes, 1, &ok);
    f->nbr = alloc(f, nodes * 4, sizeof *f->nbr, &ok);
    f->downbase = alloc(f, nodes * 4, sizeof *f->downbase, &ok);
    f->upport = alloc(f, nodes * 4, sizeof *f->upport, &ok);
    f->x = alloc(f, nodes, sizeof *f->x, &ok);
    f->y = alloc(f, nodes, sizeof *f->y, &ok);
    f->dl = alloc(f, nodes, 1, &ok);
    f->pnext = alloc(f, (size_t)VCSEL_NSCHEMES * (size_t)f->V << f->V, 1, &ok);
    const int word = f->B <= f->L + 1;
    f->word = alloc(f, word ? nf : 0, sizeof *f->word, &ok);
    f->buf = alloc(f, word ? 0 : nf * (size_t)f->B, sizeof *f->buf, &ok);
    f->cnt = alloc(f, nf, 1, &ok);
    f->head = alloc(f, word ? 0 : nf, 1, &ok);
    f->route = alloc(f, nf, 1, &ok);
    f->req = alloc(f, nf, 1, &ok);
    f->holder = alloc(f, nf, 1, &ok);
    f->qst = alloc(f, nf * NPORTS, 1, &ok);
    f->pstate = alloc(f, nodes * PSTRIDE, 1, &ok);
    f->blocked = alloc(f, nodes * PSTRIDE, sizeof *f->blocked, &ok);
    f->reqm = alloc(f, nodes, sizeof *f->reqm, &ok);
    f->livem = alloc(f, nodes, sizeof *f->livem, &ok);
    f->dfull = alloc(f, nodes, sizeof *f->dfull, &ok);
    for (int k = 0; k < 2; k++) {
        f->pbits[k] = alloc(f, PWORDS(nodes), sizeof *f->pbits[k], &ok);
        f->qbits[k] = alloc(f, QWORDS(nodes), sizeof *f->qbits[k], &ok);
        f->ilist[k] = alloc(f, nodes, sizeof *f->ilist[k], &ok);
    }
    f->slice = alloc(f, nodes, sizeof *f->slice, &ok);
    f->seq = alloc(f, nodes, sizeof *f->seq, &ok);
    f->istate = alloc(f, nodes, 1, &ok);
    f->injok = alloc(f, nodes, 1, &ok);
    f->ivc = alloc(f, nodes, 1, &ok);
    f->lastvc = alloc(f, nodes, 1, &ok);
    f->heap = alloc(f, nodes, sizeof *f->heap, &ok);
    f->moves = alloc(f, nodes * NPORTS, sizeof *f->moves, &ok);
    f->links = alloc(f, nodes * 4, sizeof *f->links, &ok);
    f->tail_at = alloc(f, nodes << f->sbits, sizeof *f->tail_at, &ok);
    f->reach = alloc(f, nodes * 4, sizeof *f->reach, &ok);
    f->after = alloc(f, nodes * 4, sizeof *f->after, &ok);
    f->lorder = alloc(f, nodes * 4, sizeof *f->lorder, &ok);
    f->lheap = alloc(f, nodes * 4, sizeof *f->lheap, &ok);
    return ok ? 0 : -1;
}

/* The static tables: coordinates, destinations, neighbours, datelines and
 * the VC-selection look-up. */
static void fast_tables(fast_sim *f, const sim_params *p, const int32_t *dest, const route_params *rp)
{
    for (int i = 0; i < f->nodes; i++) {
        f->x[i] = (uint16_t)(i % f->n);
        f->y[i] = (uint16_t)(i / f->n);
        f->dx[i] = (uint16_t)(dest[i] % f->n);
        f->dy[i] = (uint16_t)(dest[i] / f->n);
        f->hops[i] = route_hops(rp, i, dest[i]);
        f->sends[i] = dest[i] != i || p->self == SELF_SEND;
        uint8_t dl = 0;
        for (int d = 0; d < 4; d++) {
            int nb = route_grid_neighbour(rp, i, d);
            f->nbr[i * 4 + d] = nb;
            if (nb < 0) { /* a mesh's edge: no link, never routed to */
                f->downbase[i * 4 + d] = f->upport[i * 4 + d] = 0;
                continue;
            }
            f->downbase[i * 4 + d] = nb * f->NF + route_opposite(d) * f->V;
            f->upport[i * 4 + d] = nb * PSTRIDE + route_opposite(d);
            if (route_grid_dateline(rp, i, d)) dl |= (uint8_t)(1u << d);
            /* Input port d is fed by the neighbour's opposite output. */
            if (route_grid_dateline(rp, nb, route_opposite(d))) dl |= (uint8_t)(1u << (4 + d));
        }
        f->dl[i] = dl;
    }
    for (int k = 0; k < f->NF; k++) {
        f->lport[k] = (uint8_t)(k / f->V);
        f->lvc[k] = (uint8_t)(k % f->V);
    }
    for (int sc = 0; sc < VCSEL_NSCHEMES; sc++)
        for (int last = 0; last < f->V; last++)
            for (unsigned r = 0; r < (1u << f->V); r++)
                f->pnext[((size_t)(sc * f->V + last) << f->V) | r] =
                    (uint8_t)(sc * f->V + (r ? vcsel_pick(sc, r, last, f->V) : last));
    for (int ps = 0; ps < VCSEL_NSCHEMES * f->V; ps++) f->psvc[ps] = (uint8_t)(ps % f->V);
}

fast_sim *fast_new(const sim_params *p, const int32_t *dest)
{
    fast_sim *f = calloc(1, sizeof *f);
    if (!f) return NULL;
    f->p = *p;
    f->n = p->n;
    f->half = p->n / 2;
    f->h = sim_height(p);
    f->halfy = f->h / 2;
    f->nodes = sim_nodes(p);
    f->V = p->vcs;
    f->B = p->buffer;
    f->L = p->flits;
    f->S = p->slices;
    f->NF = NPORTS * p->vcs;
    f->mesh = p->topo == TOPO_MESH;
    f->any = p->vc_rule == VCRULE_ANY;
    while ((1 << f->sbits) < f->S) f->sbits++;
    if (fast_alloc(f)) {
        fast_free(f);
        return NULL;
    }
    route_params rp = { .n = p->n, .tie = p->tie, .dateline = p->dateline, .topo = p->topo, .w = p->n,
                        .h = f->h };
    fast_tables(f, p, dest, &rp);
    size_t nodes = (size_t)f->nodes, nf = nodes * (size_t)f->NF;
    memset(f->route, -1, nf);
    memset(f->holder, -1, nf);
    memset(f->blocked, -1, nodes * PSTRIDE * sizeof *f->blocked);
    if (link_reach(f, &rp)) {
        fast_free(f);
        return NULL;
    }
    f->ok_run = 1;
    return f;
}

/* ---- routing ---- */

/* route_offset with the node's coordinate already split out, on a ring of
 * k nodes (half = k / 2); on a mesh, the plain difference. */
HOT int ring_offset(const fast_sim *f, const geo G, int a, int b, int k, int half)
{
    int d = b - a;
    if (G.mesh) return d;
    if (d > half) d -= k;
    else if (d < -half) d += k;
    if (d == half || d == -half) {
        if (f->p.tie == TIE_PLUS) d = half;
        else if (f->p.tie == TIE_MINUS) d = -half;
    }
    return d;
}

/* route_next for the header `fl` in local FIFO `lf` of router j: the local
 * output VC it asks for (under the any-VC rule: VC 0 of its output port,
 * standing for the port). */
HOT int route_req(const fast_sim *f, const geo G, int j, int lf, flit fl)
{
    const uint32_t src = FL_PKT(fl) >> f->sbits;
    int dx = ring_offset(f, G, f->x[j], f->dx[src], f->n, f->half);
    int d;
    if (dx) d = dx > 0 ? PORT_E : PORT_W;
    else {
        int dy = ring_offset(f, G, f->y[j], f->dy[src], f->h, f->halfy);
        d = dy ? (dy > 0 ? PORT_N : PORT_S) : PORT_P;
    }
    int p = f->lport[lf], up;
    if (G.any) return d * G.V; /* the port; queue_selection_any picks the VC */
    if (f->p.dateline == DATELINE_ON_LINK) up = d != PORT_P && (f->dl[j] >> d & 1);
    else up = p != PORT_P && (f->dl[j] >> (4 + p) & 1);
    return d * G.V + f->lvc[lf] + up;
}

/* ---- release heap ---- */

static void heap_down(release *h, int n, int k)
{
    release e = h[k];
    for (;;) {
        int c = 2 * k + 1;
        if (c >= n) break;
        if (c + 1 < n && h[c + 1].t < h[c].t) c++;
        if (h[c].t >= e.t) break;
        h[k] = h[c];
        k = c;
    }
    h[k] = e;
}

static void heap_push(fast_sim *f, int64_t t, int32_t node)
{
    int k = f->nheap++;
    while (k > 0 && f->heap[(k - 1) / 2].t > t) {
        f->heap[k] = f->heap[(k - 1) / 2];
        k = (k - 1) / 2;
    }
    f->heap[k] = (release){ t, node };
}

static int32_t heap_pop(fast_sim *f)
{
    int32_t node = f->heap[0].node;
    f->heap[0] = f->heap[--f->nheap];
    if (f->nheap) heap_down(f->heap, f->nheap, 0);
    return node;
}

/* ---- event lists ---- */

/* The events of the current cycle (c) and the next one (n). */
typedef struct {
    uint64_t *pc, *pn, *qc, *qn;
    int32_t *ic, *in;
    int nic, nin;
} events;

HOT void set_bit(uint64_t *bits, size_t k) { bits[k >> 6] |= 1ull << (k & 63); }

/* ---- one cycle's decisions ---- */

HOT int flit_slice(const fast_sim *f, flit fl)
{
    return (int)(FL_PKT(fl) & ((1u << f->sbits) - 1));
}

HOT flit head_flit(const fast_sim *f, const geo G, size_t g)
{
    if (G.word) return (flit)f->word[g];
    return f->buf[g * (size_t)G.B + f->head[g]];
}

/* Step 1 at router i: every free output VC grants one of its requests; a
 * granted port is listed for this cycle, as the header may move at once. */
HOT void queue_selection(fast_sim *f, const geo G, int i, events *ev, sim_metrics *m)
{
    const size_t base = (size_t)i * (size_t)G.NF;
    const uint64_t rm = f->reqm[i];
    uint64_t seen = 0;
    for (uint64_t a = rm; a; a &= a - 1) {
        int lf = __builtin_ctzll(a);
        int o = f->req[base + (size_t)lf];
        if ((seen >> o & 1) || f->holder[base + (size_t)o] >= 0) continue;
        seen |= 1ull << o;
        /* All requests for o: their directions, and per direction the lowest
         * VC (the reference's tie-break within a direction). */
        unsigned dirs = 0;
        int first[NPORTS];
        uint64_t same = 0;
        for (uint64_t b = a; b; b &= b - 1) {
            int q = __builtin_ctzll(b);
            if (f->req[base + (size_t)q] != o) continue;
            same |= 1ull << q;
            int pd = f->lport[q];
            if (!(dirs >> pd & 1)) first[pd] = q;
            dirs |= 1u << pd;
        }
        uint8_t *order = f->qst + (base + (size_t)o) * NPORTS;
        int pos = 0;
        while (!(dirs >> order[pos] & 1)) pos++;
        int win = first[order[pos]];
        if (f->rec) sim_decisions_grant(f->rec, base + (size_t)o, dirs, order[pos]);
        f->holder[base + (size_t)o] = (int8_t)win;
        f->route[base + (size_t)win] = (int8_t)o;
        f->reqm[i] &= ~(1ull << win);
        f->livem[i] |= 1ull << o;
        set_bit(ev->pc, (size_t)i * PSTRIDE + f->lport[o]);
        qsel_update_order(order, pos, f->p.q_update);
        same &= ~(1ull << win);
        if (same) {
            int ws = flit_slice(f, head_flit(f, G, base + (size_t)win));
            for (; same; same &= same - 1) {
                int ls = flit_slice(f, head_flit(f, G, base + (size_t)__builtin_ctzll(same)));
                if (ls > ws) m->ir++;
                else if (ls < ws) m->or_++;
            }
        }
    }
}
/* Step 1 at router i under the any-VC rule: the requests name ports (req =
 * d * V); each free VC of a port grants in ascending order, by its own
 * order, among the requests for the port not yet granted, the lowest VC of
 * the winning direction first (sim.c's queue_selection_any).  Requests left
 * waiting lost to each grant of their port (ir / or).  No decisions are
 * recorded: a grant changes the requests the next VC sees. */
HOT void queue_selection_any(fast_sim *f, const geo G, int i, events *ev, sim_metrics *m)
{
    const int V = G.V;
    const size_t base = (size_t)i * (size_t)G.NF;
    uint64_t left = f->reqm[i];
    while (left) {
        const int d = f->req[base + (size_t)__builtin_ctzll(left)] / V;
        uint64_t cand = 0;
        for (uint64_t b = left; b; b &= b - 1) {
            int q = __builtin_ctzll(b);
            if (f->req[base + (size_t)q] / V == d) cand |= 1ull << q;
        }
        left &= ~cand;
        uint64_t won = 0;
        for (int c = 0; c < V && cand; c++) {
            const int o = d * V + c;
            if (f->holder[base + (size_t)o] >= 0) continue;
            unsigned dirs = 0;
            for (uint64_t b = cand; b; b &= b - 1) dirs |= 1u << f->lport[__builtin_ctzll(b)];
            uint8_t *order = f->qst + (base + (size_t)o) * NPORTS;
            int pos = 0;
            while (!(dirs >> order[pos] & 1)) pos++;
            const int win = __builtin_ctzll(cand & (((1ull << V) - 1) << (order[pos] * V)));
            f->holder[base + (size_t)o] = (int8_t)win;
            f->route[base + (size_t)win] = (int8_t)o;
            f->reqm[i] &= ~(1ull << win);
            f->livem[i] |= 1ull << o;
            set_bit(ev->pc, (size_t)i * PSTRIDE + (size_t)d);
            qsel_update_order(order, pos, f->p.q_update);
            cand &= ~(1ull << win);
            won |= 1ull << win;
        }
        for (; cand; cand &= cand - 1) {
            int ls = flit_slice(f, head_flit(f, G, base + (size_t)__builtin_ctzll(cand)));
            for (uint64_t w = won; w; w &= w - 1) {
                int ws = flit_slice(f, head_flit(f, G, base + (size_t)__builtin_ctzll(w)));
                if (ls > ws) m->ir++;
                else if (ls < ws) m->or_++;
            }
        }
    }
}

/* Step 2 at output port p8 (router i, direction d): pick the VC that sends
 * and append the move.  The ready VCs are the live ones whose downstream
 * FIFO is not full (dfull); the P port's dfull bits are never set.  A port
 * that sends is listed for the next cycle; one that is blocked sleeps, its
 * blocked cycles counted when it is next listed. */
HOT int vc_selection(fast_sim *f, const geo G, size_t p8, int64_t t, int *nmoves, sim_metrics *m)
{
    const int V = G.V;
    const int i = (int)(p8 / PSTRIDE), d = (int)(p8 % PSTRIDE), sh = d * V;
    if (f->blocked[p8] >= 0) {
        m->lb += t - f->blocked[p8];
        f->blocked[p8] = -1;
    }
    const unsigned mask = (1u << V) - 1;
    const unsigned cand = (unsigned)(f->livem[i] >> sh) & mask;
    if (!cand) return 0;
    const unsigned ready = cand & ~(unsigned)(f->dfull[i] >> sh);
    if (!ready) {
        m->lb++;
        f->blocked[p8] = (int32_t)t + 1;
        return 0;
    }
    const unsigned st0 = f->pstate[p8];
    const int ps = f->pnext[((size_t)st0 << V) | ready];
    f->pstate[p8] = (uint8_t)ps;
    const int vc = f->psvc[ps];
    const size_t base = (size_t)i * (size_t)G.NF, ob = base + (size_t)sh;
    const size_t src = base + (size_t)f->holder[ob + (size_t)vc];
    unsigned others = ready & ~(1u << vc);
    if (others) {
        /* Only a choice is recorded: one ready VC is picked by every scheme. */
        if (f->rec) sim_decisions_vcsel(f->rec, (size_t)i * NPORTS + (size_t)d, f->psvc[st0], ready);
        int ws = flit_slice(f, head_flit(f, G, src));
        for (; others; others &= others - 1) {
            int ls = flit_slice(f, head_flit(f, G, base + (size_t)f->holder[ob + (size_t)__builtin_ctz(others)]));
            if (ls > ws) m->ib++;
            else if (ls < ws) m->ob++;
        }
    }
    fmove *mv = &f->moves[(*nmoves)++];
    mv->g = (uint32_t)src;
    mv->dst = (uint32_t)f->downbase[(size_t)i * 4 + (size_t)(d & 3)] + (uint32_t)vc;
    mv->p8 = (uint32_t)p8;
    mv->vc = (uint32_t)vc;
    return 1;
}

/* ---- applying the moves ---- */

/* Put flit fl at the tail of FIFO g (local index lg) of router j, keep the
 * masks true and list what the arrival lets happen next cycle. */
HOT void push(fast_sim *f, const geo G, events *ev, int j, int lg, size_t g, flit fl)
{
    const int k = f->cnt[g];
    if (G.word) {
        if (!k) f->word[g] = fl;
        else if (FL_SEQ(fl) == 0) f->word[g] |= (uint64_t)fl << 32;
    } else {
        int h = f->head[g] + k;
        if (h >= G.B) h -= G.B;
        f->buf[g * (size_t)G.B + (size_t)h] = fl;
    }
    f->cnt[g] = (uint8_t)(k + 1);
    if (k) return;
    int r = f->route[g];
    if (r >= 0) {
        f->livem[j] |= 1ull << r;
        set_bit(ev->pn, (size_t)j * PSTRIDE + f->lport[r]);
    } else {
        f->req[g] = (int8_t)route_req(f, G, j, lg, fl);
        f->reqm[j] |= 1ull << lg;
        set_bit(ev->qn, (size_t)j);
    }
}

/* A full FIFO (local lf of router i) popped: whoever feeds it may send next
 * cycle. */
HOT void unblock_feeder(fast_sim *f, const geo G, events *ev, int i, int lf)
{
    const int pin = f->lport[lf];
    if (pin != PORT_P) {
        const int32_t up = f->upport[i * 4 + pin];
        f->dfull[up / PSTRIDE] &= ~(1ull << ((up % PSTRIDE) * G.V + f->lvc[lf]));
        set_bit(ev->pn, (size_t)up);
    } else {
        if (f->rec) sim_decisions_room(f->rec, i, f->now);
        if (f->istate[i] == ISRC_STALLED) {
            f->istate[i] = ISRC_LISTED;
            ev->in[ev->nin++] = i;
        }
    }
}

/* Where a run is: packets done, flits in the network, the last ejection. */
typedef struct {
    int64_t done, in_net, last_eject, moved;
    tailwin tw;
} progress;

/* Take the head flit of the move's FIFO out; a tail frees the output VC and
 * brings the next packet's header (if any) to the head. */
HOT flit pop(fast_sim *f, const geo G, events *ev, int i, int lo, size_t g)
{
    const int lf = (int)(g - (size_t)i * (size_t)G.NF);
    flit fl;
    if (G.word) {
        const uint64_t w = f->word[g];
        fl = (flit)w;
        /* After a tail the next packet's header is the head; else the
         * sequence number steps (meaningless once the FIFO is empty). */
        f->word[g] = FL_SEQ(fl) == G.L - 1 ? w >> 32 : w + 1;
    } else {
        const int h = f->head[g];
        fl = f->buf[g * (size_t)G.B + (size_t)h];
        f->head[g] = (uint8_t)(h + 1 == G.B ? 0 : h + 1);
    }
    const int left = --f->cnt[g];
    if (left == G.B - 1) unblock_feeder(f, G, ev, i, lf);
    if (FL_SEQ(fl) == G.L - 1) {
        f->holder[(size_t)i * (size_t)G.NF + (size_t)lo] = -1;
        f->route[g] = -1;
        f->livem[i] &= ~(1ull << lo);
        if (left) {
            f->req[g] = (int8_t)route_req(f, G, i, lf, head_flit(f, G, g));
            f->reqm[i] |= 1ull << lf;
        }
        if (f->reqm[i]) set_bit(ev->qn, (size_t)i);
    } else if (!left) {
        f->livem[i] &= ~(1ull << lo);
    }
    return fl;
}

/* Apply every move in one pass, pop then push.  The order of the moves does
 * not matter: a decision read only start-of-cycle state, a FIFO is fed by one
 * output VC only, and a FIFO that is both popped and pushed in a cycle holds
 * between 1 and B-1 flits at its start, so its head, its ring slots or word
 * and its masks end the same either way (a push-first order may list a port
 * that sent anyway; a word never needs a third packet, as that takes
 * B >= L + 2). */
HOT void apply_moves(fast_sim *f, const geo G, events *ev, int nmoves, int64_t t, progress *pr, sim_metrics *m)
{
    for (int k = 0; k < nmoves; k++) {
        const fmove *mv = &f->moves[k];
        const int i = (int)(mv->p8 / PSTRIDE), d = (int)(mv->p8 % PSTRIDE), lo = d * G.V + (int)mv->vc;
        const flit fl = pop(f, G, ev, i, lo, (size_t)mv->g);
        if (d == PORT_P) {
            m->flits_ejected++;
            pr->in_net--;
            if (FL_SEQ(fl) == G.L - 1) {
                pr->done++;
                pr->last_eject = t;
                tailwin_add(&pr->tw, t);
                f->tail_at[FL_PKT(fl)] = (int32_t)t;
            }
            continue;
        }
        const size_t dst = mv->dst;
        if (f->cnt[dst] == G.B - 1) f->dfull[i] |= 1ull << lo;
        push(f, G, ev, f->nbr[i * 4 + d], route_opposite(d) * G.V + (int)mv->vc, dst, fl);
        /* Link statistics per packet: a link's first flit is a header, its
         * last a tail, and every packet that starts over it crosses it whole
         * in a run that ends (a cut run's statistics are unspecified).  The
         * load bound reads the flits counted so far, which are never fewer
         * than the flits that crossed. */
        const int seq = FL_SEQ(fl);
        if (seq == 0) {
            flink *lk = &f->links[(size_t)i * 4 + (size_t)d];
            if (!lk->first1) lk->first1 = (int32_t)t + 1;
            lk->flits += G.L;
        } else if (seq == G.L - 1) {
            f->links[(size_t)i * 4 + (size_t)d].last = (int32_t)t;
        }
    }
    pr->moved = nmoves;
}

static void reset(fast_sim *f, const sim_config *c)
{
    size_t nf = (size_t)f->nodes * (size_t)f->NF, np = (size_t)f->nodes * PSTRIDE;
    if (!f->ok_run) {
        memset(f->cnt, 0, nf);
        memset(f->route, -1, nf);
        memset(f->holder, -1, nf);
        memset(f->reqm, 0, (size_t)f->nodes * sizeof *f->reqm);
        memset(f->livem, 0, (size_t)f->nodes * sizeof *f->livem);
        memset(f->dfull, 0, (size_t)f->nodes * sizeof *f->dfull);
        memset(f->blocked, -1, np * sizeof *f->blocked);
    }
    memcpy(f->qst, c->qorder, nf * NPORTS);
    /* As if VC 0 was granted last. */
    for (int i = 0; i < f->nodes; i++)
        for (int d = 0; d < NPORTS; d++)
            f->pstate[(size_t)i * PSTRIDE + (size_t)d] = (uint8_t)(c->scheme[i * NPORTS + d] * f->V);
    for (int k = 0; k < 2; k++) {
        memset(f->pbits[k], 0, PWORDS(f->nodes) * sizeof *f->pbits[k]);
        memset(f->qbits[k], 0, QWORDS(f->nodes) * sizeof *f->qbits[k]);
    }
    memset(f->links, 0, (size_t)f->nodes * 4 * sizeof *f->links);
}

/* ---- the steps of a cycle ---- */

/* With the network empty, jump to the next release (as the reference). */
HOT int64_t skip_idle(fast_sim *f, const sim_config *c, events *ev, int64_t t)
{
    int64_t next = INT64_MAX;
    for (int k = 0; k < ev->nic; k++) {
        int i = ev->ic[k];
        /* A source part-way through a packet injects now. */
        int64_t r = f->seq[i] ? t : (int64_t)f->slice[i] * c->interval + c->inject[i];
        if (r < next) next = r;
    }
    if (f->nheap && f->heap[0].t < next) next = f->heap[0].t;
    if (next == INT64_MAX || next <= t) return t;
    /* Nothing is in the network: the listed ones have nothing to do. */
    memset(ev->pc, 0, PWORDS(f->nodes) * sizeof *ev->pc);
    memset(ev->qc, 0, QWORDS(f->nodes) * sizeof *ev->qc);
    return next;
}

/* Sources whose release time has come join this cycle's list. */
HOT void release_due(fast_sim *f, events *ev, int64_t t)
{
    while (f->nheap && f->heap[0].t <= t) {
        int i = heap_pop(f);
        f->istate[i] = ISRC_LISTED;
        ev->ic[ev->nic++] = i;
    }
}

/* The P input VC source i's next flit goes into, or -1 when it has no room
 * now: VC 0 under the dateline rule; under the any-VC rule a new packet
 * takes the next VC, round robin from its previous packet's, with a free
 * slot (sim.c's injection_vc).  The choice is kept in ivc. */
HOT int inject_vc(fast_sim *f, const geo G, int i)
{
    const size_t f0 = (size_t)i * (size_t)G.NF + PORT_P * (size_t)G.V;
    if (!G.any) return f->cnt[f0] < G.B ? 0 : -1;
    if (f->seq[i]) return f->cnt[f0 + f->ivc[i]] < G.B ? f->ivc[i] : -1;
    for (int k = 1; k <= G.V; k++) {
        int v = f->lastvc[i] + k;
        if (v >= G.V) v -= G.V;
        if (f->cnt[f0 + (size_t)v] < G.B) {
            f->ivc[i] = (uint8_t)v;
            return v;
        }
    }
    return -1;
}

/* Step 1 at every listed router, then step 2 at every listed port (a grant
 * may send at once).  Returns the number of moves. */
HOT int select_all(fast_sim *f, const geo G, events *ev, int64_t t, sim_metrics *m)
{
    const size_t pwords = PWORDS(f->nodes), qwords = QWORDS(f->nodes);
    for (size_t w = 0; w < qwords; w++) {
        uint64_t bits = ev->qc[w];
        ev->qc[w] = 0;
        for (; bits; bits &= bits - 1) {
            const int i = (int)(w * 64) + __builtin_ctzll(bits);
            if (G.any) queue_selection_any(f, G, i, ev, m);
            else queue_selection(f, G, i, ev, m);
        }
    }
    int nmoves = 0;
    for (size_t w = 0; w < pwords; w++) {
        uint64_t bits = ev->pc[w], sent = 0;
        if (!bits) continue;
        ev->pc[w] = 0;
        for (; bits; bits &= bits - 1)
            if (vc_selection(f, G, w * 64 + (size_t)__builtin_ctzll(bits), t, &nmoves, m)) sent |= bits & -bits;
        ev->pn[w] |= sent; /* a port that sends may send again next cycle */
    }
    /* Step 3's decision, on the FIFO as it was at the start. */
    for (int k = 0; k < ev->nic; k++) f->injok[k] = inject_vc(f, G, ev->ic[k]) >= 0;
    return nmoves;
}

/* Step 3: listed sources whose P FIFO had room inject one flit; the others
 * wait for a pop.  A source stays listed while its packet is due. */
HOT void inject(fast_sim *f, const geo G, const sim_config *c, events *ev, int64_t t, progress *pr, sim_metrics *m)
{
    for (int k = 0; k < ev->nic; k++) {
        int i = ev->ic[k];
        if (!f->injok[k]) {
            if (inject_vc(f, G, i) >= 0) ev->in[ev->nin++] = i; /* it popped this cycle */
            else f->istate[i] = ISRC_STALLED;
            continue;
        }
        const int v = G.any ? f->ivc[i] : 0;
        size_t f0 = (size_t)i * (size_t)G.NF + PORT_P * (size_t)G.V + (size_t)v;
        if (f->rec && f->seq[i] == 0) sim_decisions_header(f->rec, i, f->slice[i], t);
        push(f, G, ev, i, PORT_P * G.V + v, f0, ((uint32_t)i << f->sbits | (uint32_t)f->slice[i]) << 8 | f->seq[i]);
        m->flits_injected++;
        pr->in_net++;
        pr->moved++;
        if (++f->seq[i] == G.L) {
            if (f->rec) sim_decisions_tail(f->rec, i, t, f->cnt[f0] == G.B);
            f->seq[i] = 0;
            f->lastvc[i] = (uint8_t)v;
            int s = ++f->slice[i];
            int64_t r = (int64_t)s * c->interval + c->inject[i];
            if (s == f->S || r > t + 1) { /* not due next cycle */
                f->istate[i] = ISRC_IDLE;
                if (s < f->S) heap_push(f, r, i);
                continue;
            }
        }
        ev->in[ev->nin++] = i;
    }
}

/* The next cycle's lists become current. */
HOT void swap_events(events *ev)
{
    uint64_t *tb;
    tb = ev->pc; ev->pc = ev->pn; ev->pn = tb;
    tb = ev->qc; ev->qc = ev->qn; ev->qn = tb;
    int32_t *tl = ev->ic; ev->ic = ev->in; ev->in = tl; ev->nic = ev->nin; ev->nin = 0;
}

/* The load bound of a cut run: is the duration certain to exceed cutoff?
 * A link carries at most one flit per cycle, so a link with R flits still
 * to carry at the start of cycle t carries its last one at t + R - 1 or
 * later; that flit then crosses at least A more links (A: the fewest hops
 * any packet over the link has left after it), one per cycle, and ejects a
 * cycle after its last hop: the duration (last ejection + 1) is at least
 * t + R + A + 1, which exceeds cutoff when R + A >= cutoff - t.  R is taken
 * as the whole load minus L per header that crossed (links[].flits), never
 * more than the flits really left, so the bound stays a lower bound; it
 * must be above 0, as a link with nothing left proves nothing.  (Counting
 * flits one by one saved 9.5 % of a GA run's cycles instead of 9.0 %, but
 * cost 2.2 % of the instructions of every run.)
 *
 * Link l proves it at cycle t if key <= t - cutoff, key = flits - reach
 * (reach = whole load + A).  Keys only grow (as headers cross), so the links
 * sit in a min-heap under the key each had when last looked at, a lower
 * bound of its key now: while the top's is above t - cutoff no link proves
 * it, and a cycle costs one comparison.  Otherwise the top is looked at: a
 * current key proves it, a stale one is updated, a link with nothing left is
 * dropped.  The heap starts as the links by decreasing reach (ascending
 * keys: a heap already). */
HOT void load_start(fast_sim *f, int *nh)
{
    for (int k = 0; k < f->nloaded; k++) f->lheap[k] = (release){ -f->reach[f->lorder[k]], f->lorder[k] };
    *nh = f->nloaded;
}

HOT int load_exceeds(fast_sim *f, int64_t t, int64_t cutoff, int *nh)
{
    release *h = f->lheap;
    while (*nh && h[0].t <= t - cutoff) {
        const int32_t l = h[0].node;
        const int32_t r = f->reach[l] - f->links[l].flits; /* R + A */
        if (r <= f->after[l]) {                             /* R = 0 */
            h[0] = h[--*nh];
            if (*nh) heap_down(h, *nh, 0);
        } else if (-r > h[0].t) {
            h[0].t = -r;
            heap_down(h, *nh, 0);
        } else {
            return 1;
        }
    }
    return 0;
}

#ifdef NOCSIM_CHECK
/* The checking build (make check builds one with -DNOCSIM_CHECK): after
 * every cycle the invariants stated above are walked, and a run that breaks
 * one aborts with the cycle, the router, the local index and the rule. */
#include <stdio.h>

static void invariant_broken(int64_t t, int i, int k, const char *rule)
{
    fprintf(stderr, "nocsim: fast engine invariant broken in cycle %lld at router %d, index %d: %s\n", (long long)t, i,
            k, rule);
    abort();
}

static void check_invariants(const fast_sim *f, const geo G, const progress *pr, int64_t t)
{
    int64_t flits = 0;
    for (int i = 0; i < f->nodes; i++) {
        const size_t base = (size_t)i * (size_t)G.NF;
        if ((f->reqm[i] | f->livem[i] | f->dfull[i]) >> G.NF) invariant_broken(t, i, -1, "a mask bit beyond the local indices");
        for (int l = 0; l < G.NF; l++) {
            /* FIFO l of router i: its flits, its request, its output VC. */
            const size_t g = base + (size_t)l;
            const int n = f->cnt[g], r = f->route[g], waits = (int)(f->reqm[i] >> l & 1);
            const int live = r >= 0 && (f->livem[i] >> r & 1);
            flits += n;
            if (n > G.B) invariant_broken(t, i, l, "a FIFO holds more than B flits");
            if (waits && r >= 0) invariant_broken(t, i, l, "a FIFO both waits for an output VC (reqm) and holds one");
            if (r >= 0 && f->holder[base + (size_t)r] != l) invariant_broken(t, i, l, "a FIFO's output VC is held by another");
            if ((n > 0) != (waits || live))
                invariant_broken(t, i, l, "a FIFO is non-empty but neither in reqm nor live, or in one of them but empty");
            if (waits && FL_SEQ(head_flit(f, G, g)) != 0) invariant_broken(t, i, l, "a FIFO in reqm has no header at its head");
            /* Output VC l of router i: its holder, its liveness, its downstream FIFO. */
            const int h = f->holder[g];
            if (h >= 0 && f->route[base + (size_t)h] != l) invariant_broken(t, i, l, "an output VC's holder routes elsewhere");
            if ((f->livem[i] >> l & 1) && (h < 0 || f->cnt[base + (size_t)h] == 0))
                invariant_broken(t, i, l, "a live output VC (livem) has no flit to send");
            const int d = f->lport[l], full = (int)(f->dfull[i] >> l & 1);
            if (d == PORT_P) {
                if (full) invariant_broken(t, i, l, "a P port's output VC is marked full (dfull)");
            } else if (full != (f->cnt[(size_t)f->downbase[i * 4 + d] + f->lvc[l]] == G.B)) {
                invariant_broken(t, i, l, "dfull differs from whether the downstream FIFO is full");
            }
        }
    }
    if (flits != pr->in_net) invariant_broken(t, -1, -1, "the FIFOs hold another number of flits than are in the network");
}

/* After a run that ended normally: every FIFO empty, every output VC free. */
static void check_clean(const fast_sim *f)
{
    for (size_t g = 0; g < (size_t)f->nodes * (size_t)f->NF; g++)
        if (f->cnt[g] || f->route[g] >= 0 || f->holder[g] >= 0)
            invariant_broken(-1, (int)(g / (size_t)f->NF), (int)(g % (size_t)f->NF), "a finished run left a flit or a held VC");
    for (int i = 0; i < f->nodes; i++)
        if (f->reqm[i] || f->livem[i] || f->dfull[i]) invariant_broken(-1, i, -1, "a finished run left a mask bit");
}
#endif

/* The cycles of one run, after the sources are set and the state reset. */
HOT sim_status cycle_loop(fast_sim *f0, const geo G, const sim_config *c, int64_t cutoff, int64_t to_send,
                          sim_metrics *m)
{
    /* A private copy of the engine's pointers: the byte stores of the loop
     * could otherwise alias them, and the compiler would reload them. */
    fast_sim fc = *f0, *f = &fc;
    events ev = { f->pbits[0], f->pbits[1], f->qbits[0], f->qbits[1], f->ilist[0], f->ilist[1], 0, 0 };
    progress pr = { 0, 0, -1, 0, { 0 } };
    tailwin_reset(&pr.tw, sim_late_sum_window(G.L));
    int64_t idle = 0, t = 0;
    sim_status st = SIM_OK;
    const int bound = cutoff < INT64_MAX && !f->p.no_load_bound;
    int nh = 0;
    if (bound) load_start(f, &nh);
    while (pr.done < to_send) {
        if (pr.in_net == 0) t = skip_idle(f, c, &ev, t);
        if (t >= f->p.max_cycles) { st = SIM_TIMEOUT; break; }
        if (t >= cutoff || (bound && load_exceeds(f, t, cutoff, &nh))) { st = SIM_CUTOFF; break; }
        m->cycles++;
        f->now = t;
        release_due(f, &ev, t);
        int nmoves = select_all(f, G, &ev, t, m);
        apply_moves(f, G, &ev, nmoves, t, &pr, m);
        inject(f, G, c, &ev, t, &pr, m);
        swap_events(&ev);
#ifdef NOCSIM_CHECK
        check_invariants(f, G, &pr, t);
#endif
        idle = pr.moved ? 0 : idle + 1;
        if (pr.in_net > 0 && idle >= f->p.deadlock_cycles) { st = SIM_DEADLOCK; break; }
        t++;
    }
    m->status = st;
    m->stop_cycle = st == SIM_OK ? 0 : t;
    m->duration = st == SIM_CUTOFF ? cutoff + 1 : pr.last_eject + 1;
    m->late = tailwin_count(&pr.tw, pr.last_eject, G.L);
    m->late_sum = tailwin_sum(&pr.tw, pr.last_eject, pr.tw.w);
    m->tail_profile = tailwin_profile(&pr.tw, pr.last_eject);
    f0->nheap = f->nheap;
    return st;
}


static __attribute__((noinline)) sim_status loop_default(fast_sim *f, const sim_config *c, int64_t cutoff,
                                                          int64_t to_send, sim_metrics *m)
{
    return cycle_loop(f, (geo){ 3, 4, 8, NPORTS * 3, 1, 0, 0 }, c, cutoff, to_send, m);
}

static __attribute__((noinline)) sim_status loop_any_word(fast_sim *f, const sim_config *c, int64_t cutoff,
                                                           int64_t to_send, sim_metrics *m)
{
    return cycle_loop(f, (geo){ f->V, f->B, f->L, f->NF, 1, 0, 0 }, c, cutoff, to_send, m);
}

static __attribute__((noinline)) sim_status loop_any_ring(fast_sim *f, const sim_config *c, int64_t cutoff,
                                                           int64_t to_send, sim_metrics *m)
{
    return cycle_loop(f, (geo){ f->V, f->B, f->L, f->NF, 0, 0, 0 }, c, cutoff, to_send, m);
}

static __attribute__((noinline)) sim_status loop_mesh_word(fast_sim *f, const sim_config *c, int64_t cutoff,
                                                            int64_t to_send, sim_metrics *m)
{
    return cycle_loop(f, (geo){ f->V, f->B, f->L, f->NF, 1, 1, f->any }, c, cutoff, to_send, m);
}

static __attribute__((noinline)) sim_status loop_mesh_ring(fast_sim *f, const sim_config *c, int64_t cutoff,
                                                            int64_t to_send, sim_metrics *m)
{
    return cycle_loop(f, (geo){ f->V, f->B, f->L, f->NF, 0, 1, f->any }, c, cutoff, to_send, m);
}


sim_status fast_run(fast_sim *f, const sim_config *c, int64_t cutoff, sim_metrics *m)
{
    return fast_run_recording(f, c, cutoff, NULL, m);
}

sim_status fast_run_recording(fast_sim *f, const sim_config *c, int64_t cutoff, sim_decisions *rec, sim_metrics *m)
{
    memset(m, 0, sizeof *m);
    /* Under the any-VC rule a grant changes what the port's next VC sees,
     * which the proofs of sim/decisions.c do not model: nothing recorded. */
    if (rec && f->any) {
        sim_decisions_clear(rec);
        rec = NULL;
    }
    f->rec = rec;
    if (rec) sim_decisions_start(rec);
    const int L = f->L, S = f->S, nodes = f->nodes;
    const int64_t iv = c->interval;

    /* Sources, and a bound from the last slices alone: released at
     * (S-1)V + I[i], it needs at least H + L cycles to eject its tail. */
    int64_t to_send = 0, bound = 0;
    f->nheap = 0;
    for (int i = 0; i < nodes; i++) {
        f->istate[i] = ISRC_IDLE;
        if (!f->sends[i]) {
            f->slice[i] = S;
            m->idle_nodes++;
            continue;
        }
        f->slice[i] = 0;
        f->seq[i] = 0;
        f->ivc[i] = 0;
        f->lastvc[i] = (uint8_t)(f->V - 1); /* the first packet takes VC 0 */
        to_send += S;
        f->heap[f->nheap++] = (release){ c->inject[i], i };
        int64_t b = (int64_t)(S - 1) * iv + c->inject[i] + f->hops[i] + L + 1;
        if (b > bound) bound = b;
    }
    m->packets = to_send;
    if (to_send && bound > cutoff) {
        m->status = SIM_CUTOFF;
        m->duration = cutoff + 1;
        return SIM_CUTOFF;
    }
    for (int k = f->nheap / 2 - 1; k >= 0; k--) heap_down(f->heap, f->nheap, k);
    reset(f, c);
    f->ok_run = 0;
    sim_status st;
    if (f->mesh) st = f->B <= f->L + 1 ? loop_mesh_word(f, c, cutoff, to_send, m) : loop_mesh_ring(f, c, cutoff, to_send, m);
    else if (f->V == 3 && f->B == 4 && f->L == 8) st = loop_default(f, c, cutoff, to_send, m);
    else if (f->B <= f->L + 1) st = loop_any_word(f, c, cutoff, to_send, m);
    else st = loop_any_ring(f, c, cutoff, to_send, m);
    f->ok_run = st == SIM_OK;
#ifdef NOCSIM_CHECK
    if (st == SIM_OK) check_clean(f);
#endif
    if (rec) sim_decisions_end(rec, st == SIM_OK);
    f->rec = NULL;
    const flink *lk = f->links;
    for (int l = 0; l < nodes * 4; l++) {
        if (lk[l].first1 && lk[l].last - lk[l].first1 + 2 > m->te) m->te = lk[l].last - lk[l].first1 + 2;
        if (lk[l].flits > m->max_link_flits) m->max_link_flits = lk[l].flits;
    }
    return st;
}

void fast_tail_cycles(const fast_sim *f, int64_t *out)
{
    /* Every packet of a sending source ejects in a run that ends SIM_OK, so
     * no entry needs clearing between runs. */
    for (int i = 0; i < f->nodes; i++)
        for (int s = 0; s < f->S; s++)
            out[(size_t)i * (size_t)f->S + (size_t)s] = f->sends[i] ? f->tail_at[((size_t)i << f->sbits) | (size_t)s] : -1;
}

void fast_link_stats(const fast_sim *f, int k, int64_t *first, int64_t *last, int64_t *flits)
{
    const flink *lk = &f->links[k];
    *first = lk->first1 ? lk->first1 - 1 : -1;
    *last = lk->first1 ? lk->last : -1;
    *flits = lk->flits;
}
