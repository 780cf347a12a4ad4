/* Replaying a wormhole CC schedule flit by flit: how many cycles its steps
 * take on a network that moves one flit per channel per cycle, next to
 * paper 000's step model t = S x t_s + m x t_1.
 *
 * The flit model (the whole of it; tests/test_ccsim.c checks it by hand)
 * - Every transfer of the schedule is one packet of m flits, source-routed
 *   along the transfer's path of H channels.  Any topology works: the route
 *   is the path, not a routing function.
 * - A channel carries at most one flit per cycle and belongs to one packet
 *   from the cycle its header crosses it until the cycle its tail crosses
 *   it; another header may cross it from the next cycle on.
 * - A packet moves as a unit (one flit of buffer per channel): in a cycle
 *   where it moves, flit i crosses the i-th channel behind the header.  A
 *   header whose next channel belongs to another packet blocks, and the whole
 *   packet waits, holding its channels.  Ejection never blocks.
 * - Headers that want the same free channel in the same cycle: the transfer
 *   earlier in the schedule (lower step, then schedule order) wins.
 * - So an isolated packet started at cycle c delivers its last flit at the
 *   end of cycle c + H + m - 2: it is *done at* c + H + m - 1.
 *
 * Two modes:
 * - CCSIM_STEPS: the schedule's steps one after another.  Every transfer of
 *   step s starts at the cycle the last transfer of the previous non-empty
 *   step is done (step 0 at cycle 0).  A valid schedule never shares a
 *   channel within a step, so no header blocks and a step lasts
 *   (its longest path) + m - 1 cycles.
 * - CCSIM_OVERLAP: no step barrier.  A transfer starts at the first cycle at
 *   which (a) its sender has the message: a scatter sender from cycle 0, a
 *   broadcast sender from the cycle a packet carrying that origin's message
 *   to it is done (the origin itself from cycle 0); (b) every channel of its
 *   path is free; (c) the sender has a free send port and the receiver a
 *   free receive port (K of each in the K-port model, the degree in
 *   all-port); (d) no transfer of an earlier step that uses one of its
 *   channels (with K ports: its sender's send port or its receiver's
 *   receive port) is still waiting to start, so every channel and port
 *   serves its transfers in the schedule's order.  It then claims its whole
 *   path at once, so a started packet never blocks and arbitrary source
 *   routes cannot deadlock; each channel is freed as its tail crosses it,
 *   the send port when the tail has left the sender (m cycles), the receive
 *   port when the packet is done.  Each cycle, waiting transfers are tried
 *   in schedule order.  By (d), for a valid schedule no transfer starts
 *   later than in CCSIM_STEPS (by induction over steps: whatever it waits
 *   for is of an earlier step), so overlapped is never slower; without (d)
 *   a greedy start can take a channel an earlier step needs, and was 20%
 *   slower than steps on mesh 4x4 AAS with 64-flit packets.
 *
 * Conventions as in cc/errors.h. */
#ifndef NOCSIM_CCSIM_REPLAY_H
#define NOCSIM_CCSIM_REPLAY_H

#include <stdint.h>

#include "cc/problem.h"
#include "cc/schedule.h"

typedef enum { CCSIM_STEPS, CCSIM_OVERLAP } ccsim_mode;

extern const char *const ccsim_mode_names[2];   /* "steps", "overlap" */

/* Largest packet length accepted (flits), so cycle counts stay far from
 * overflow. */
#define CCSIM_MAX_FLITS 1000000
/* Default packet length: the simulator's default packet (l_c = 8 flits). */
#define CCSIM_DEFAULT_FLITS 8
/* Largest start-up t_s of the step model (cycles) the front end takes. */
#define CCSIM_MAX_TS 1000000000L

typedef struct {
    int64_t cycles;        /* done time of the last transfer */
    int64_t stalls;        /* packet-cycles a started header waited for a busy channel */
    int max_hops;          /* longest path of the schedule, in channels */
    int steps;             /* steps of the schedule (empty ones included) */
} ccsim_result;

/* Replay s (transfers on pb->t; a wormhole schedule) with packets of flits
 * flits in mode into *res.  The schedule need not be valid, but every
 * consecutive pair of path nodes must be joined by a channel.  CC_OK;
 * CC_EINPUT for a store-and-forward problem, flits outside
 * 1..CCSIM_MAX_FLITS, a path step with no channel, packets that block each
 * other for ever (steps mode), or a broadcast sender that never receives its
 * message (overlap mode) — each named in err; CC_ENOMEM. */
NOCSIM_MUST_USE
int ccsim_replay(const cc_problem *pb, const cc_schedule *s, int flits, ccsim_mode mode, ccsim_result *res,
                 char *err, size_t errlen);

/* Paper 000's equation (3): steps x ts + flits x t1 (cycles). */
static inline int64_t ccsim_step_model(int steps, int64_t ts, int64_t t1, int flits)
{
    return (int64_t)steps * ts + (int64_t)flits * t1;
}

#endif
