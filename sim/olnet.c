/* The open-loop network (see olnet.h): construction, packets, the per-run
 * reset of closed-loop runs (olnet_clear, olnet_configure) and the
 * reference path, the model's three steps [R-CYC-3] on every router that holds a
 * flit, then the moves applied (pops, pushes, ejections, injections), as in
 * sim.c.  The reference path is the oracle of the fast path (olnet_fast.c)
 * for open-loop traffic (tests/test_olnet.c, fuzz_olnet); it is checked in
 * turn against sim.c on collectives (tests/test_openloop.c).
 *
 * Why it is organised as it is:
 *  - A header's request is computed once, at the end of the cycle in which
 *    the header reaches the head of its FIFO (its router and input are
 *    known, and an adaptive selection reads the state every path sees then,
 *    [R-RF-5]), and the FIFO is then a bit in its router's `reqm`: queue
 *    selection looks only at those bits.
 *  - Routers without flits are skipped: they have no request and no flit
 *    to send, and arbitration state changes only on a grant.
 *  - Decisions read the state at the start of the cycle; pops are applied
 *    before pushes so a full FIFO can pass a flit on in the same cycle, as
 *    the automaton says (a slot freed in t takes a flit only in t + 1,
 *    because the downstream check used the start-of-cycle count). */
#include "sim/olnet_internal.h"
#include "util/invariant.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *grab(olnet *n, size_t count, size_t size, int *ok)
{
    void *q = calloc(count ? count : 1, size);
    if (!q) *ok = 0;
    n->bytes += count * size;
    return q;
}

void olnet_free(olnet *n)
{
    if (!n) return;
    free(n->buf); free(n->cnt); free(n->route); free(n->req_d); free(n->req_c);
    free(n->reqm); free(n->livem); free(n->rflits); free(n->holder); free(n->down); free(n->nbr); free(n->qst); free(n->qsi); free(n->qtab);
    free(n->inj); free(n->hdr); free(n->prt); free(n->x); free(n->dl); free(n->dfull); free(n->pstate);
    free(n->pnext); free(n->srcm); free(n->mv); free(n->pk); free(n->freeids); free(n->done); free(n->pln);
    free(n->req_d2); free(n->req_c2); free(n->vlast);
    if (n->tm) {
        free(n->tm->ucnt); free(n->tm->fl); free(n->tm->cr); free(n->tm->hd);
        free(n->tm->nfl); free(n->tm->ncr); free(n->tm->nhd);
        free(n->tm);
    }
    if (n->src)
        for (int i = 0; i < n->nodes; i++) free(n->src[i].id);
    free(n->src);
    free(n);
}

static int check_params(const olnet_params *p, char *err, size_t errlen)
{
    int w = route_width(&p->rp), h = route_height(&p->rp);
    int torus = p->rp.topo == TOPO_TORUS;
    if (w < 2 || h < 2 || (int64_t)w * h > (1 << 22))
        return snprintf(err, errlen, "size %dx%d: each side must be at least 2 and the nodes at most %d", w, h,
                        1 << 22), -1;
    if (torus && (w % 2 || h % 2))
        return snprintf(err, errlen, "size %dx%d: a torus needs even sides (its datelines sit at 0 and half way)", w,
                        h), -1;
    if (p->vcs < 1 || p->vcs > SIM_MAX_VCS)
        return snprintf(err, errlen, "vcs %d: allowed [1, %d]", p->vcs, SIM_MAX_VCS), -1;
    if (torus && p->routing == ROUTING_DOR && p->vc_rule == VCRULE_DATELINE && p->vcs < 3)
        return snprintf(err, errlen, "vcs %d: a torus under the dateline rule needs at least 3", p->vcs), -1;
    if (torus && p->vc_rule == VCRULE_ANY && p->routing == ROUTING_DOR)
        return snprintf(err, errlen, "vc_rule any: only on a mesh (a torus needs its datelines to stay "
                                     "deadlock-free)"), -1;
    if (p->buffer < 1 || p->buffer > 255)
        return snprintf(err, errlen, "buffer %d: allowed [1, 255]", p->buffer), -1;
    if (p->scheme < 0 || p->scheme >= VCSEL_NSCHEMES)
        return snprintf(err, errlen, "scheme %d: allowed C00..C09", p->scheme), -1;
    if ((unsigned)p->routing >= ROUTING_COUNT)
        return snprintf(err, errlen, "routing %d: allowed 0..%d", (int)p->routing, ROUTING_COUNT - 1), -1;
    const int delays[4] = { p->router_delay, p->switch_delay, p->link_delay, p->credit_delay };
    static const char *const delay_names[4] = { "router_delay", "switch_delay", "link_delay", "credit_delay" };
    for (int k = 0; k < 4; k++)
        if (delays[k] < 0 || delays[k] > OLNET_MAX_DELAY)
            return snprintf(err, errlen, "%s %d: allowed [0, %d]", delay_names[k], delays[k], OLNET_MAX_DELAY), -1;
    return routing_check(p->routing, &p->rp, p->vc_rule, p->vcs, err, errlen);
}

/* Router timing's wheels, each slot as large as one cycle can fill: a
 * flit a move or an injection, a credit a move, a header two a move and
 * one an injection (as hdr).  0 when memory ran out. */
static int alloc_timing(olnet *n)
{
    int ok = 1;
    const size_t nf = (size_t)n->nodes * (size_t)n->NF, np = (size_t)n->nodes * NPORTS, N = (size_t)n->nodes;
    oltiming *tm = n->tm = grab(n, 1, sizeof *n->tm, &ok);
    if (!ok) return 0;
    tm->D = n->p.router_delay;
    tm->Lo = n->p.switch_delay + n->p.link_delay;
    tm->Li = n->p.link_delay;
    tm->C = n->p.credit_delay;
    tm->flcap = (int)(np + N);
    tm->crcap = (int)(np);
    tm->hdcap = (int)(2 * np + N);
    tm->ucnt = grab(n, nf, 1, &ok);
    tm->fl = grab(n, (size_t)(tm->Lo + 1) * (size_t)tm->flcap, sizeof *tm->fl, &ok);
    tm->cr = grab(n, (size_t)(tm->C + 1) * (size_t)tm->crcap, sizeof *tm->cr, &ok);
    tm->hd = grab(n, (size_t)(tm->D + 1) * (size_t)tm->hdcap, sizeof *tm->hd, &ok);
    tm->nfl = grab(n, (size_t)tm->Lo + 1, sizeof *tm->nfl, &ok);
    tm->ncr = grab(n, (size_t)tm->C + 1, sizeof *tm->ncr, &ok);
    tm->nhd = grab(n, (size_t)tm->D + 1, sizeof *tm->nhd, &ok);
    return ok;
}

/* The arrays, zeroed, each path allocating only what it reads; 0 when
 * memory ran out (n->bytes counts what was asked). */
static int alloc_state(olnet *n)
{
    const int reference = n->p.reference;
    size_t nf = (size_t)n->nodes * (size_t)n->NF, np = (size_t)n->nodes * NPORTS, N = (size_t)n->nodes;
    int ok = 1;
    /* + 4: fifo_shift moves four slots at once (4-flit FIFOs). */
    n->buf = grab(n, nf * (size_t)n->B + 4, sizeof *n->buf, &ok);
#ifdef OLNET_SSSE3
    n->simd = !reference && !n->p.scalar && n->NF <= 16 && __builtin_cpu_supports("ssse3");
#endif
    /* + 16: the simd path reads a router's counts and holders 16 bytes at a
     * time (olnet_fast.c, live_ssse3). */
    n->cnt = grab(n, nf + 16, 1, &ok);
    n->route = grab(n, nf, 1, &ok);
    n->req_d = grab(n, nf, 1, &ok);
    n->req_c = grab(n, nf, 1, &ok);
    n->reqm = grab(n, N, sizeof *n->reqm, &ok);
    n->holder = grab(n, nf + 16, 1, &ok);
    n->nbr = grab(n, N * NPORTS, sizeof *n->nbr, &ok);
    if (reference) {
        n->rflits = grab(n, N, sizeof *n->rflits, &ok);
        n->down = grab(n, nf, sizeof *n->down, &ok);
        n->qst = grab(n, nf * NPORTS, 1, &ok);
    } else {
        if (!n->simd) n->livem = grab(n, N, sizeof *n->livem, &ok);
        n->qsi = grab(n, nf, 1, &ok);
        n->qtab = grab(n, QSEL_NRANKS * 32, sizeof *n->qtab, &ok);
    }
    /* Headers new at a FIFO's head this cycle, routed at its end (both
     * paths: at most a pop and a push a move and an injection a node). */
    n->hdr = grab(n, 2 * np + N, sizeof *n->hdr, &ok);
    if (routing_info_of(n->p.routing)->escape) {
        n->req_d2 = grab(n, nf, 1, &ok);
        n->req_c2 = grab(n, nf, 1, &ok);
    }
    n->src = grab(n, N, sizeof *n->src, &ok);
    n->inj = grab(n, N, sizeof *n->inj, &ok);
    n->mv = grab(n, np, sizeof *n->mv, &ok);
    n->done = grab(n, np, sizeof *n->done, &ok);
    n->x = grab(n, N, sizeof *n->x, &ok);
    n->dl = grab(n, N, 1, &ok);
    n->dfull = grab(n, N, sizeof *n->dfull, &ok);
    n->pstate = grab(n, np, 1, &ok);
    n->pnext = grab(n, (size_t)VCSEL_NSCHEMES * (size_t)n->V << n->V, sizeof *n->pnext, &ok);
    n->srcm = grab(n, (N + 63) / 64, sizeof *n->srcm, &ok);
    if (n->p.vc_rotate) n->vlast = grab(n, np, 1, &ok);
    if (ok && olnet_timed(&n->p)) ok = alloc_timing(n);
    n->occ = n->tm ? n->tm->ucnt : n->cnt;
    return ok;
}

/* Every output port and VC: its neighbour, its VC-selection state (cfg's
 * scheme or p's), its downstream FIFO (reference path) and its queue order
 * (cfg's, checked by sim_config_check, or N E S W P). */
static void init_ports(olnet *n, const sim_config *cfg)
{
    static const uint8_t identity[NPORTS] = { 0, 1, 2, 3, 4 };
    memset(n->route, -1, (size_t)n->nodes * (size_t)n->NF);
    memset(n->holder, -1, (size_t)n->nodes * (size_t)n->NF + 16);
    for (int i = 0; i < n->nodes; i++)
        for (int d = 0; d < NPORTS; d++) {
            int nb = d == PORT_P ? -1 : route_grid_neighbour(&n->p.rp, i, d);
            n->nbr[i * NPORTS + d] = nb;
            /* No VC granted yet: the last grant reads as VC 0. */
            n->pstate[i * NPORTS + d] = (uint8_t)((cfg ? cfg->scheme[i * NPORTS + d] : n->p.scheme) * n->V);
            for (int c = 0; c < n->V; c++) {
                size_t o = (size_t)i * (size_t)n->NF + (size_t)(d * n->V + c);
                if (n->down) n->down[o] = nb < 0 ? -1 : (nb * NPORTS + route_opposite(d)) * n->V + c;
                const uint8_t *q = cfg ? sim_config_q(cfg, i, d, c) : identity;
                if (n->qst) memcpy(n->qst + o * NPORTS, q, NPORTS);
                else n->qsi[o] = (uint8_t)qsel_rank(q);
            }
        }
}

/* The routing function's VC classes: where each starts, and the class of
 * each local index; and the stream its plans are drawn from. */
static void init_classes(olnet *n)
{
    const routing_kind k = n->p.routing;
    n->K = routing_classes(k, &n->p.rp);
    for (int c = 0; c < n->K; c++) {
        n->clo[c] = (uint8_t)routing_class_first(k, &n->p.rp, c, n->V);
        n->chi[c] = (uint8_t)routing_class_first(k, &n->p.rp, c + 1, n->V);
    }
    n->clo[n->K] = 0;
    n->chi[n->K] = (uint8_t)n->V;
    for (int l = 0; l < n->NF; l++) n->lcls[l] = (uint8_t)routing_class_of(k, &n->p.rp, l % n->V, n->V);
    /* Min-adaptive's adaptive class (its last) on the router links. */
    if (routing_info_of(k)->escape)
        for (int l = 0; l < PORT_P * n->V; l++)
            if (n->lcls[l] == n->K - 1) n->amask |= 1ull << l;
    rng_seed(&n->rr, n->p.route_seed);
}

/* Every router: its source's first VC, its x and its dateline bits. */
static void init_routers(olnet *n)
{
    if (n->vlast) memset(n->vlast, n->V - 1, (size_t)n->nodes * NPORTS);
    for (int i = 0; i < n->nodes; i++) {
        n->src[i].last_vc = n->V - 1; /* the first packet takes VC 0 */
        n->x[i] = i % n->w;
        n->dl[i] = route_grid_dateline_bits(&n->p.rp, i);
    }
}

/* The fast path's tables: local index -> port, VC and fed FIFO; the packed
 * word's bits (gtab, gnf); VC selection's state machine (pnext); queue
 * selection's grants (qtab). */
static void init_tables(olnet *n)
{
    route_local_tables(n->V, n->lport, n->lvc, n->ldown);
    for (int b = 0; b < 64 / n->NF * n->NF; b++) {
        int k = b / n->NF, d = b % n->NF / n->V;
        n->gtab[b] = (uint32_t)k | (uint32_t)(k * n->NF + d * n->V) << 8 | (uint32_t)(k * NPORTS + d) << 16 |
                     (uint32_t)(d * n->V) << 24;
        if (b % n->V) n->gnf |= 1ull << b;
    }
    vcsel_table(n->V, n->pnext);
    if (n->qtab) qsel_table(n->p.q_update, n->qtab);
}

/* cfg fits network n: its size, and (sim_config_check) every scheme in range
 * and every queue order a permutation, which the fast path keeps as a rank
 * (past the tables otherwise).  Nonzero, with err, when it does not. */
static int check_config(const olnet *n, const sim_config *cfg, char *err, size_t errlen)
{
    if (cfg->nodes != n->nodes || cfg->vcs != n->V) {
        snprintf(err, errlen, "configuration for %d nodes and %d VCs, network has %d and %d", cfg->nodes, cfg->vcs,
                 n->nodes, n->V);
        return -1;
    }
    return sim_config_check(cfg, err, errlen);
}

olnet *olnet_new(const olnet_params *p, const sim_config *cfg, fault_kind *kind, char *err, size_t errlen)
{
    if (check_params(p, err, errlen)) return fault_set(kind, FAULT_INPUT), NULL;
    olnet *n = calloc(1, sizeof *n);
    if (!n) return fault_set(kind, FAULT_RESOURCE), snprintf(err, errlen, "out of memory"), NULL;
    n->p = *p;
    n->w = route_width(&p->rp);
    n->h = route_height(&p->rp);
    n->p.rp.w = n->w;
    n->p.rp.h = n->h;
    n->p.rp.n = n->w;
    n->nodes = n->w * n->h;
    n->V = p->vcs;
    n->B = p->buffer;
    n->NF = NPORTS * n->V;
    if (cfg && check_config(n, cfg, err, errlen)) {
        free(n);
        fault_set(kind, FAULT_INPUT);
        return NULL;
    }
    if (!alloc_state(n)) {
        snprintf(err, errlen, "out of memory for a %dx%d network", n->w, n->h);
        olnet_free(n);
        fault_set(kind, FAULT_RESOURCE);
        return NULL;
    }
    init_ports(n, cfg);
    init_routers(n);
    init_tables(n);
    init_classes(n);
    return n;
}

void olnet_clear(olnet *n)
{
    const size_t nf = (size_t)n->nodes * (size_t)n->NF, N = (size_t)n->nodes;
    memset(n->cnt, 0, nf);
    memset(n->route, -1, nf);
    memset(n->holder, -1, nf);
    memset(n->reqm, 0, N * sizeof *n->reqm);
    memset(n->dfull, 0, N * sizeof *n->dfull);
    if (n->livem) memset(n->livem, 0, N * sizeof *n->livem);
    if (n->rflits) memset(n->rflits, 0, N * sizeof *n->rflits);
    memset(n->srcm, 0, (N + 63) / 64 * sizeof *n->srcm);
    for (size_t i = 0; i < N; i++) {
        olsource *s = &n->src[i];
        s->head = s->count = s->seq = s->vc = 0;
        s->last_vc = n->V - 1; /* the first packet takes VC 0 */
    }
    n->in_net = 0;
    n->ndone = 0;
    if (n->vlast) memset(n->vlast, n->V - 1, N * NPORTS);
    if (n->tm) {
        memset(n->tm->ucnt, 0, nf);
        memset(n->tm->nfl, 0, sizeof *n->tm->nfl * (size_t)(n->tm->Lo + 1));
        memset(n->tm->ncr, 0, sizeof *n->tm->ncr * (size_t)(n->tm->C + 1));
        memset(n->tm->nhd, 0, sizeof *n->tm->nhd * (size_t)(n->tm->D + 1));
        n->tm->next = 0;
    }
}

void olnet_configure(olnet *n, const sim_config *cfg, const uint8_t *rank)
{
    const int V = n->V;
    for (int i = 0; i < n->nodes; i++)
        for (int d = 0; d < NPORTS; d++) {
            n->pstate[i * NPORTS + d] = (uint8_t)(cfg->scheme[i * NPORTS + d] * V);
            const size_t o = (size_t)i * (size_t)n->NF + (size_t)(d * V);
            const uint8_t *q = sim_config_q(cfg, i, d, 0);
            if (n->qst) {
                memcpy(n->qst + o * NPORTS, q, (size_t)V * NPORTS);
                continue;
            }
            for (int c = 0; c < V; c++) n->qsi[o + (size_t)c] = rank[qsel_index(q + c * NPORTS)];
        }
}

/* The two ports of the route from src to dest (see olroute). */
static olroute route_of(const olnet *n, int src, int dest)
{
    int w = n->w, sx = src % w, dx = dest % w;
    int corner = src - sx + dx; /* where the route turns from X to Y */
    return (olroute){ .col = dx, .row = dest - dx,
                      .px = (int8_t)(sx != dx ? route_grid_port(&n->p.rp, src, corner) : PORT_P),
                      .py = (int8_t)(corner != dest ? route_grid_port(&n->p.rp, corner, dest) : PORT_P) };
}

int32_t olnet_add(olnet *n, int src, int dest, int len, int64_t t_gen, int32_t tag)
{
    int32_t id;
    if (n->nfree) {
        id = n->freeids[--n->nfree];
    } else {
        if (n->pk_next >= OLNET_MAX_PACKETS) return -1;
        if (n->pk_next == n->pk_cap) {
            int32_t cap = n->pk_cap ? 2 * n->pk_cap : 1024;
            if (cap > OLNET_MAX_PACKETS) cap = OLNET_MAX_PACKETS;
            olnet_packet *pk = realloc(n->pk, sizeof *pk * (size_t)cap);
            if (!pk) return -1;
            n->pk = pk;
            int32_t *fr = realloc(n->freeids, sizeof *fr * (size_t)cap);
            if (!fr) return -1;
            n->freeids = fr;
            olroute *rt = realloc(n->prt, sizeof *rt * (size_t)cap);
            if (!rt) return -1;
            n->prt = rt;
            n->bytes += (sizeof *pk + sizeof *fr + sizeof *rt) * (size_t)(cap - n->pk_cap);
            if (n->p.routing != ROUTING_DOR) {
                routing_plan *pl = realloc(n->pln, sizeof *pl * (size_t)cap);
                if (!pl) return -1;
                n->pln = pl;
                n->bytes += sizeof *pl * (size_t)(cap - n->pk_cap);
            }
            n->pk_cap = cap;
        }
        id = n->pk_next++;
    }
    olsource *s = &n->src[src];
    if (s->count == s->cap) {
        int cap = s->cap ? 2 * s->cap : 16;
        int32_t *q = malloc(sizeof *q * (size_t)cap);
        if (!q) { n->freeids[n->nfree++] = id; return -1; }
        for (int k = 0; k < s->count; k++) q[k] = s->id[(s->head + k) % s->cap];
        free(s->id);
        n->bytes += sizeof *q * (size_t)(cap - s->cap);
        s->id = q;
        s->head = 0;
        s->cap = cap;
    }
    if (s->count == 0) s->due = t_gen;
    s->id[(s->head + s->count++) % s->cap] = id;
    n->pk[id] = (olnet_packet){ .src = src, .dest = dest, .len = len, .tag = tag, .t_gen = t_gen,
                                .t_inj = -1, .t_done = -1 };
    n->prt[id] = route_of(n, src, dest);
    if (n->pln) {
        const uint64_t bits = routing_info_of(n->p.routing)->random ? rng_next(&n->rr) : 0;
        n->pln[id] = routing_plan_make(n->p.routing, &n->p.rp, src, dest, bits);
    }
    n->srcm[src / 64] |= 1ull << (src % 64);
    n->alive++;
    return id;
}

const olnet_packet *olnet_packet_get(const olnet *n, int32_t id) { return &n->pk[id]; }
void olnet_release(olnet *n, int32_t id)
{
    /* A released record's length is 0 until olnet_add reuses its id. */
    NOCSIM_ASSERT(id >= 0 && id < n->pk_next, "olnet_release: the id is one olnet_add gave");
    NOCSIM_ASSERT(n->pk[id].len > 0, "olnet_release: a packet released once");
    n->pk[id].len = 0;
    n->freeids[n->nfree++] = id;
    n->alive--;
}
int64_t olnet_flits_in_network(const olnet *n) { return n->in_net; }
int64_t olnet_packets_alive(const olnet *n) { return n->alive; }
int olnet_hops(const olnet *n, int src, int dest) { return route_hops(&n->p.rp, src, dest); }
int olnet_packet_hops(const olnet *n, int32_t id)
{
    const olnet_packet *pk = &n->pk[id];
    return n->pln ? routing_hops(&n->p.rp, &n->pln[id], pk->src, pk->dest) : route_hops(&n->p.rp, pk->src, pk->dest);
}
size_t olnet_bytes(const olnet *n) { return n->bytes; }
void olnet_count_links(olnet *n, uint64_t *link_flits) { n->link_flits = link_flits; }


/* The header fl is new at the head of FIFO f (of router `node`): it asks
 * for its output from now on. */
static void header_arrived(olnet *n, int node, size_t f, uint32_t fl)
{
    int local = (int)(f - (size_t)node * (size_t)n->NF), port = local / n->V, vc = local % n->V;
    if (n->p.routing != ROUTING_DOR) {
        olnet_request_routed(n, node, f, local, fl);
        return;
    }
    /* Under the any-VC rule, -1: any VC of class 0, all of them. */
    int oc, d = route_next(&n->p.rp, node, port, vc, n->pk[FL_ID(fl)].dest, &oc);
    n->req_c[f] = (int8_t)(n->p.vc_rule == VCRULE_ANY ? -1 : oc);
    n->req_d[f] = (int8_t)d;
    n->reqm[node] |= 1ull << local;
}

/* The FIFO that holds a header at its head gets output VC o_local. */
static void grant(olnet *n, int node, int o_local, int f_local)
{
    size_t base = (size_t)node * (size_t)n->NF;
    NOCSIM_ASSERT(n->holder[base + (size_t)o_local] < 0, "olnet reference grant: an output VC has one holder");
    n->holder[base + (size_t)o_local] = (int8_t)f_local;
    n->route[base + (size_t)f_local] = (int8_t)o_local;
    n->reqm[node] &= ~(1ull << f_local);
}

/* Of the requests in `cand` (local FIFO bits), the one output VC o_local
 * grants by its order: the first requesting direction, its lowest VC.
 * Returns the winner's local FIFO. */
static int arbitrate(olnet *n, int node, int o_local, uint64_t cand)
{
    const int V = n->V;
    unsigned dirs = 0;
    for (uint64_t m = cand; m; m &= m - 1) dirs |= 1u << (__builtin_ctzll(m) / V);
    uint8_t *order = n->qst + ((size_t)node * (size_t)n->NF + (size_t)o_local) * NPORTS;
    int pos = qsel_pick(order, dirs);
    int wp = order[pos];
    qsel_update_order(order, pos, n->p.q_update);
    uint64_t inport = cand & (((1ull << V) - 1) << (wp * V));
    return __builtin_ctzll(inport);
}

/* Step 1 at one router under the dateline rule: each waiting header asks
 * for one output VC. */
static void queue_selection_dateline(olnet *n, int node)
{
    const int V = n->V;
    size_t base = (size_t)node * (size_t)n->NF;
    uint64_t left = n->reqm[node];
    while (left) {
        int f0 = __builtin_ctzll(left);
        int o = n->req_d[base + (size_t)f0] * V + n->req_c[base + (size_t)f0];
        uint64_t same = 0;
        for (uint64_t m = left; m; m &= m - 1) {
            int f = __builtin_ctzll(m);
            if (n->req_d[base + (size_t)f] * V + n->req_c[base + (size_t)f] == o) same |= 1ull << f;
        }
        left &= ~same;
        if (!olnet_vc_free(n, node, o)) continue;
        grant(n, node, o, arbitrate(n, node, o, same));
    }
}

/* Step 1 at one router under the any-VC rule: the free VCs of each output
 * port's class grant in ascending order among the requests for that port
 * and class (req_c is -1 - class). */
static void queue_selection_any(olnet *n, int node)
{
    const int V = n->V;
    size_t base = (size_t)node * (size_t)n->NF;
    uint64_t left = n->reqm[node];
    while (left) {
        const size_t f0 = base + (size_t)__builtin_ctzll(left);
        int d = n->req_d[f0], rc = n->req_c[f0], cls = -1 - rc;
        uint64_t cand = 0;
        for (uint64_t m = left; m; m &= m - 1) {
            int f = __builtin_ctzll(m);
            if (n->req_d[base + (size_t)f] == d && n->req_c[base + (size_t)f] == rc) cand |= 1ull << f;
        }
        left &= ~cand;
        const size_t port = (size_t)node * NPORTS + (size_t)d;
        for (int k = 0; k < n->chi[cls] - n->clo[cls] && cand; k++) {
            const int c = any_vc_at(n, port, n->clo[cls], n->chi[cls], k), o = d * V + c;
            if (!olnet_vc_free(n, node, o)) continue;
            int win = arbitrate(n, node, o, cand);
            grant(n, node, o, win);
            if (n->vlast) n->vlast[port] = (uint8_t)c;
            cand &= ~(1ull << win);
        }
    }
}

/* Then min-adaptive's escapes: each escape VC still free grants among the
 * headers still waiting that name it (adaptive requests first, as
 * BookSim2's priorities have it) [R-RF-4]. */
static void queue_selection_escape(olnet *n, int node)
{
    const size_t base = (size_t)node * (size_t)n->NF;
    for (uint64_t left = escape_waiting(n, node, base); left;) {
        int o;
        const uint64_t same = escape_group(n, base, &left, &o);
        if (n->holder[base + (size_t)o] < 0) grant(n, node, o, arbitrate(n, node, o, same));
    }
}

static void queue_selection(olnet *n, int node)
{
    if (n->p.vc_rule == VCRULE_ANY) queue_selection_any(n, node);
    else queue_selection_dateline(n, node);
    if (n->req_d2 && n->reqm[node]) queue_selection_escape(n, node);
}

/* Step 2 at one router, reference path: every output VC of every port
 * looked at, as docs/model.md words it [R-VS-1], [R-VS-2]. */
static void vc_selection(olnet *n, int node)
{
    const int V = n->V, B = n->B;
    size_t base = (size_t)node * (size_t)n->NF;
    for (int d = 0; d < NPORTS; d++) {
        unsigned ready = 0;
        for (int c = 0; c < V; c++) {
            size_t o = base + (size_t)(d * V + c);
            int h = n->holder[o];
            if (h < 0 || !n->cnt[base + (size_t)h]) continue;
            if (d != PORT_P && n->occ[n->down[o]] >= B) continue;
            ready |= 1u << c;
        }
        if (!ready) continue;
        size_t port = (size_t)node * NPORTS + (size_t)d;
        int scheme = n->pstate[port] / V, c = vcsel_pick(scheme, ready, n->pstate[port] % V, V);
        n->pstate[port] = (uint8_t)(scheme * V + c);
        size_t o = base + (size_t)(d * V + c);
        n->mv[n->nmv++] = (olmove){ (int32_t)(base + (size_t)n->holder[o]), (int32_t)o, node, n->nbr[port] };
    }
}

/* Step 3: which sources inject a flit this cycle, against the P FIFOs as
 * they were at the start of it. */
static void decide_injections(olnet *n, int64_t t)
{
    const int V = n->V;
    n->ninj = 0;
    for (int i = 0; i < n->nodes; i++) {
        olsource *s = &n->src[i];
        if (!s->count || n->pk[s->id[s->head]].t_gen > t) continue;
        size_t pf = ((size_t)i * NPORTS + PORT_P) * (size_t)V;
        if (s->seq == 0) {
            int c = -1;
            const unsigned vcs = inject_vcs(n, s->id[s->head]);
            if (n->p.vc_rule == VCRULE_DATELINE) {
                if (n->occ[pf + (size_t)__builtin_ctz(vcs)] < n->B) c = __builtin_ctz(vcs);
            } else {
                unsigned room = 0;
                for (int v = 0; v < V; v++) room |= (unsigned)(n->occ[pf + (size_t)v] < n->B) << v;
                c = inject_vc_next(room & vcs, s->last_vc, V);
            }
            if (c < 0) continue;
            s->vc = c;
        } else if (n->occ[pf + (size_t)s->vc] >= n->B) {
            continue;
        }
        n->inj[n->ninj++] = i;
    }
}

static void push(olnet *n, int node, size_t f, uint32_t fl)
{
    uint8_t *restrict cnt = n->cnt;
    const int B = n->B;
    NOCSIM_ASSERT(cnt[f] < B, "olnet reference push: a FIFO holds at most B flits");
    n->buf[f * (size_t)B + cnt[f]] = fl;
    n->rflits[node]++;
    if (cnt[f]++ == 0 && FL_HEAD(fl)) n->hdr[n->nhdr++] = (uint32_t)f;
}

/* Flit x reaches FIFO f (f < 0: its destination's ejection) now, or,
 * under router timing, `delay` cycles from now [R-TM-2]. */
static void deliver(olnet *n, int32_t f, uint32_t x, int64_t t, int delay)
{
    if (delay) {
        olnet_timing_fly(n, f, x, t, delay);
        return;
    }
    if (f >= 0) push(n, f / n->NF, (size_t)f, x);
    else olnet_eject(n, x, t);
}

/* The end of cycle t under router timing: the flits sent S + L (a
 * router's) or L (a source's) cycles ago land,
 * the credits of C cycles ago come back [R-TM-2, R-TM-3]. */
static void timing_cycle_end(olnet *n, int64_t t)
{
    oltiming *tm = n->tm;
    if (tm->Lo) {
        const int s = (int)(t % (tm->Lo + 1));
        const olflight *fl = tm->fl + (size_t)s * (size_t)tm->flcap;
        for (int k = 0; k < tm->nfl[s]; k++) {
            if (fl[k].f >= 0) push(n, fl[k].f / n->NF, (size_t)fl[k].f, fl[k].x);
            else olnet_eject(n, fl[k].x, t);
        }
        tm->nfl[s] = 0;
    }
    olnet_timing_credits_due(n, t);
    tm->next = t + 1;
}

/* The new headers ask for their outputs, from the state at the cycle's end
 * (which an adaptive selection reads, as the fast path does), or, under a
 * router delay, the headers new D cycles ago do [R-TM-1]. */
static void route_headers(olnet *n, int64_t t)
{
    const uint32_t *h = n->hdr;
    int nh = n->nhdr;
    if (n->tm && n->tm->D) h = olnet_timing_headers(n, t, n->hdr, n->nhdr, &nh);
    for (int k = 0; k < nh; k++) header_arrived(n, (int)(h[k] / (size_t)n->NF), h[k], head_flit(n, h[k]));
    n->nhdr = 0;
}

/* Apply the cycle's moves and injections.  Array pointers are read into
 * locals once: the byte arrays' stores could alias everything else, and
 * the compiler would reload them after each. */
static int64_t apply(olnet *n, int64_t t)
{
    const int B = n->B, nmv = n->nmv;
    uint32_t *restrict buf = n->buf;
    uint8_t *restrict cnt = n->cnt;
    int8_t *restrict holder = n->holder, *restrict route = n->route;
    int32_t *restrict rflits = n->rflits;
    const int32_t *restrict down = n->down;
    olmove *restrict mv = n->mv;
    n->ndone = 0;
    for (int k = 0; k < nmv; k++) {
        size_t f = (size_t)mv[k].f;
        int node = mv[k].node;
        uint32_t x = buf[f * (size_t)B];
        fifo_shift(&buf[f * (size_t)B], B);
        int left = --cnt[f];
        rflits[node]--;
        if (n->tm) olnet_timing_popped(n, f, t);
        if (FL_TAIL(x)) {
            holder[mv[k].o] = -1;
            route[f] = -1;
        }
        if (left) {
            uint32_t next = buf[f * (size_t)B];
            if (FL_HEAD(next)) n->hdr[n->nhdr++] = (uint32_t)f;
        }
        mv[k].f = (int32_t)x; /* the flit, for the pushes below */
    }
    for (int k = 0; k < nmv; k++) {
        const int32_t dst = down[mv[k].o];
        if (dst >= 0 && n->link_flits) n->link_flits[(size_t)mv[k].node * 4 + (size_t)(mv[k].o % n->NF / n->V)]++;
        if (n->tm && dst >= 0) olnet_timing_sent(n, mv[k].node, (int)(mv[k].o - (int32_t)((size_t)mv[k].node * (size_t)n->NF)), (size_t)dst);
        deliver(n, dst, (uint32_t)mv[k].f, t, n->tm ? n->tm->Lo : 0);
    }
    for (int k = 0; k < n->ninj; k++) {
        int i = n->inj[k];
        olsource *s = &n->src[i];
        int32_t id = s->id[s->head];
        size_t pf = ((size_t)i * NPORTS + PORT_P) * (size_t)n->V + (size_t)s->vc;
        if (s->seq == 0) n->pk[id].t_inj = t;
        int len = n->pk[id].len;
        if (n->tm) olnet_timing_sent(n, i, -1, pf);
        deliver(n, (int32_t)pf, FL(id, s->seq == 0, s->seq == len - 1), t, n->tm ? n->tm->Li : 0);
        olnet_source_sent(n, i, len);
    }
    if (n->tm) timing_cycle_end(n, t);
    route_headers(n, t);
    return nmv + n->ninj;
}

int64_t olnet_step(olnet *n, int64_t t, const int32_t **done, int *ndone)
{
    int64_t moved;
    if (n->tm) olnet_timing_catch_up(n, t);
    if (n->p.reference) {
        n->nmv = 0;
        for (int i = 0; i < n->nodes; i++) {
            if (!n->rflits[i]) continue;
            if (n->reqm[i]) queue_selection(n, i);
            vc_selection(n, i);
        }
        decide_injections(n, t);
        moved = apply(n, t);
    } else {
        moved = olnet_step_fast(n, t);
    }
    *done = n->done;
    *ndone = n->ndone;
    return moved;
}
