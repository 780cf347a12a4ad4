/* Simple stacking (paper Sect. 4.1): every port on one VC-selection scheme,
 * every node injecting at once (I = 0), the inter-slice interval swept.  It
 * is both `nocsim stack` and the GA's baseline and seed, so both call this. */
#ifndef NOCSIM_SIM_STACKING_H
#define NOCSIM_SIM_STACKING_H

#include <stdint.h>

#include "sim/pool.h"
#include "util/fault.h"

/* The sweep's default range, the paper's (`stack --interval 8:200`, `ga
 * --stack-vmax`); its start is raised to the packet length when that is longer. */
#define SIM_STACK_VMIN_DEFAULT 8
#define SIM_STACK_VMAX_DEFAULT 200

/* For each schemes[s] (s < nschemes), runs the simple-stacking configuration
 * of a network of `nodes` routers with `vcs` VCs at V = lo..hi on the pool
 * (hi < lo means lo alone).  Writes the shortest duration of scheme s to
 * best_d[s] (-1 if no V finished) and its V to best_v[s] (the smallest V
 * among equals; lo if none finished); with durations not NULL, the duration
 * at every V to durations[s * (hi - lo + 1) + (V - lo)] (-1 where the run did
 * not finish).  Adds the simulations run to *sims.  Returns 0, or -1 when
 * memory runs out (the outputs are then incomplete). */
NOCSIM_MUST_USE
int sim_stacking_sweep(sim_pool *pl, int nodes, int vcs, const int *schemes, int nschemes, uint32_t lo,
                       uint32_t hi, uint32_t *best_v, int64_t *best_d, int64_t *durations, int64_t *sims);

/* sim_stacking_sweep's best_v and best_d (same values), for configurations
 * of `slices` slices of `flits`-flit packets, with the intervals that cannot
 * win skipped (sim_interval_search_bounded): what the GA needs, in fewer
 * simulations.  Adds the simulations run to *sims.  Returns 0, or -1 when
 * memory runs out. */
NOCSIM_MUST_USE
int sim_stacking_optima(sim_pool *pl, int nodes, int vcs, int slices, int flits, const int *schemes, int nschemes,
                        uint32_t lo, uint32_t hi, uint32_t *best_v, int64_t *best_d, int64_t *sims);

/* The index of the shortest of best_d[0..n-1], skipping -1 entries; the first
 * among equals, 0 when none finished. */
int sim_stacking_best(const int64_t *best_d, int n);

#endif
