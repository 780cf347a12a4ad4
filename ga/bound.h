/* Per-link lower bounds on the duration of a collective communication that
 * are at least the floor (ga/floor.h) and account for the order of heads,
 * bodies and tails on a link.
 *
 * Every packet (source s, slice k) that crosses link L at the h-th link of its
 * route (h = 1, 2, ...) with b links after it gives L l_c flits; flit f
 * (0 = head) crosses L in cycle >= k l_c + f + h (the source's queue feeds
 * its P FIFO one flit a cycle, slices in order, and a flit moves one hop a
 * cycle), and a flit that crosses L in cycle t makes the run last at least
 * t + b + 2 cycles (README, "The GA", the floor's three facts).  A link
 * carries one flit a cycle.  So the best schedule of L's flits alone, each
 * released as above and weighted by its tail, is a lower bound:
 *
 *   flit    the flits as unit jobs, any order (Jackson's rule, largest tail
 *           first among the released, is optimal for unit jobs);
 *   packet  packets on the same VC of a link never interleave (a packet holds
 *           its output VC until its tail has gone), so the packets of one VC
 *           of L are l_c-cycle jobs that are never interrupted: the exact
 *           optimum of that single-machine problem (branch and bound over
 *           active schedules), for each VC of each link.
 *
 * The floor is the flit bound with every release at the link's earliest and
 * every tail at its smallest, so flit >= floor; packet is only computed per
 * VC and may be above or below flit.  Both hold for every chromosome (V, I,
 * C, Q) on the square torus or mesh of ga_floor under every model choice
 * (none makes a flit faster or a link wider); the packet bound only under the
 * dateline VC rule (under the any-VC rule a packet's VC is not fixed by its
 * route, so it is not computed).  On a rectangular grid only the floor. */
#ifndef NOCSIM_GA_BOUND_H
#define NOCSIM_GA_BOUND_H

#include <stdint.h>

#include "sim/sim.h"

typedef struct {
    int64_t floor;        /* ga_floor */
    int64_t flit;         /* the largest flit bound of a link (and the sources' bound) */
    int64_t packet;       /* the largest packet bound of a link's VC */
    int64_t bound;        /* the largest of the three */
    int32_t flit_link, packet_link;   /* where (node * 4 + d; -1: none) */
    int packet_vc;
    int exact;            /* 1: every packet problem was solved to optimality; 0: some
                             hit the node limit and count with their flit bound */
    int64_t nodes;        /* branch-and-bound nodes over all packet problems */
} ga_bound_info;

/* The bounds for traffic dest[] under p (n x n, every node a destination,
 * self-addressed nodes as p->self says) into *out.  node_limit caps the
 * branch-and-bound nodes of each packet problem (0: 1,000,000).  Returns 0,
 * or -1 on allocation failure. */
NOCSIM_MUST_USE
int ga_bound(const sim_params *p, const int32_t *dest, int64_t node_limit, ga_bound_info *out);

/* One link's problems, exposed for tests: m packets with head releases r[],
 * tails q[] (the cycles a flit crossing at t adds: t + q[j] is a bound) and
 * VCs vc[] (NULL: all on one VC), of len flits each.
 * ga_bound_flits: Jackson's optimum over the m x len unit flits.
 * ga_bound_packets: the exact non-preemptive optimum of the packets of VC
 * `vc` (all when vc[] is NULL); -1 when the node limit was hit (or memory ran
 * out).  Both return 0 when there is no packet. */
int64_t ga_bound_flits(int m, const int64_t *r, const int64_t *q, int len);
int64_t ga_bound_packets(int m, const int64_t *r, const int64_t *q, const int *vc, int vcsel, int len,
                         int64_t node_limit, int64_t *nodes);

#endif
