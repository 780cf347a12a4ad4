/* Interval search: simulate one configuration at every inter-slice interval
 * of a range and keep the shortest.  Simple stacking, slice extrapolation,
 * post-stacking and replays all reduce to it. */
#ifndef NOCSIM_SIM_INTERVAL_H
#define NOCSIM_SIM_INTERVAL_H

#include <stdint.h>

#include "sim/pool.h"

/* Largest inter-slice interval a command accepts for one run, and the largest
 * upper end of a searched range (each V of a range is one simulation). */
#define SIM_INTERVAL_MAX 1000000
#define SIM_SWEEP_MAX 100000

/* Runs c at V = lo..hi on the pool.  The shortest duration wins, the
 * smallest V among equals.  Writes the winner's V and metrics, every V's
 * metrics into all[V - lo] when all is not NULL, and adds the simulations
 * run to *sims.  If no V finished, best_m->status says why (not SIM_OK).
 * -1 only on allocation failure. */
int sim_interval_search(sim_pool *pl, const sim_config *c, uint32_t lo, uint32_t hi,
                        uint32_t *best_v, sim_metrics *best_m, sim_metrics *all, int64_t *sims);

#endif
