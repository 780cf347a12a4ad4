/* The pipelined ring broadcast, a constructed (not searched) schedule of an
 * AAB, or an MNB whose senders are its receivers (k nodes): a cycle
 * v0 -> v1 -> ... -> v0 through those nodes, each joined to the next by one
 * of its allowed routes, no two routes sharing a channel; in step s every
 * node passes to its successor the message it received in step s - 1 (its
 * own in step 0).  After k - 1 steps every node holds all k messages; every
 * node sends and receives one message per step and each step uses each
 * route's channels once.  So it is valid for any port model (in WH; in SF
 * only one-hop routes are used), and optimal whenever the bound is k - 1
 * (one port: a node receives k - 1 messages, one per step), where the
 * searches find it hard: mesh 4x4 one-port AAB, 15 steps (paper 000: 15);
 * the fat octagon's 16 cores, all to all, 15 (paper 000 Table 5: 15). */
#ifndef NOCSIM_CC_RING_H
#define NOCSIM_CC_RING_H

#include "cc/paths.h"
#include "cc/problem.h"
#include "cc/schedule.h"
#include "util/fault.h"

/* Nodes the cycle search may expand before giving up. */
#define CC_RING_EXPANSIONS 2000000L

/* For a broadcast whose senders are its receivers, look for such a cycle
 * over the routes of paths (at most max_expand node expansions of a
 * backtracking search: shortest routes first, then the node with the fewest
 * free out-channels) and build the ring schedule.  CC_OK with *out the
 * schedule (caller frees), or *out NULL when the problem does not qualify or
 * no cycle was found; CC_ENOMEM. */
NOCSIM_MUST_USE
int cc_ring_schedule(const cc_problem *pb, const cc_paths *paths, long max_expand, cc_schedule **out, char *err, size_t errlen);

#endif
