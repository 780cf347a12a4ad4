/* The floor of a collective communication: a lower bound on its duration
 * that holds for every chromosome, so that a search's result can be read
 * against what is possible at all (README, "The GA", derives it). */
#ifndef NOCSIM_GA_FLOOR_H
#define NOCSIM_GA_FLOOR_H

#include <stdint.h>

#include "sim/sim.h"
#include "util/fault.h"

/* The bound of the busiest link (its flits, plus the hops before it of the
 * packet that can reach it first, plus the hops after it of the packet that
 * can leave it last, plus the ejection and the cycle counted after it), or of
 * the busiest source (all its flits, its route and the same two cycles),
 * whichever is larger.  Depends only on the routes of dest[] (every node a
 * destination, self-addressed nodes as p->self says) and on S x l_c.
 * Under a routing function other than dor (and dor2, which takes dor's
 * routes) only the busiest source's, with its fewest hops: the links'
 * loads depend on the plans and selections.  Returns 0 when no packet is sent, -1 on allocation failure. */
NOCSIM_MUST_USE
int64_t ga_floor(const sim_params *p, const int32_t *dest);

#endif
