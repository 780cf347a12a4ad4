/* The pipelined ring broadcast, a constructed (not searched) AAB schedule:
 * along a Hamiltonian cycle v0 -> v1 -> ... -> v0, in step s every node
 * passes to its successor the message it received in step s - 1 (its own in
 * step 0).  After P - 1 steps every node holds all P messages; every
 * transfer is one hop, every node sends and receives one message per step,
 * and each step uses each cycle channel once.  So it is a valid AAB schedule
 * for any port model and switching, and optimal whenever the bound is P - 1
 * (one-port AAB: a node receives P - 1 messages, one per step), where the
 * searches find it hard: mesh 4x4 one-port AAB, 15 steps (paper 000: 15). */
#ifndef NOCSIM_CC_RING_H
#define NOCSIM_CC_RING_H

#include "cc/problem.h"
#include "cc/schedule.h"

/* Nodes the Hamiltonian-cycle search may expand before giving up. */
#define CC_RING_EXPANSIONS 2000000L

/* For an AAB problem (every node sends and receives), look for a
 * Hamiltonian cycle over the working channels (at most max_expand node
 * expansions of a backtracking search, most constrained successor first)
 * and build the ring schedule.  CC_OK with *out the schedule (caller frees),
 * or *out NULL when the problem is not AAB or no cycle was found; CC_ENOMEM. */
int cc_ring_schedule(const cc_problem *pb, long max_expand, cc_schedule **out, char *err, size_t errlen);

#endif
