/* The fast cycle engine behind sim_run (sim.c dispatches to it).
 *
 * It steps the same cellular automaton as the reference loop in sim.c and
 * gives bit-identical sim_metrics and link statistics (tests/test_fast.c is
 * the proof), but it only touches what is busy: routers with a non-empty
 * FIFO, output VCs with a flit to send, nodes with a packet due.
 *
 * It supports every model choice except SLOT_SAME_CYCLE, INPUT_PER_PORT, slice
 * re-initialisation and interlocking (meshes and both VC rules included)
 * (their fixed-point and per-port bookkeeping stay in the reference), and
 * max_cycles below 2^31 (link times are kept in 32 bits), and nodes x S
 * (S rounded up to a power of two) at most 2^24 (packet numbers in flits). */
#ifndef NOCSIM_FAST_H
#define NOCSIM_FAST_H

#include "sim/sim.h"
#include "util/fault.h"

typedef struct fast_sim fast_sim;

/* Can the fast engine run a network with these parameters? */
int fast_supports(const sim_params *p);

/* Engine for a checked parameter set and traffic (dest[src], copied).
 * NULL when out of memory. */
NOCSIM_MUST_USE
fast_sim *fast_new(const sim_params *p, const int32_t *dest);
void fast_free(fast_sim *f);

/* One run; cutoff as sim_run_cutoff (INT64_MAX for none).  At SIM_DEADLOCK
 * and SIM_TIMEOUT, status, stop_cycle, cycles, duration, packets,
 * idle_nodes and the flits injected and ejected are exact, the rest is not
 * (blocked cycles and link statistics are counted lazily); sim_run re-runs
 * the reference for them, so that its state (sim_report_blocked) describes
 * the stop. */
sim_status fast_run(fast_sim *f, const sim_config *c, int64_t cutoff, sim_metrics *m);
/* fast_run that also records the run's decisions into rec (sized for this
 * network; see sim/decisions.h): known after SIM_OK, unknown otherwise. */
typedef struct sim_decisions sim_decisions;
sim_status fast_run_recording(fast_sim *f, const sim_config *c, int64_t cutoff, sim_decisions *rec, sim_metrics *m);

/* Link statistics of the last run, as sim_link_stats. */
void fast_link_stats(const fast_sim *f, int k, int64_t *first, int64_t *last, int64_t *flits);

/* Tail ejection cycles of the last run, as sim_tail_cycles. */
void fast_tail_cycles(const fast_sim *f, int64_t *out);

/* Bytes the engine allocated, for the benchmark's memory figures. */
size_t fast_bytes(const fast_sim *f);

#endif
