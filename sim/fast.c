/* The fast cycle engine (see fast.h): the reference automaton of sim.c with
 * the work of a cycle proportional to what is busy, not to the network.
 *
 * What makes it fast, and why each piece keeps the results exact:
 *  - Per router two bit masks over its local indices (port * V + vc):
 *    `reqm`, input FIFOs whose head is a header still waiting for an output
 *    VC, and `livem`, output VCs that are held and whose holding FIFO has a
 *    flit.  A FIFO is non-empty exactly when it is in one of them, so a
 *    router with both masks zero has nothing to decide and is not visited
 *    (it leaves the `active` bit set of routers lazily).
 *  - A header's request (output port and VC) is computed once, when the
 *    header reaches the head of its FIFO, from the destination coordinates
 *    carried in the flit; the reference recomputes it every cycle.
 *  - VC selection is one table look-up for the scheme (`pick`).
 *  - Decisions read only start-of-cycle state and are recorded in a move
 *    list; pops, then pushes, then injections are applied afterwards, as in
 *    the reference.  Queue selection of router i changes only router i, and
 *    VC selection reads its own holders and downstream counts (changed only
 *    when applying), so visiting router by router is the same as the
 *    reference's all-queue-selections-then-all-VC-selections.
 *  - Every metric is a sum, a count or a max, so visiting order is free.
 *  - Sources wait in a heap keyed by release time; only due nodes are looked
 *    at each cycle.
 *  - After a run that ended normally every FIFO is empty and every output VC
 *    free, so the next run resets only the arbitration state and the links. */
#include "sim/fast.h"

#include <stdlib.h>
#include <string.h>

/* A flit carries what the network needs of its packet: the sequence number
 * (header 0, tail L-1), the slice (for the in-/out-of-order counts) and the
 * destination coordinates (for routing at every hop). */
#define FL_SEQ(f) ((int)((f) & 0xffu))
#define FL_SLICE(f) ((int)(((f) >> 8) & 0xffffu))
#define FL_DX(f) ((int)(((f) >> 24) & 0xfffu))
#define FL_DY(f) ((int)(((f) >> 36) & 0xfffu))
#define FL_DEST(x, y) (((uint64_t)(x) << 24) | ((uint64_t)(y) << 36))

typedef struct {
    int64_t t;
    int32_t node;
} release;

/* One flit move decided this cycle. */
typedef struct {
    uint64_t flit;  /* filled when the pop is applied */
    int32_t f;      /* source FIFO */
    int32_t dst;    /* downstream FIFO, -1 for ejection */
    int32_t i;      /* router */
    int32_t j;      /* downstream router */
    uint8_t lo;     /* local output VC, d * V + c */
} fmove;

/* Link statistics; first is stored plus one so that zero means unused and a
 * reset is a memset. */
typedef struct {
    int32_t first1, last, flits;
} flink;

struct fast_sim {
    sim_params p;
    int n, half, nodes, V, B, L, S, NF; /* NF = local FIFOs per router = NPORTS * V */
    int ok_run;            /* last run ended with the network empty */
    size_t bytes;
    /* Static tables. */
    uint64_t *dflit;       /* per source: destination bits of its flits */
    int32_t *hops;         /* per source: route length, for the cutoff bound */
    uint8_t *sends;        /* per source: sends S packets */
    int32_t *nbr;          /* nbr[i * 4 + d] */
    int32_t *downbase;     /* first downstream FIFO of output port d < P */
    uint16_t *x, *y;
    uint8_t *dl;           /* bit d: link out of port d is a dateline; bit 4 + p: link into port p is */
    int8_t *pick;          /* VC selection: pick[((scheme * V + last) << V) | ready] */
    uint8_t lport[NPORTS * SIM_MAX_VCS], lvc[NPORTS * SIM_MAX_VCS];
    /* Input FIFOs, f = i * NF + port * V + vc. */
    uint64_t *buf;
    uint8_t *cnt, *head;
    int8_t *route;         /* held output VC (local), -1 */
    int8_t *req;           /* request of the head header (valid while in reqm) */
    /* Output VCs, o = i * NF + d * V + c. */
    int8_t *holder;        /* local FIFO holding it, -1 */
    uint8_t *qst;          /* queue-selection orders, 5 bytes each */
    /* Output ports, i * NPORTS + d. */
    uint8_t *vlast;
    /* Routers. */
    uint64_t *reqm, *livem, *active;
    /* Sources. */
    int32_t *slice;
    uint16_t *seq;
    int32_t *due;
    uint8_t *injok;
    int ndue;
    release *heap;
    int nheap;
    fmove *moves;
    flink *links;
};

int fast_supports(const sim_params *p)
{
    return p->slot_reuse == SLOT_NEXT_CYCLE && p->input_limit == INPUT_PER_VC && p->vcs <= SIM_MAX_VCS &&
           p->max_cycles <= INT32_MAX - 1 && p->n <= 1024 && p->slices <= 0xffff;
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
    free(f->dflit); free(f->hops); free(f->sends); free(f->nbr); free(f->downbase);
    free(f->x); free(f->y); free(f->dl); free(f->pick);
    free(f->buf); free(f->cnt); free(f->head); free(f->route); free(f->req);
    free(f->holder); free(f->qst); free(f->vlast);
    free(f->reqm); free(f->livem); free(f->active);
    free(f->slice); free(f->seq); free(f->due); free(f->injok); free(f->heap);
    free(f->moves); free(f->links);
    free(f);
}

size_t fast_bytes(const fast_sim *f) { return f->bytes + sizeof *f; }

fast_sim *fast_new(const sim_params *p, const int32_t *dest)
{
    fast_sim *f = calloc(1, sizeof *f);
    if (!f) return NULL;
    f->p = *p;
    f->n = p->n;
    f->half = p->n / 2;
    f->nodes = p->n * p->n;
    f->V = p->vcs;
    f->B = p->buffer;
    f->L = p->flits;
    f->S = p->slices;
    f->NF = NPORTS * p->vcs;
    size_t nodes = (size_t)f->nodes, nf = nodes * (size_t)f->NF;
    int ok = 1;
    f->dflit = alloc(f, nodes, sizeof *f->dflit, &ok);
    f->hops = alloc(f, nodes, sizeof *f->hops, &ok);
    f->sends = alloc(f, nodes, 1, &ok);
    f->nbr = alloc(f, nodes * 4, sizeof *f->nbr, &ok);
    f->downbase = alloc(f, nodes * 4, sizeof *f->downbase, &ok);
    f->x = alloc(f, nodes, sizeof *f->x, &ok);
    f->y = alloc(f, nodes, sizeof *f->y, &ok);
    f->dl = alloc(f, nodes, 1, &ok);
    f->pick = alloc(f, (size_t)VCSEL_NSCHEMES * (size_t)f->V << f->V, 1, &ok);
    f->buf = alloc(f, nf * (size_t)f->B, sizeof *f->buf, &ok);
    f->cnt = alloc(f, nf, 1, &ok);
    f->head = alloc(f, nf, 1, &ok);
    f->route = alloc(f, nf, 1, &ok);
    f->req = alloc(f, nf, 1, &ok);
    f->holder = alloc(f, nf, 1, &ok);
    f->qst = alloc(f, nf * NPORTS, 1, &ok);
    f->vlast = alloc(f, nodes * NPORTS, 1, &ok);
    f->reqm = alloc(f, nodes, sizeof *f->reqm, &ok);
    f->livem = alloc(f, nodes, sizeof *f->livem, &ok);
    f->active = alloc(f, (nodes + 63) / 64, sizeof *f->active, &ok);
    f->slice = alloc(f, nodes, sizeof *f->slice, &ok);
    f->seq = alloc(f, nodes, sizeof *f->seq, &ok);
    f->due = alloc(f, nodes, sizeof *f->due, &ok);
    f->injok = alloc(f, nodes, 1, &ok);
    f->heap = alloc(f, nodes, sizeof *f->heap, &ok);
    f->moves = alloc(f, nodes * NPORTS, sizeof *f->moves, &ok);
    f->links = alloc(f, nodes * 4, sizeof *f->links, &ok);
    if (!ok) {
        fast_free(f);
        return NULL;
    }
    route_params rp = { p->n, p->tie, p->dateline };
    for (int i = 0; i < f->nodes; i++) {
        f->x[i] = (uint16_t)(i % f->n);
        f->y[i] = (uint16_t)(i / f->n);
        f->dflit[i] = FL_DEST(dest[i] % f->n, dest[i] / f->n);
        f->hops[i] = route_hops(&rp, i, dest[i]);
        f->sends[i] = dest[i] != i || p->self == SELF_SEND;
        uint8_t dl = 0;
        for (int d = 0; d < 4; d++) {
            int nb = route_neighbour(f->n, i, d);
            f->nbr[i * 4 + d] = nb;
            f->downbase[i * 4 + d] = nb * f->NF + route_opposite(d) * f->V;
            if (route_is_dateline(f->n, i, d)) dl |= (uint8_t)(1u << d);
            /* Input port d is fed by the neighbour's opposite output. */
            if (route_is_dateline(f->n, nb, route_opposite(d))) dl |= (uint8_t)(1u << (4 + d));
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
                f->pick[((size_t)(sc * f->V + last) << f->V) | r] = (int8_t)vcsel_pick(sc, r, last, f->V);
    memset(f->route, -1, nf);
    memset(f->holder, -1, nf);
    f->ok_run = 1;
    return f;
}

/* ---- routing ---- */

/* route_offset with the node's coordinate already split out. */
static inline int ring_offset(const fast_sim *f, int a, int b)
{
    int d = b - a;
    if (d > f->half) d -= f->n;
    else if (d < -f->half) d += f->n;
    if (d == f->half || d == -f->half) {
        if (f->p.tie == TIE_PLUS) d = f->half;
        else if (f->p.tie == TIE_MINUS) d = -f->half;
    }
    return d;
}

/* route_next for the header `fl` in local FIFO `lf` of router j: the local
 * output VC it asks for. */
static inline int route_req(const fast_sim *f, int j, int lf, uint64_t fl)
{
    int dx = ring_offset(f, f->x[j], FL_DX(fl));
    int d;
    if (dx) d = dx > 0 ? PORT_E : PORT_W;
    else {
        int dy = ring_offset(f, f->y[j], FL_DY(fl));
        d = dy ? (dy > 0 ? PORT_N : PORT_S) : PORT_P;
    }
    int p = f->lport[lf], up;
    if (f->p.dateline == DATELINE_ON_LINK) up = d != PORT_P && (f->dl[j] >> d & 1);
    else up = p != PORT_P && (f->dl[j] >> (4 + p) & 1);
    return d * f->V + f->lvc[lf] + up;
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

/* ---- one cycle's decisions ---- */

static inline uint64_t head_flit(const fast_sim *f, size_t g)
{
    return f->buf[g * (size_t)f->B + f->head[g]];
}

/* Step 1 at router i: every free output VC grants one of its requests. */
static void queue_selection(fast_sim *f, int i, sim_metrics *m)
{
    const size_t base = (size_t)i * (size_t)f->NF;
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
        f->holder[base + (size_t)o] = (int8_t)win;
        f->route[base + (size_t)win] = (int8_t)o;
        f->reqm[i] &= ~(1ull << win);
        f->livem[i] |= 1ull << o;
        uint8_t w = order[pos];
        if (f->p.q_update == QUPDATE_TAIL) {
            for (int k = pos; k < NPORTS - 1; k++) order[k] = order[k + 1];
            order[NPORTS - 1] = w;
        } else {
            uint8_t tmp[NPORTS];
            for (int k = 0; k < NPORTS; k++) tmp[k] = order[(pos + 1 + k) % NPORTS];
            memcpy(order, tmp, NPORTS);
        }
        same &= ~(1ull << win);
        if (same) {
            int ws = FL_SLICE(head_flit(f, base + (size_t)win));
            for (; same; same &= same - 1) {
                int ls = FL_SLICE(head_flit(f, base + (size_t)__builtin_ctzll(same)));
                if (ls > ws) m->ir++;
                else if (ls < ws) m->or_++;
            }
        }
    }
}

/* Step 2 at output port d of router i, whose held VCs with a flit are
 * `cand`.  Appends the move, if any, to the list. */
static inline void vc_selection(fast_sim *f, const sim_config *c, int i, int d, unsigned cand,
                                int *nmoves, sim_metrics *m)
{
    const int V = f->V;
    const size_t base = (size_t)i * (size_t)f->NF;
    unsigned ready;
    int32_t db = -1;
    if (d == PORT_P) ready = cand;
    else {
        db = f->downbase[i * 4 + d];
        ready = 0;
        for (unsigned a = cand; a; a &= a - 1) {
            int vc = __builtin_ctz(a);
            if (f->cnt[db + vc] < f->B) ready |= 1u << vc;
        }
        if (!ready) {
            m->lb++;
            return;
        }
    }
    size_t port = (size_t)i * NPORTS + (size_t)d;
    int vc = f->pick[((size_t)(c->scheme[port] * V + f->vlast[port]) << V) | ready];
    f->vlast[port] = (uint8_t)vc;
    size_t ob = base + (size_t)(d * V);
    size_t src = base + (size_t)f->holder[ob + (size_t)vc];
    unsigned others = ready & ~(1u << vc);
    if (others) {
        int ws = FL_SLICE(head_flit(f, src));
        for (; others; others &= others - 1) {
            int ls = FL_SLICE(head_flit(f, base + (size_t)f->holder[ob + (size_t)__builtin_ctz(others)]));
            if (ls > ws) m->ib++;
            else if (ls < ws) m->ob++;
        }
    }
    fmove *mv = &f->moves[(*nmoves)++];
    mv->f = (int32_t)src;
    mv->i = i;
    mv->lo = (uint8_t)(d * V + vc);
    if (d == PORT_P) {
        mv->dst = -1;
    } else {
        mv->dst = db + vc;
        mv->j = f->nbr[i * 4 + d];
    }
}

/* ---- applying the moves ---- */

/* Put flit fl at the tail of FIFO g (local index lg) of router j and keep
 * the masks true. */
static inline void push(fast_sim *f, int j, int lg, size_t g, uint64_t fl)
{
    int k = f->cnt[g], h = f->head[g] + k;
    if (h >= f->B) h -= f->B;
    f->buf[g * (size_t)f->B + (size_t)h] = fl;
    f->cnt[g] = (uint8_t)(k + 1);
    if (k) return;
    if (f->route[g] >= 0) f->livem[j] |= 1ull << f->route[g];
    else {
        f->req[g] = (int8_t)route_req(f, j, lg, fl);
        f->reqm[j] |= 1ull << lg;
    }
    f->active[j >> 6] |= 1ull << (j & 63);
}

static void reset(fast_sim *f, const sim_config *c)
{
    size_t nf = (size_t)f->nodes * (size_t)f->NF;
    if (!f->ok_run) {
        memset(f->cnt, 0, nf);
        memset(f->route, -1, nf);
        memset(f->holder, -1, nf);
        memset(f->reqm, 0, (size_t)f->nodes * sizeof *f->reqm);
        memset(f->livem, 0, (size_t)f->nodes * sizeof *f->livem);
        memset(f->active, 0, (size_t)(f->nodes + 63) / 64 * sizeof *f->active);
    }
    memcpy(f->qst, c->qorder, nf * NPORTS);
    memset(f->vlast, 0, (size_t)f->nodes * NPORTS); /* as if VC 0 was granted last */
    memset(f->links, 0, (size_t)f->nodes * 4 * sizeof *f->links);
    f->ndue = 0;
}

sim_status fast_run(fast_sim *f, const sim_config *c, int64_t cutoff, sim_metrics *m)
{
    memset(m, 0, sizeof *m);
    const int V = f->V, B = f->B, L = f->L, S = f->S, NF = f->NF, nodes = f->nodes;
    const int64_t iv = c->interval;

    /* Sources, and a bound from the last slices alone: released at
     * (S-1)V + I[i], it needs at least H + L cycles to eject its tail. */
    int64_t to_send = 0, bound = 0;
    f->nheap = 0;
    for (int i = 0; i < nodes; i++) {
        if (!f->sends[i]) {
            f->slice[i] = S;
            m->idle_nodes++;
            continue;
        }
        f->slice[i] = 0;
        f->seq[i] = 0;
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

    const size_t nwords = (size_t)(nodes + 63) / 64;
    const uint64_t vmask = (1ull << V) - 1;
    int64_t done = 0, in_net = 0, last_eject = -1, idle = 0, t = 0;
    sim_status st = SIM_OK;
    while (done < to_send) {
        if (in_net == 0) { /* skip to the next release, exactly as the reference */
            int64_t next = INT64_MAX;
            for (int k = 0; k < f->ndue; k++) {
                int i = f->due[k];
                int64_t r = (int64_t)f->slice[i] * iv + c->inject[i];
                if (f->seq[i] == 0 && r < next) next = r;
            }
            if (f->nheap && f->heap[0].t < next) next = f->heap[0].t;
            if (next != INT64_MAX && next > t) t = next;
        }
        if (t >= f->p.max_cycles) { st = SIM_TIMEOUT; break; }
        if (t >= cutoff) { st = SIM_CUTOFF; break; }
        m->cycles++;
        while (f->nheap && f->heap[0].t <= t) f->due[f->ndue++] = heap_pop(f);

        /* Steps 1 and 2, router by router. */
        int nmoves = 0;
        for (size_t w = 0; w < nwords; w++) {
            for (uint64_t bits = f->active[w]; bits; bits &= bits - 1) {
                int i = (int)(w * 64) + __builtin_ctzll(bits);
                if (!(f->reqm[i] | f->livem[i])) {
                    f->active[w] &= ~(1ull << (i & 63));
                    continue;
                }
                if (f->reqm[i]) queue_selection(f, i, m);
                for (uint64_t lm = f->livem[i]; lm;) {
                    int d = f->lport[__builtin_ctzll(lm)];
                    unsigned cand = (unsigned)((lm >> (d * V)) & vmask);
                    lm &= ~(vmask << (d * V));
                    vc_selection(f, c, i, d, cand, &nmoves, m);
                }
            }
        }
        /* Step 3's decision, on the FIFO as it was at the start. */
        for (int k = 0; k < f->ndue; k++) f->injok[k] = f->cnt[(size_t)f->due[k] * (size_t)NF + PORT_P * (size_t)V] < B;

        /* Pops. */
        for (int k = 0; k < nmoves; k++) {
            fmove *mv = &f->moves[k];
            size_t g = (size_t)mv->f;
            int h = f->head[g];
            uint64_t fl = f->buf[g * (size_t)B + (size_t)h];
            mv->flit = fl;
            f->head[g] = (uint8_t)(h + 1 == B ? 0 : h + 1);
            int left = --f->cnt[g];
            int i = mv->i;
            if (FL_SEQ(fl) == L - 1) { /* the tail frees the output VC */
                f->holder[(size_t)i * (size_t)NF + mv->lo] = -1;
                f->route[g] = -1;
                f->livem[i] &= ~(1ull << mv->lo);
                if (left) { /* the next packet's header is now at the head */
                    int lg = (int)(g - (size_t)i * (size_t)NF);
                    f->req[g] = (int8_t)route_req(f, i, lg, head_flit(f, g));
                    f->reqm[i] |= 1ull << lg;
                }
            } else if (!left) {
                f->livem[i] &= ~(1ull << mv->lo);
            }
        }
        /* Pushes and ejections. */
        for (int k = 0; k < nmoves; k++) {
            const fmove *mv = &f->moves[k];
            uint64_t fl = mv->flit;
            if (mv->dst < 0) {
                m->flits_ejected++;
                in_net--;
                if (FL_SEQ(fl) == L - 1) {
                    done++;
                    last_eject = t;
                }
                continue;
            }
            int j = mv->j;
            push(f, j, (int)(mv->dst - j * NF), (size_t)mv->dst, fl);
            flink *lk = &f->links[(size_t)mv->i * 4 + f->lport[mv->lo]];
            if (!lk->first1) lk->first1 = (int32_t)t + 1;
            lk->last = (int32_t)t;
            lk->flits++;
        }
        /* Injections. */
        int64_t moved = nmoves;
        for (int k = 0; k < f->ndue;) {
            int i = f->due[k];
            if (!f->injok[k]) {
                k++;
                continue;
            }
            push(f, i, PORT_P * V, (size_t)i * (size_t)NF + PORT_P * (size_t)V,
                 f->dflit[i] | (uint64_t)f->slice[i] << 8 | f->seq[i]);
            m->flits_injected++;
            in_net++;
            moved++;
            if (++f->seq[i] == L) {
                f->seq[i] = 0;
                int s = ++f->slice[i];
                int64_t r = (int64_t)s * iv + c->inject[i];
                if (s == S || r > t + 1) { /* not due next cycle: leaves the due list */
                    if (s < S) heap_push(f, r, i);
                    f->ndue--;
                    f->due[k] = f->due[f->ndue];
                    f->injok[k] = f->injok[f->ndue];
                    continue;
                }
            }
            k++;
        }

        idle = moved ? 0 : idle + 1;
        if (in_net > 0 && idle >= f->p.deadlock_cycles) { st = SIM_DEADLOCK; break; }
        t++;
    }
    m->status = st;
    m->stop_cycle = st == SIM_OK ? 0 : t;
    m->duration = st == SIM_CUTOFF ? cutoff + 1 : last_eject + 1;
    f->ok_run = st == SIM_OK;
    const flink *lk = f->links;
    for (int l = 0; l < nodes * 4; l++) {
        if (lk[l].first1 && lk[l].last - lk[l].first1 + 2 > m->te) m->te = lk[l].last - lk[l].first1 + 2;
        if (lk[l].flits > m->max_link_flits) m->max_link_flits = lk[l].flits;
    }
    return st;
}

void fast_link_stats(const fast_sim *f, int k, int64_t *first, int64_t *last, int64_t *flits)
{
    const flink *lk = &f->links[k];
    *first = lk->first1 ? lk->first1 - 1 : -1;
    *last = lk->first1 ? lk->last : -1;
    *flits = lk->flits;
}
