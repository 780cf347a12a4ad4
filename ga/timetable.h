/* A constructive start for the search: injection timings from a link-level
 * timetable.  Sources are taken in a fixed order (those whose route meets
 * the most loaded link first); each gets the smallest I in [0, imax] for which
 * every slice, released at s V + I and flowing without a stop (its flit f on
 * the k-th link of its route in cycle s V + I + k + f, its ejection after the
 * last), finds every link and ejection port still free in the cycles it
 * needs, and reserves them (when no I is free, the one that meets fewest
 * reserved cycles).  When every source found a free I, no two flits meet and
 * the simulated run is exactly the timetable's.  The interval V and two
 * source orders (load then hops, hops then load) are tried; the best run is
 * kept.  Deterministic: no random numbers. */
#ifndef NOCSIM_GA_TIMETABLE_H
#define NOCSIM_GA_TIMETABLE_H

#include <stdint.h>

#include "sim/sim.h"

/* The best timetable over V = vmin..vmax (both orders) for traffic dest[]
 * under p, simulated with c's schemes and queue orders: c's interval and
 * injection timings are set to it and its metrics written to *m.  *sims
 * (not NULL) is increased by the simulations run.  Returns 0, or a negative
 * fault kind with a message in err: -FAULT_RESOURCE when memory runs out,
 * -FAULT_INPUT when the simulator refuses p. */
NOCSIM_MUST_USE
int ga_timetable(const sim_params *p, const int32_t *dest, uint32_t vmin, uint32_t vmax, int imax, sim_config *c,
                 sim_metrics *m, int64_t *sims, char *err, size_t errlen);

/* The GA's timetable start (ga_params.start): the first lineage's chromosome,
 * made from the best stacking optimum (duration stack_duration), takes the
 * timetable's V and I when that run is shorter (V over [vmin, min(vmax,
 * 3 l_c S + 64)], or the fixed V; I in [0, imax]); every simulation counts
 * in g's evaluations.  Nothing when I does not evolve, or on a rectangular
 * grid.  Returns 0, or a negative fault kind with a message in err (as
 * ga_timetable). */
typedef struct ga ga;
NOCSIM_MUST_USE
int ga_timetable_start(ga *g, int64_t stack_duration, char *err, size_t errlen);

#endif
