/* The reference cycle loop: a direct transcription of docs/model.md's three
 * steps [R-CYC-1..3], [R-QS-*], [R-VS-*], [R-INJ-1],
 * written to be checked against the text rather than to be fast, and
 * sim_run's dispatch to the one fast engine (sim/closedloop.c) with this
 * loop as its oracle (tests/test_closedloop.c, fuzz_engines) and fallback
 * (a deadlock or time-out is re-run here, so that sim_report_blocked shows
 * it; the model choices the fast engine lacks run only here).
 *
 * Every decision of cycle t reads the state at the start of t; moves are
 * collected first and applied afterwards (pops before pushes), which is what
 * makes the network a cellular automaton.  Idle stretches where the network
 * is empty and no packet is due are skipped: nothing can change in them. */
#include "sim/sim.h"
#include "sim/activity.h"
#include "sim/decisions.h"
#include "sim/tailwin.h"
#include "sim/closedloop.h"

#include <stdlib.h>
#include <string.h>

#include "util/invariant.h"
#include "util/rng.h"

/* A flit is its packet id and its position in the packet. */
#define FLIT(pkt, seq) (((uint32_t)(pkt) << 8) | (uint32_t)(seq))
#define FLIT_PKT(f) ((int32_t)((f) >> 8))
#define FLIT_SEQ(f) ((int)((f) & 0xff))

struct sim {
    sim_params p;
    route_params rp;
    int nodes, V, B, S;
    int32_t *dest;
    /* Input FIFOs, F = (node * NPORTS + port) * V + vc; ring buffers of B. */
    uint32_t *buf;
    uint8_t *head, *count;
    int16_t *route;   /* output VC (d * V + c) the FIFO's packet holds, or -1 */
    int16_t *reqd;    /* this cycle's request of the head header, or -1 */
    uint8_t *pop;     /* FIFO sends a flit this cycle */
    /* Output VCs, O = (node * NPORTS + port) * V + vc. */
    int16_t *holder;  /* local input FIFO (port * V + vc) holding it, or -1 */
    int32_t *down;    /* downstream FIFO of a link output VC, -1 for P */
    uint8_t *qstate;  /* current queue-selection order of each output VC */
    /* Output ports, node * NPORTS + port. */
    uint8_t *vlast;   /* VC granted last */
    int8_t *move;     /* VC chosen this cycle, or -1 */
    uint8_t *blocked; /* a held VC had a flit but its downstream was full */
    uint32_t *moved_flit;
    uint8_t *port_used; /* per node: input ports that sent (INPUT_PER_PORT) */
    /* Sources. */
    int32_t *src_slice; /* next slice to inject; S when done */
    int32_t *received;  /* packets received (tails ejected) per node */
    int32_t *expected;  /* packets each node receives per slice */
    uint16_t *src_seq;  /* flits of that slice already injected */
    uint8_t *inject_now;
    uint8_t *inj_vc;    /* the P input VC of the packet being injected */
    uint8_t *last_vc;   /* the P input VC of the node's previous packet (any-VC rule) */
    /* Links, k = node * 4 + port. */
    int64_t *lfirst, *llast, *lflits;
    int64_t *tail_at;   /* per packet (node * S + slice): the cycle its tail ejected */
    /* The fast engine (sim/closedloop.c), NULL when it does not support the
     * params; fast_ran says whose link statistics are the last run's. */
    closedloop *fast;
    int fast_ran;
    sim_activity *act; /* sim_run_traced's recorder during that run, else NULL */
    /* A routing function other than dor (routed_* below; NULL under dor). */
    routing_plan *pln;  /* per packet (node * S + slice): its random choices */
    int32_t *pid;       /* per node: the fast engine's id of its slice 0 (the random selection's hash) */
    int8_t *rq_d, *rq_c;   /* per FIFO: its waiting header's request, port and VC (-1 - class: any of it) */
    int8_t *rq_d2;      /* min-adaptive: the escape output VC beside it (local port * V + VC), -1 none */
    uint8_t *rq_set;    /* the header at the FIFO's head has asked (and waits for a grant) */
    int K;              /* the function's VC classes; class K stands for every VC */
    uint8_t clo[ROUTING_MAX_CLASSES + 1], chi[ROUTING_MAX_CLASSES + 1];
    uint64_t amask;     /* local output VCs granted only with their downstream FIFO empty:
                           min-adaptive's adaptive VCs of N, E, S, W [R-RF-12] */
};

static void *xcalloc(size_t n, size_t size, int *ok)
{
    void *p = calloc(n ? n : 1, size);
    if (!p) *ok = 0;
    return p;
}

/* Whether node i sends packets: a node whose destination is itself sends
 * only under SELF_SEND [R-RT-4]. */
static int node_sends(const sim *s, int i) { return s->dest[i] != i || s->p.self == SELF_SEND; }

static int routed_init(sim *s);

sim *sim_new(const sim_params *p, const int32_t *dest, fault_kind *kind, char *err, size_t errlen)
{
    fault_set(kind, FAULT_INPUT);
    if (sim_params_check(p, err, errlen)) return NULL;
    sim *s = calloc(1, sizeof *s);
    if (!s) return fault_set(kind, FAULT_RESOURCE), snprintf(err, errlen, "out of memory"), NULL;
    s->p = *p;
    s->rp = (route_params){ .n = p->n, .tie = p->tie, .dateline = p->dateline, .topo = p->topo, .w = p->n,
                            .h = sim_height(p) };
    s->nodes = sim_nodes(p);
    s->V = p->vcs;
    s->B = p->buffer;
    s->S = p->slices;
    if ((int64_t)s->nodes * s->S >= (1 << 24)) {
        free(s);
        return snprintf(err, errlen, "too many packets: nodes x slices must be below 2^24"), NULL;
    }
    size_t nf = (size_t)s->nodes * NPORTS * (size_t)s->V, np = (size_t)s->nodes * NPORTS;
    int ok = 1;
    s->dest = xcalloc((size_t)s->nodes, sizeof *s->dest, &ok);
    s->buf = xcalloc(nf * (size_t)s->B, sizeof *s->buf, &ok);
    s->head = xcalloc(nf, 1, &ok);
    s->count = xcalloc(nf, 1, &ok);
    s->route = xcalloc(nf, sizeof *s->route, &ok);
    s->reqd = xcalloc(nf, sizeof *s->reqd, &ok);
    s->pop = xcalloc(nf, 1, &ok);
    s->holder = xcalloc(nf, sizeof *s->holder, &ok);
    s->down = xcalloc(nf, sizeof *s->down, &ok);
    s->qstate = xcalloc(nf * NPORTS, 1, &ok);
    s->vlast = xcalloc(np, 1, &ok);
    s->move = xcalloc(np, 1, &ok);
    s->blocked = xcalloc(np, 1, &ok);
    s->moved_flit = xcalloc(np, sizeof *s->moved_flit, &ok);
    s->port_used = xcalloc((size_t)s->nodes, 1, &ok);
    s->src_slice = xcalloc((size_t)s->nodes, sizeof *s->src_slice, &ok);
    s->received = xcalloc((size_t)s->nodes, sizeof *s->received, &ok);
    s->expected = xcalloc((size_t)s->nodes, sizeof *s->expected, &ok);
    s->src_seq = xcalloc((size_t)s->nodes, sizeof *s->src_seq, &ok);
    s->inject_now = xcalloc((size_t)s->nodes, 1, &ok);
    s->inj_vc = xcalloc((size_t)s->nodes, 1, &ok);
    s->last_vc = xcalloc((size_t)s->nodes, 1, &ok);
    s->lfirst = xcalloc((size_t)s->nodes * 4, sizeof *s->lfirst, &ok);
    s->llast = xcalloc((size_t)s->nodes * 4, sizeof *s->llast, &ok);
    s->lflits = xcalloc((size_t)s->nodes * 4, sizeof *s->lflits, &ok);
    s->tail_at = xcalloc((size_t)s->nodes * (size_t)s->S, sizeof *s->tail_at, &ok);
    if (!ok) {
        sim_free(s);
        fault_set(kind, FAULT_RESOURCE);
        return snprintf(err, errlen, "out of memory for a %dx%d network", p->n, sim_height(p)), NULL;
    }
    for (int i = 0; i < s->nodes; i++) {
        if (dest[i] < 0 || dest[i] >= s->nodes) {
            snprintf(err, errlen, "destination of node %d is %d, outside [0, %d]", i, (int)dest[i], s->nodes - 1);
            sim_free(s);
            return NULL;
        }
        s->dest[i] = dest[i];
    }
    for (int i = 0; i < s->nodes; i++)
        if (node_sends(s, i)) s->expected[dest[i]]++;
    if (p->routing != ROUTING_DOR && !routed_init(s)) {
        sim_free(s);
        fault_set(kind, FAULT_RESOURCE);
        return snprintf(err, errlen, "out of memory for a %dx%d network", p->n, sim_height(p)), NULL;
    }
    if (!p->reference_only && closedloop_supports(p) && !(s->fast = closedloop_new(p, s->dest, 0))) {
        sim_free(s);
        fault_set(kind, FAULT_RESOURCE);
        return snprintf(err, errlen, "out of memory for a %dx%d network", p->n, sim_height(p)), NULL;
    }
    for (int i = 0; i < s->nodes; i++)
        for (int d = 0; d < NPORTS; d++)
            for (int c = 0; c < s->V; c++) {
                size_t o = ((size_t)i * NPORTS + (size_t)d) * (size_t)s->V + (size_t)c;
                int nb = d == PORT_P ? -1 : route_grid_neighbour(&s->rp, i, d);
                s->down[o] = nb < 0 ? -1 : (nb * NPORTS + route_opposite(d)) * s->V + c;
            }
    return s;
}

void sim_free(sim *s)
{
    if (!s) return;
    free(s->dest); free(s->buf); free(s->head); free(s->count); free(s->route);
    free(s->reqd); free(s->pop); free(s->holder); free(s->down); free(s->qstate);
    free(s->vlast); free(s->move); free(s->blocked); free(s->moved_flit);
    free(s->port_used); free(s->src_slice); free(s->received); free(s->expected); free(s->src_seq); free(s->inject_now);
    free(s->inj_vc); free(s->last_vc);
    free(s->lfirst); free(s->llast); free(s->lflits); free(s->tail_at);
    free(s->pln); free(s->pid); free(s->rq_d); free(s->rq_c); free(s->rq_d2); free(s->rq_set);
    closedloop_free(s->fast);
    free(s);
}

static void reset(sim *s, const sim_config *c)
{
    size_t nf = (size_t)s->nodes * NPORTS * (size_t)s->V;
    memset(s->head, 0, nf);
    memset(s->count, 0, nf);
    memset(s->pop, 0, nf);
    for (size_t f = 0; f < nf; f++) s->route[f] = s->holder[f] = s->reqd[f] = -1;
    memcpy(s->qstate, c->qorder, nf * NPORTS);
    memset(s->vlast, 0, (size_t)s->nodes * NPORTS); /* as if VC 0 was granted last */
    if (s->rq_set) memset(s->rq_set, 0, nf);
    for (int i = 0; i < s->nodes; i++) {
        s->src_slice[i] = node_sends(s, i) ? 0 : s->S;
        s->src_seq[i] = 0;
        s->inj_vc[i] = 0;
        s->last_vc[i] = (uint8_t)(s->V - 1); /* the first packet takes VC 0 */
        s->received[i] = 0;
    }
    for (int k = 0; k < s->nodes * 4; k++) {
        s->lfirst[k] = s->llast[k] = -1;
        s->lflits[k] = 0;
    }
}

static inline uint32_t head_flit(const sim *s, size_t f) { return s->buf[f * (size_t)s->B + s->head[f]]; }
static inline int flit_slice(const sim *s, uint32_t fl) { return FLIT_PKT(fl) % s->S; }
static inline int64_t release_time(const sim *s, const sim_config *c, int i)
{
    return (int64_t)s->src_slice[i] * c->interval + c->inject[i];
}

/* Step 1, queue selection at one router. */
static void queue_selection(sim *s, int i, sim_metrics *m)
{
    const int V = s->V;
    size_t base = (size_t)i * NPORTS * (size_t)V;
    int nreq = 0;
    int16_t req_f[NPORTS * SIM_MAX_VCS];
    for (int p = 0; p < NPORTS; p++)
        for (int v = 0; v < V; v++) {
            size_t f = base + (size_t)(p * V + v);
            s->reqd[f] = -1;
            if (!s->count[f] || s->route[f] >= 0) continue;
            uint32_t fl = head_flit(s, f);
            if (FLIT_SEQ(fl) != 0) continue;
            int oc, d = route_next(&s->rp, i, p, v, s->dest[FLIT_PKT(fl) / s->S], &oc);
            s->reqd[f] = (int16_t)(d * V + oc);
            req_f[nreq++] = (int16_t)(p * V + v);
        }
    for (int r = 0; r < nreq; r++) {
        int o = s->reqd[base + (size_t)req_f[r]];
        if (o < 0 || s->holder[base + (size_t)o] >= 0) continue;
        /* The first request for o in the list: gather all requests for it. */
        int first = 1;
        for (int q = 0; q < r; q++)
            if (s->reqd[base + (size_t)req_f[q]] == o) first = 0;
        if (!first) continue;
        unsigned mask = 0;
        for (int q = r; q < nreq; q++)
            if (s->reqd[base + (size_t)req_f[q]] == o) mask |= 1u << (req_f[q] / V);
        uint8_t *order = s->qstate + (base + (size_t)o) * NPORTS;
        int pos = qsel_pick(order, mask);
        int wp = order[pos];
        /* Within one direction the lowest requesting VC goes first. */
        int win = -1;
        for (int q = r; q < nreq && win < 0; q++)
            if (s->reqd[base + (size_t)req_f[q]] == o && req_f[q] / V == wp) win = req_f[q];
        s->holder[base + (size_t)o] = (int16_t)win;
        s->route[base + (size_t)win] = (int16_t)o;
        qsel_update_order(order, pos, s->p.q_update);
        int ws = flit_slice(s, head_flit(s, base + (size_t)win));
        for (int q = r; q < nreq; q++) {
            if (req_f[q] == win || s->reqd[base + (size_t)req_f[q]] != o) continue;
            int ls = flit_slice(s, head_flit(s, base + (size_t)req_f[q]));
            if (ls > ws) m->ir++;
            else if (ls < ws) m->or_++;
        }
    }
}

/* Step 1 at one router under the any-VC rule (a mesh): each waiting header
 * asks for its output port; the port's free VCs grant in ascending order,
 * each by its own queue-selection order among the requests not yet granted,
 * the lowest requesting VC of the winning direction first.  A request still
 * waiting when its port has no free VC left lost to each grant of the
 * port this cycle (ir / or by slice). */
static void queue_selection_any(sim *s, int i, sim_metrics *m)
{
    const int V = s->V;
    size_t base = (size_t)i * NPORTS * (size_t)V;
    int8_t want[NPORTS * SIM_MAX_VCS];
    for (int f = 0; f < NPORTS * V; f++) {
        size_t g = base + (size_t)f;
        want[f] = -1;
        if (!s->count[g] || s->route[g] >= 0 || FLIT_SEQ(head_flit(s, g)) != 0) continue;
        int oc;
        want[f] = (int8_t)route_next(&s->rp, i, f / V, f % V, s->dest[FLIT_PKT(head_flit(s, g)) / s->S], &oc);
    }
    for (int d = 0; d < NPORTS; d++) {
        int winners[SIM_MAX_VCS], nwin = 0;
        for (int c = 0; c < V; c++) {
            int o = d * V + c;
            if (s->holder[base + (size_t)o] >= 0) continue;
            unsigned mask = 0;
            for (int f = 0; f < NPORTS * V; f++)
                if (want[f] == d) mask |= 1u << (f / V);
            if (!mask) break;
            uint8_t *order = s->qstate + (base + (size_t)o) * NPORTS;
            int pos = qsel_pick(order, mask), wp = order[pos], win = -1;
            for (int f = wp * V; f < wp * V + V && win < 0; f++)
                if (want[f] == d) win = f;
            s->holder[base + (size_t)o] = (int16_t)win;
            s->route[base + (size_t)win] = (int16_t)o;
            want[win] = -1;
            winners[nwin++] = win;
            qsel_update_order(order, pos, s->p.q_update);
        }
        for (int f = 0; f < NPORTS * V; f++) {
            if (want[f] != d) continue;
            int ls = flit_slice(s, head_flit(s, base + (size_t)f));
            for (int k = 0; k < nwin; k++) {
                int ws = flit_slice(s, head_flit(s, base + (size_t)winners[k]));
                if (ls > ws) m->ir++;
                else if (ls < ws) m->or_++;
            }
        }
    }
}

/* Step 2 at one output port: choose the VC that sends.  Returns 1 if a flit
 * was chosen.  `same_cycle` lets a flit enter a slot freed this cycle. */
static int vc_selection(sim *s, const sim_config *c, int i, int d, sim_metrics *m)
{
    const int V = s->V;
    size_t port = (size_t)i * NPORTS + (size_t)d;
    size_t base = (size_t)i * NPORTS * (size_t)V;
    unsigned ready = 0;
    int blocked = 0;
    for (int vc = 0; vc < V; vc++) {
        size_t o = port * (size_t)V + (size_t)vc;
        int h = s->holder[o];
        if (h < 0) continue;
        size_t f = base + (size_t)h;
        if (!s->count[f]) continue;
        if (s->p.input_limit == INPUT_PER_PORT && (s->port_used[i] & (1u << (h / V)))) continue;
        if (d == PORT_P) { ready |= 1u << vc; continue; }
        int occ = s->count[s->down[o]];
        if (s->p.slot_reuse == SLOT_SAME_CYCLE) occ -= s->pop[s->down[o]];
        if (occ < s->B) ready |= 1u << vc;
        else blocked = 1;
    }
    s->blocked[port] = (uint8_t)blocked;
    if (!ready) return 0;
    int vc = vcsel_pick(c->scheme[port], ready, s->vlast[port], V);
    s->vlast[port] = (uint8_t)vc;
    s->move[port] = (int8_t)vc;
    int h = s->holder[port * (size_t)V + (size_t)vc];
    s->pop[base + (size_t)h] = 1;
    s->port_used[i] |= (uint8_t)(1u << (h / V));
    int ws = flit_slice(s, head_flit(s, base + (size_t)h));
    for (int v2 = 0; v2 < V; v2++) {
        if (v2 == vc || !(ready & (1u << v2))) continue;
        int ls = flit_slice(s, head_flit(s, base + (size_t)s->holder[port * (size_t)V + (size_t)v2]));
        if (ls > ws) m->ib++;
        else if (ls < ws) m->ob++;
    }
    return 1;
}

/* A packet for node i has arrived.  Slice re-initialisation restores the
 * node's arbitration state (queue orders, last granted VCs) as configured, so
 * every slice meets the router as the first one did. */
static void packet_arrived(sim *s, const sim_config *c, int i)
{
    s->received[i]++;
    if (!s->p.slice_reinit) return;
    size_t lists = NPORTS * (size_t)s->V;
    memcpy(s->qstate + (size_t)i * lists * NPORTS, c->qorder + (size_t)i * lists * NPORTS, lists * NPORTS);
    memset(s->vlast + (size_t)i * NPORTS, 0, NPORTS);
}

static void push(sim *s, size_t f, uint32_t fl)
{
    s->buf[f * (size_t)s->B + (size_t)((s->head[f] + s->count[f]) % s->B)] = fl;
    s->count[f]++;
}

static sim_status run(sim *s, const sim_config *c, int64_t cutoff, sim_metrics *m);

sim_status sim_run_reference(sim *s, const sim_config *c, sim_metrics *m)
{
    s->fast_ran = 0;
    return run(s, c, INT64_MAX, m);
}

sim_status sim_run_traced(sim *s, const sim_config *c, sim_activity *a, sim_metrics *m)
{
    sim_activity_reset(a);
    s->act = a;
    sim_status st = sim_run_reference(s, c, m);
    s->act = NULL;
    return st;
}

/* The fast engine when it supports the params; a deadlock or timeout is
 * re-run by the reference so that its state (sim_report_blocked) shows it. */
sim_status sim_run_cutoff(sim *s, const sim_config *c, int64_t cutoff, sim_metrics *m)
{
    return sim_run_recording(s, c, cutoff, NULL, m);
}

/* The fast engine counting what `what` says, or the reference. */
static sim_status run_counting(sim *s, const sim_config *c, int64_t cutoff, sim_decisions *d, closedloop_metrics what,
                               sim_metrics *m)
{
    if (s->fast) {
        sim_status st = closedloop_run(s->fast, c, cutoff, d, what, m);
        if (st == SIM_OK || st == SIM_CUTOFF) {
            s->fast_ran = 1;
            return st;
        }
    }
    if (d) sim_decisions_clear(d);
    s->fast_ran = 0;
    return run(s, c, cutoff, m);
}

sim_status sim_run_recording(sim *s, const sim_config *c, int64_t cutoff, sim_decisions *d, sim_metrics *m)
{
    return run_counting(s, c, cutoff, d, CL_FULL, m);
}

sim_status sim_run_lean(sim *s, const sim_config *c, int64_t cutoff, sim_decisions *d, sim_metrics *m)
{
    return run_counting(s, c, cutoff, d, CL_LEAN, m);
}

sim_status sim_run(sim *s, const sim_config *c, sim_metrics *m) { return sim_run_cutoff(s, c, INT64_MAX, m); }
int sim_ran_fast(const sim *s) { return s->fast_ran; }

/* What one reference run keeps between cycles. */
typedef struct {
    int64_t to_send, done, in_net, last_eject, t;
    tailwin tw;
} ref_run;

/* With no flit in the network nothing moves before the next release: jump there. */
static void skip_to_release(const sim *s, const sim_config *c, ref_run *r)
{
    int64_t next = INT64_MAX;
    for (int i = 0; i < s->nodes; i++)
        if (s->src_slice[i] < s->S) {
            /* A source part-way through a packet injects now. */
            int64_t rel = s->src_seq[i] ? r->t : release_time(s, c, i);
            if (rel < next) next = rel;
        }
    if (next != INT64_MAX && next > r->t) r->t = next;
}

static void routed_queue_selection(sim *s, int i, sim_metrics *m);

/* Steps 1 and 2: queue selection at every router, then VC selection at every
 * output port (again on idle ports under same-cycle slot reuse), and the
 * blocked links of the cycle. */
static void select_moves(sim *s, const sim_config *c, int64_t t, sim_metrics *m)
{
    const int n = s->nodes;
    const size_t nodes = (unsigned)n, nf = nodes * NPORTS * (size_t)s->V;
    for (int i = 0; i < n; i++) {
        if (s->pln) routed_queue_selection(s, i, m);
        else if (s->p.vc_rule == VCRULE_ANY) queue_selection_any(s, i, m);
        else queue_selection(s, i, m);
    }
    memset(s->pop, 0, nf);
    memset(s->port_used, 0, nodes);
    memset(s->move, -1, nodes * NPORTS);
    for (int i = 0; i < n; i++)
        for (int d = 0; d < NPORTS; d++) vc_selection(s, c, i, d, m);
    if (s->p.slot_reuse == SLOT_SAME_CYCLE) {
        /* Ports that stayed idle look again at slots freed this cycle;
         * decisions only get added, so this ends. */
        for (int changed = 1; changed;) {
            changed = 0;
            for (int i = 0; i < n; i++)
                for (int d = 0; d < PORT_P; d++)
                    if (s->move[i * NPORTS + d] < 0) changed |= vc_selection(s, c, i, d, m);
        }
    }
    for (int k = 0; k < n * NPORTS; k++)
        if (s->move[k] < 0 && s->blocked[k] && k % NPORTS != PORT_P) {
            m->lb++;
            if (s->act) sim_activity_blocked(s->act, t, (k / NPORTS) * 4 + k % NPORTS);
        }
}

/* Whether P input FIFO pf has a free slot, as it was at the start of the
 * cycle (plus this cycle's pop under same-cycle reuse). */
static int p_fifo_free(const sim *s, size_t pf)
{
    return s->count[pf] - (s->p.slot_reuse == SLOT_SAME_CYCLE ? s->pop[pf] : 0) < s->B;
}

/* ---- routing functions other than dor [R-RF-1..5] ----
 * The same cycle with the request of a header made once, at the end of the
 * cycle in which it reaches the head of its FIFO (an adaptive selection
 * reads the free slots downstream then) and kept until it is granted; the
 * classes of the function split each port's VCs [R-RF-2]; min-adaptive's
 * escape requests are granted after every other request of the router
 * [R-RF-4].  Packet p's plan is drawn at sim_new, from route_seed's stream
 * in the order of the packets (node, then slice, the nodes that send only):
 * the fast engine numbers its packets in that order too [R-RF-9]. */

/* The plans, the ids and the request arrays; 0 when memory ran out. */
static int routed_init(sim *s)
{
    const routing_kind k = s->p.routing;
    const size_t nf = (size_t)s->nodes * NPORTS * (size_t)s->V;
    int ok = 1;
    s->pln = xcalloc((size_t)s->nodes * (size_t)s->S, sizeof *s->pln, &ok);
    s->pid = xcalloc((size_t)s->nodes, sizeof *s->pid, &ok);
    s->rq_d = xcalloc(nf, 1, &ok);
    s->rq_c = xcalloc(nf, 1, &ok);
    s->rq_d2 = xcalloc(nf, 1, &ok);
    s->rq_set = xcalloc(nf, 1, &ok);
    if (!ok) return 0;
    s->K = routing_classes(k, &s->rp);
    for (int c = 0; c < s->K; c++) {
        s->clo[c] = (uint8_t)routing_class_first(k, &s->rp, c, s->V);
        s->chi[c] = (uint8_t)routing_class_first(k, &s->rp, c + 1, s->V);
    }
    s->clo[s->K] = 0;
    s->chi[s->K] = (uint8_t)s->V;
    if (routing_info_of(k)->escape)
        for (int l = 0; l < PORT_P * s->V; l++)
            if (routing_class_of(k, &s->rp, l % s->V, s->V) == s->K - 1) s->amask |= 1ull << l;
    rng r;
    rng_seed(&r, s->p.route_seed);
    int32_t next = 0;
    for (int i = 0; i < s->nodes; i++) {
        s->pid[i] = next;
        if (!node_sends(s, i)) continue;
        for (int sl = 0; sl < s->S; sl++) {
            const uint64_t bits = routing_info_of(k)->random ? rng_next(&r) : 0;
            s->pln[(size_t)i * (size_t)s->S + (size_t)sl] = routing_plan_make(k, &s->rp, i, s->dest[i], bits);
        }
        next += s->S;
    }
    return 1;
}

/* Free slots now in the FIFOs of class c that output port d of node i feeds. */
static int routed_free(const sim *s, int i, int d, int c)
{
    const int nb = route_grid_neighbour(&s->rp, i, d);
    if (nb < 0) return 0;
    int free = 0;
    for (int v = s->clo[c]; v < s->chi[c]; v++)
        free += s->B - s->count[((size_t)nb * NPORTS + (size_t)route_opposite(d)) * (size_t)s->V + (size_t)v];
    return free;
}

/* The request of the header new at the head of FIFO f (input port p, VC v
 * of node i): the function's admissible ports, one picked by the selection
 * rule when there are several; the class's first VC under the dateline
 * rule, any VC of it under the any-VC rule (an ejection: any VC at all). */
static void routed_request(sim *s, int i, int p, int v, size_t f)
{
    const int32_t pk = FLIT_PKT(head_flit(s, f));
    const int src = pk / s->S, any = s->p.vc_rule == VCRULE_ANY;
    const routing_kind k = s->p.routing;
    const routing_options o = routing_admissible(k, &s->rp, &s->pln[pk], i, src, s->dest[src], p,
                                                 routing_class_of(k, &s->rp, v, s->V));
    int d = __builtin_ctz(o.ports);
    if (o.ports & (o.ports - 1)) {
        int free[PORT_P] = { 0 };
        for (int e = 0; e < PORT_P; e++)
            if (o.ports & (1u << e)) free[e] = routed_free(s, i, e, o.cls);
        const int32_t id = s->pid[src] + pk % s->S;
        d = routing_select(s->p.selection, o.ports, free, routing_hash(s->p.route_seed, id, i));
    }
    NOCSIM_ASSERT(p == PORT_P || d == PORT_P || routing_turn_allowed(k, &s->rp, i, route_opposite(p), d),
                  "sim: a routing function never takes a turn it forbids");
    s->rq_d[f] = (int8_t)d;
    s->rq_c[f] = (int8_t)(any ? -1 - (d == PORT_P ? s->K : o.cls) : s->clo[o.cls]);
    s->rq_d2[f] = (int8_t)(o.esc < 0 ? -1 : o.esc * s->V + s->clo[o.esc_cls]);
    s->rq_set[f] = 1;
}

/* At the end of a cycle: every header new at the head of its FIFO asks. */
static void routed_requests(sim *s)
{
    const int V = s->V;
    for (int i = 0; i < s->nodes; i++)
        for (int p = 0; p < NPORTS; p++)
            for (int v = 0; v < V; v++) {
                size_t f = ((size_t)i * NPORTS + (size_t)p) * (size_t)V + (size_t)v;
                if (s->count[f] && s->route[f] < 0 && !s->rq_set[f] && FLIT_SEQ(head_flit(s, f)) == 0)
                    routed_request(s, i, p, v, f);
            }
}

/* Output VC o (local) of node i grants one of the requests `cand` (local
 * FIFO bits) by its queue-selection order: the first requesting direction,
 * its lowest VC.  Returns the winner. */
static int routed_grant(sim *s, size_t base, int o, uint64_t cand)
{
    const int V = s->V;
    unsigned dirs = 0;
    for (uint64_t m = cand; m; m &= m - 1) dirs |= 1u << (__builtin_ctzll(m) / V);
    uint8_t *order = s->qstate + (base + (size_t)o) * NPORTS;
    const int pos = qsel_pick(order, dirs), wp = order[pos];
    qsel_update_order(order, pos, s->p.q_update);
    const int win = __builtin_ctzll(cand & (((1ull << V) - 1) << (wp * V)));
    s->holder[base + (size_t)o] = (int16_t)win;
    s->route[base + (size_t)win] = (int16_t)o;
    s->rq_set[base + (size_t)win] = 0;
    return win;
}

/* ir / or: each request of `lost` against each grant of `won` by slice. */
static void routed_count(const sim *s, size_t base, uint64_t lost, uint64_t won, sim_metrics *m)
{
    for (; lost; lost &= lost - 1) {
        const int ls = flit_slice(s, head_flit(s, base + (size_t)__builtin_ctzll(lost)));
        for (uint64_t w = won; w; w &= w - 1) {
            const int ws = flit_slice(s, head_flit(s, base + (size_t)__builtin_ctzll(w)));
            if (ls > ws) m->ir++;
            else if (ls < ws) m->or_++;
        }
    }
}

/* May output VC o (local) of the node at base be granted?  No packet holds
 * it, and, for min-adaptive's adaptive VCs, its downstream FIFO is empty
 * [R-RF-12] (olnet_vc_free's rule). */
static int routed_vc_free(const sim *s, size_t base, int o)
{
    if (s->holder[base + (size_t)o] >= 0) return 0;
    const int32_t down = s->down[base + (size_t)o];
    return !(s->amask >> o & 1) || down < 0 || s->count[down] == 0;
}

/* Step 1 at node i: the requests grouped by what they name (an output VC
 * under the dateline rule; a port and class under the any-VC rule, whose
 * free VCs grant in ascending order), then min-adaptive's escapes, each
 * free escape VC among the headers still waiting that name it. */
static void routed_queue_selection(sim *s, int i, sim_metrics *m)
{
    const int V = s->V, nl = NPORTS * V;
    const size_t base = (size_t)i * (size_t)nl;
    uint64_t left = 0;
    for (int l = 0; l < nl; l++) left |= (uint64_t)s->rq_set[base + (size_t)l] << l;
    while (left) {
        const size_t f0 = base + (size_t)__builtin_ctzll(left);
        const int d = s->rq_d[f0], rc = s->rq_c[f0];
        uint64_t cand = 0, won = 0;
        for (int l = 0; l < nl; l++)
            if ((left >> l & 1) && s->rq_d[base + (size_t)l] == d && s->rq_c[base + (size_t)l] == rc)
                cand |= 1ull << l;
        left &= ~cand;
        const int lo = rc >= 0 ? rc : s->clo[-1 - rc], hi = rc >= 0 ? rc + 1 : s->chi[-1 - rc];
        for (int c = lo; c < hi && cand; c++)
            if (routed_vc_free(s, base, d * V + c)) {
                const uint64_t w = 1ull << routed_grant(s, base, d * V + c, cand);
                cand &= ~w;
                won |= w;
            }
        routed_count(s, base, cand, won, m);
    }
    for (int l = 0; l < nl; l++) left |= (uint64_t)(s->rq_set[base + (size_t)l] && s->rq_d2[base + (size_t)l] >= 0) << l;
    for (int o = 0; o < nl && left; o++) {
        uint64_t cand = 0;
        for (uint64_t x = left; x; x &= x - 1)
            if (s->rq_d2[base + (size_t)__builtin_ctzll(x)] == o) cand |= x & -x;
        if (cand && s->holder[base + (size_t)o] < 0) routed_grant(s, base, o, cand);
    }
}

/* The P input VC of node i's next flit, or -1 if none is free: a new
 * packet's first class's first VC under the dateline rule, under the
 * any-VC rule the next of its first class's VCs with a free slot. */
static int routed_injection_vc(const sim *s, int i, size_t pf)
{
    if (s->src_seq[i]) return p_fifo_free(s, pf + s->inj_vc[i]) ? s->inj_vc[i] : -1;
    const routing_plan *pl = &s->pln[(size_t)i * (size_t)s->S + (size_t)s->src_slice[i]];
    const unsigned vcs = routing_inject_vcs(s->p.routing, &s->rp, pl, s->V);
    if (s->p.vc_rule == VCRULE_DATELINE) {
        const int c = __builtin_ctz(vcs);
        return p_fifo_free(s, pf + (size_t)c) ? c : -1;
    }
    unsigned room = 0;
    for (int v = 0; v < s->V; v++) room |= (unsigned)p_fifo_free(s, pf + (size_t)v) << v;
    return inject_vc_next(room & vcs, s->last_vc[i], s->V);
}

/* The P input VC a node's next flit goes into, or -1 if none is free: VC 0
 * under the dateline rule; under the any-VC rule a new packet takes the
 * next VC, round robin from its previous packet's, that has a free slot. */
static int injection_vc(const sim *s, int i)
{
    size_t pf = ((size_t)i * NPORTS + PORT_P) * (size_t)s->V;
    if (s->pln) return routed_injection_vc(s, i, pf);
    if (s->src_seq[i] || s->p.vc_rule == VCRULE_DATELINE)
        return p_fifo_free(s, pf + s->inj_vc[i]) ? s->inj_vc[i] : -1;
    unsigned room = 0;
    for (int v = 0; v < s->V; v++) room |= (unsigned)p_fifo_free(s, pf + (size_t)v) << v;
    return inject_vc_next(room, s->last_vc[i], s->V);
}

/* Step 3, injection, decided against the P FIFO as it was at the start. */
static void decide_injections(sim *s, const sim_config *c, int64_t t)
{
    for (int i = 0; i < s->nodes; i++) {
        s->inject_now[i] = 0;
        if (s->src_slice[i] >= s->S || t < release_time(s, c, i)) continue;
        int v = injection_vc(s, i);
        if (v < 0) continue;
        s->inj_vc[i] = (uint8_t)v;
        s->inject_now[i] = 1;
        /* Interlock: a new slice's packet waits for the last slice's arrivals. */
        if (s->p.interlock && s->src_seq[i] == 0 &&
            s->received[i] < (int64_t)s->src_slice[i] * s->expected[i])
            s->inject_now[i] = 0;
    }
}

/* Apply the cycle's moves: pops first, then pushes (so a full FIFO can pass
 * a flit on), then injections.  Returns the number of flits moved. */
static int64_t apply_moves(sim *s, const sim_config *c, ref_run *r, sim_metrics *m)
{
    const int n = s->nodes, V = s->V;
    int64_t moves = 0;
    for (int k = 0; k < n * NPORTS; k++) {
        if (s->move[k] < 0) continue;
        size_t o = (size_t)k * (size_t)V + (size_t)s->move[k];
        size_t f = (size_t)(k / NPORTS) * NPORTS * (size_t)V + (size_t)s->holder[o];
        uint32_t fl = head_flit(s, f);
        s->head[f] = (uint8_t)((s->head[f] + 1) % s->B);
        s->count[f]--;
        s->moved_flit[k] = fl;
        if (FLIT_SEQ(fl) == s->p.flits - 1) { /* the tail frees the output VC */
            s->holder[o] = -1;
            s->route[f] = -1;
        }
        moves++;
    }
    for (int k = 0; k < n * NPORTS; k++) {
        if (s->move[k] < 0) continue;
        uint32_t fl = s->moved_flit[k];
        if (k % NPORTS == PORT_P) {
            m->flits_ejected++;
            r->in_net--;
            if (FLIT_SEQ(fl) == s->p.flits - 1) {
                r->done++;
                r->last_eject = r->t;
                tailwin_add(&r->tw, r->t);
                s->tail_at[FLIT_PKT(fl)] = r->t;
                packet_arrived(s, c, k / NPORTS);
            }
        } else {
            push(s, (size_t)s->down[(size_t)k * (size_t)V + (size_t)s->move[k]], fl);
            int l = (k / NPORTS) * 4 + k % NPORTS;
            if (s->lfirst[l] < 0) s->lfirst[l] = r->t;
            s->llast[l] = r->t;
            s->lflits[l]++;
            if (s->act) sim_activity_flit(s->act, r->t, l, flit_slice(s, fl));
        }
    }
    for (int i = 0; i < n; i++) {
        if (!s->inject_now[i]) continue;
        size_t pf = ((size_t)i * NPORTS + PORT_P) * (size_t)V;
        push(s, pf + s->inj_vc[i], FLIT(i * s->S + s->src_slice[i], s->src_seq[i]));
        m->flits_injected++;
        r->in_net++;
        moves++;
        if (++s->src_seq[i] == s->p.flits) {
            s->src_seq[i] = 0;
            s->src_slice[i]++;
            s->last_vc[i] = s->inj_vc[i];
        }
    }
    if (s->pln) routed_requests(s);
    return moves;
}

/* The metrics that are read off at the end of a run. */
static void finish_metrics(const sim *s, const ref_run *r, int64_t cutoff, sim_metrics *m)
{
    m->stop_cycle = m->status == SIM_OK ? 0 : r->t;
    m->duration = m->status == SIM_CUTOFF ? cutoff + 1 : r->last_eject + 1;
    m->late = tailwin_count(&r->tw, r->last_eject, s->p.flits);
    m->late_sum = tailwin_sum(&r->tw, r->last_eject, r->tw.w);
    m->tail_profile = tailwin_profile(&r->tw, r->last_eject);
    for (int l = 0; l < s->nodes * 4; l++) {
        if (s->lfirst[l] >= 0 && s->llast[l] - s->lfirst[l] + 1 > m->te) m->te = s->llast[l] - s->lfirst[l] + 1;
        if (s->lflits[l] > m->max_link_flits) m->max_link_flits = s->lflits[l];
    }
}

/* The reference cycle loop: the model's automaton, cycle by cycle [R-CYC-1]. */
static sim_status run(sim *s, const sim_config *c, int64_t cutoff, sim_metrics *m)
{
    memset(m, 0, sizeof *m);
    reset(s, c);
    ref_run r = { .last_eject = -1 };
    for (int i = 0; i < s->nodes; i++) {
        if (s->src_slice[i] == s->S) m->idle_nodes++;
        else r.to_send += s->S;
    }
    m->packets = r.to_send;
    tailwin_reset(&r.tw, sim_late_sum_window(s->p.flits));
    int64_t idle = 0;
    while (r.done < r.to_send) {
        if (r.in_net == 0) skip_to_release(s, c, &r);
        if (r.t >= s->p.max_cycles) { m->status = SIM_TIMEOUT; break; }
        /* A packet still out at the start of cycle t ejects at t or later. */
        if (r.t >= cutoff) { m->status = SIM_CUTOFF; break; }
        m->cycles++;
        select_moves(s, c, r.t, m);
        decide_injections(s, c, r.t);
        int64_t moves = apply_moves(s, c, &r, m);
        idle = moves ? 0 : idle + 1;
        if (r.in_net > 0 && idle >= s->p.deadlock_cycles) { m->status = SIM_DEADLOCK; break; }
        r.t++;
    }
    finish_metrics(s, &r, cutoff, m);
    return m->status;
}

void sim_link_stats(const sim *s, int k, int64_t *first, int64_t *last, int64_t *flits)
{
    if (s->fast_ran) {
        closedloop_link_stats(s->fast, k, first, last, flits);
        return;
    }
    *first = s->lfirst[k];
    *last = s->llast[k];
    *flits = s->lflits[k];
}

void sim_tail_cycles(const sim *s, int64_t *out)
{
    if (s->fast_ran) {
        closedloop_tail_cycles(s->fast, out);
        return;
    }
    for (int i = 0; i < s->nodes; i++) {
        int sends = node_sends(s, i);
        for (int k = 0; k < s->S; k++) {
            size_t pk = (size_t)i * (size_t)s->S + (size_t)k;
            out[pk] = sends ? s->tail_at[pk] : -1;
        }
    }
}

void sim_report_blocked(const sim *s, FILE *f, int limit)
{
    int shown = 0;
    for (int i = 0; i < s->nodes; i++)
        for (int p = 0; p < NPORTS; p++)
            for (int v = 0; v < s->V; v++) {
                size_t fi = ((size_t)i * NPORTS + (size_t)p) * (size_t)s->V + (size_t)v;
                if (!s->count[fi]) continue;
                if (shown++ >= limit) continue;
                uint32_t fl = head_flit(s, fi);
                int r = s->route[fi];
                fprintf(f, "  node %d (%d,%d) input %c vc %d: %d flits, head = packet %d flit %d to node %d, ",
                        i, i % s->p.n, i / s->p.n, route_port_name(p), v, s->count[fi], (int)FLIT_PKT(fl),
                        FLIT_SEQ(fl), (int)s->dest[FLIT_PKT(fl) / s->S]);
                if (r < 0) fprintf(f, "waiting for an output VC\n");
                else fprintf(f, "holds output %c vc %d\n", route_port_name(r / s->V), r % s->V);
            }
    if (shown > limit) fprintf(f, "  ... and %d more non-empty FIFOs\n", shown - limit);
}
