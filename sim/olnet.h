/* The network of an open-loop run: the model's router [R-NET-1..4] on a w x h torus or
 * mesh, fed by per-node source queues of packets of any length and
 * destination, stepped one cycle at a time.
 *
 * It is the same cellular automaton as sim.c's closed-loop reference (its
 * specification), and its fast path is the engine of every closed-loop run
 * too (sim/closedloop.c drives it; tests/test_closedloop.c compares every
 * metric, tail cycle and link statistic with sim.c's), with what open-loop
 * traffic needs on top:
 *  - packets are created while the network runs (olnet_add) and queue at
 *    their source without bound; each is its own record (destination,
 *    length, generation and injection cycles, a tag for the measurement);
 *  - meshes and rectangular tori, and the any-VC rule (route.h), under
 *    which a header may take any free VC of its output port: the free
 *    output VCs of a port grant in ascending order, each by its own queue-
 *    selection order among the requests not yet granted, and a source puts
 *    each new packet into the next P input VC (round robin from the one it
 *    used last) that has a free slot.
 * The work of a cycle is proportional to the routers that hold flits.  The
 * fast path (the default, sim/olnet_fast.c) looks only at the output VCs
 * that can send (a mask per router of those whose downstream FIFO is full,
 * and on x86 with SSSE3 a byte shuffle a router for those that hold a
 * flit), routes a header from its packet's two precomputed ports and is
 * compiled apart for the default three VCs of four flits; the reference path, kept
 * beside it (sim/olnet.c), looks at every output VC and calls the routing
 * function and the arbiters as docs/model.md words them ([R-QS-*], [R-VS-*]).
 *
 * Conventions as in store/store.h and util/fault.h: olnet_new returns NULL
 * with a message in err and its fault kind; olnet_free accepts NULL; stepping cannot fail.  Packet ids are small
 * integers, reused after olnet_release; a packet's fields stay valid until
 * then. */
#ifndef NOCSIM_SIM_OLNET_H
#define NOCSIM_SIM_OLNET_H

#include <stddef.h>
#include <stdint.h>

#include "router/arbiter.h"
#include "router/route.h"
#include "router/routing.h"
#include "sim/sim.h"
#include "util/fault.h"

typedef struct {
    route_params rp;       /* the grid: w, h, topo, tie, dateline */
    route_vc_rule vc_rule;
    int vcs;               /* 1..SIM_MAX_VCS (>= 3 on a torus under the dateline rule) */
    int buffer;            /* flits per input-VC FIFO, 1..255 */
    int scheme;            /* VC-selection scheme of every output port (C00..C09) */
    qsel_update q_update;
    routing_kind routing;  /* the routing function (router/routing.h; 0 = dor) */
    routing_selection selection; /* how an adaptive function picks a port (0 = credits) */
    uint64_t route_seed;   /* seeds the random choices of packets' routes (the functions that draw) */
    /* Router timing [R-TM-1..5] (all 0: the model's one cycle a hop, a slot
     * freed in t refilled in t + 1).  Open-loop runs only. */
    int router_delay;      /* D: a header new at its FIFO's head at the end of t may be granted from t + 1 + D */
    int switch_delay;      /* S: what a flit a router sends spends in its switch beside the link */
    int link_delay;        /* L: a flit a router sends in t lands at the end of t + S + L (next router or
                              ejection); one a source injects in t, at the end of t + L */
    int credit_delay;      /* C: a slot freed in t is seen by its sender from t + 1 + C */
    int vc_rotate;         /* any-VC rule: 1, a port's free VCs grant from the one after its last grant,
                              going round (BookSim2's VC allocator); 0, from the lowest [R-VC-6] */
    int reference;         /* 1: the straightforward path (every output VC of every
                              router with flits looked at, the arbiters called);
                              0: the fast path (live masks, table look-ups).  Both
                              give identical runs (tests/test_olnet.c). */
    int scalar;            /* 1: the fast path keeps its live masks up to date move by
                              move even where it could find them with SSSE3 each cycle
                              (x86 with SSSE3, at most three VCs): for the tests,
                              which compare the two */
} olnet_params;

/* Largest packet id + 1: ids live in a flit's upper 24 bits. */
#define OLNET_MAX_PACKETS (1 << 24)
/* Longest packet. */
#define OLNET_MAX_FLITS 255
/* Largest router, switch, link or credit delay: the open-loop watchdog's 64
 * quiet cycles [R-RF-8] must outlast the longest stretch a flit can wait
 * without anything moving (at most S + L + D + C). */
#define OLNET_MAX_DELAY 15

/* One packet's record, read by the measurement after its tail ejected. */
typedef struct {
    int32_t src, dest;
    int32_t len;
    int32_t tag;           /* the caller's (e.g. its measurement batch, -1 untagged) */
    int64_t t_gen;         /* cycle it was generated (may inject from then on) */
    int64_t t_inj;         /* cycle its header entered the P input FIFO */
    int64_t t_done;        /* cycle its tail was ejected */
} olnet_packet;

typedef struct olnet olnet;

/* Whether p sets any router timing (a delay not 0). */
static inline int olnet_timed(const olnet_params *p)
{
    return p->router_delay || p->switch_delay || p->link_delay || p->credit_delay;
}

/* A network for p.  cfg, when not NULL, gives per-port schemes and initial
 * queue-selection orders (its nodes must be w * h and its vcs p->vcs; its
 * interval and injection timings are not used); NULL means p->scheme on
 * every port and every order (N,E,S,W,P).  Returns NULL with a message when
 * a parameter is out of range (naming it and the range), the any-VC rule is
 * asked of a torus under dor, the routing function refuses the grid or its
 * VCs (routing_check), or cfg does not fit (*kind FAULT_INPUT), or memory runs
 * out (FAULT_RESOURCE); kind may be NULL. */
NOCSIM_MUST_USE
olnet *olnet_new(const olnet_params *p, const sim_config *cfg, fault_kind *kind, char *err, size_t errlen);
void olnet_free(olnet *n);

/* Queue a new packet at src's source queue: it may inject from cycle t_gen
 * on (after the packets queued before it).  Returns its id, or -1 when
 * memory runs out or OLNET_MAX_PACKETS packets are alive. */
int32_t olnet_add(olnet *n, int src, int dest, int len, int64_t t_gen, int32_t tag);

/* Step cycle t (t increasing by one from 0 from call to call, or jumping
 * over cycles in which the network is empty and nothing is due).  The
 * packets whose tail ejected in t are listed in *done (*ndone of them,
 * valid until the next step); release each with olnet_release when read.
 * Returns the flits moved (injections included). */
int64_t olnet_step(olnet *n, int64_t t, const int32_t **done, int *ndone);

/* A packet's record (id from olnet_add, not yet released). */
const olnet_packet *olnet_packet_get(const olnet *n, int32_t id);
/* Give the id back for reuse. */
void olnet_release(olnet *n, int32_t id);

/* Flits inside the network (input FIFOs) and packets alive (queued, in the
 * network, or done but not released). */
int64_t olnet_flits_in_network(const olnet *n);
int64_t olnet_packets_alive(const olnet *n);
/* Hops of the route from src to dest on this network under dimension order. */
int olnet_hops(const olnet *n, int src, int dest);
/* Hops of packet id's route (not yet released): under a routing function
 * with an intermediate node, through it. */
int olnet_packet_hops(const olnet *n, int32_t id);
/* Count every flit that crosses a link between routers: from now on the
 * flit leaving router i through port d (N, E, S, W = 0..3) in a cycle adds
 * one to link_flits[i * 4 + d] (nodes * 4 of them, the caller's, not
 * cleared here); NULL stops counting (the default). */
void olnet_count_links(olnet *n, uint64_t *link_flits);
/* Bytes allocated (grows with the packets alive). */
size_t olnet_bytes(const olnet *n);

#endif
