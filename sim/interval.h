/* Interval search: simulate one configuration at every inter-slice interval
 * of a range and keep the shortest.  Simple stacking, slice extrapolation,
 * post-stacking and replays all reduce to it. */
#ifndef NOCSIM_SIM_INTERVAL_H
#define NOCSIM_SIM_INTERVAL_H

#include <stdint.h>

#include "sim/pool.h"
#include "util/fault.h"

/* Largest inter-slice interval a command accepts for one run, and the largest
 * upper end of a searched range (each V of a range is one simulation). */
#define SIM_INTERVAL_MAX 1000000
#define SIM_SWEEP_MAX 100000

/* Runs c at V = lo..hi on the pool.  The shortest duration wins, the
 * smallest V among equals.  Writes the winner's V and metrics, every V's
 * metrics into all[V - lo] when all is not NULL, and adds the simulations
 * run to *sims.  If no V finished, best_m->status says why (not SIM_OK).
 * -1 only on allocation failure. */
NOCSIM_MUST_USE
int sim_interval_search(sim_pool *pl, const sim_config *c, uint32_t lo, uint32_t hi,
                        uint32_t *best_v, sim_metrics *best_m, sim_metrics *all, int64_t *sims);

/* The interval search's blocks: V is tried in blocks of this many in
 * ascending order.  Fixed, not the thread count, so that the number of
 * simulations run (and a budget counted in them) does not depend on threads. */
#define SIM_INTERVAL_BLOCK 16

/* As sim_interval_search without `all`, for a configuration of `slices`
 * slices of `flits`-flit packets, stopping early: V is tried in ascending
 * blocks of SIM_INTERVAL_BLOCK, and no V is run once (slices - 1) * V + flits
 * exceeds the shortest duration found, since no run at such a V can be as
 * short (the last slice is released at I + (slices - 1) V with I >= 0, and a
 * packet's flits eject in distinct cycles, the first not before its release).
 * The winner is therefore sim_interval_search's; *sims counts the runs made.
 * A later block's V wins only if strictly shorter than the best so far, so
 * its runs are cut past that best less one (status SIM_CUTOFF): the same
 * winner, fewer cycles.
 * -1 only on allocation failure. */
NOCSIM_MUST_USE
int sim_interval_search_bounded(sim_pool *pl, const sim_config *c, uint32_t lo, uint32_t hi, int slices, int flits,
                                uint32_t *best_v, sim_metrics *best_m, int64_t *sims);

#endif
