/* The decisions of one run, kept so that a search can tell, without
 * simulating, that a changed configuration runs exactly the same.
 *
 * A run is a function of the configuration only through three kinds of
 * decision: which direction each queue selection grants, which VC each VC
 * selection sends, and the cycle each packet's header enters its source's P
 * FIFO.  If a second configuration makes every one of them the same, every
 * FIFO holds the same flits in every cycle, so the two runs are identical:
 * same metrics, tail cycles and link statistics.  The record holds what
 * each decision depended on:
 *  - queue selection: every grant in order (its output VC list, the
 *    requesting directions, the direction granted), so that a changed
 *    evaluation order can be replayed with its round-robin updates;
 *  - VC selection: per output port, the pairs (VC granted last, ready VCs)
 *    met with a choice to make, which with the scheme decide the pick (V <= 4
 *    only);
 *  - injection: per packet, the cycle its header entered and the first cycle
 *    the source could have injected it had it been released (its previous
 *    packet was in and the P FIFO had room).  The header enters at
 *    max(release, that cycle), so a new release repeats the run iff that
 *    maximum is unchanged ([R-INJ-1]; no interlock in the fast engine).
 * Only the fast engine records (sim_run_recording); the reference engine
 * marks the record unknown.  tests/test_decisions.c checks every "same"
 * verdict against a simulation. */
#ifndef NOCSIM_SIM_DECISIONS_H
#define NOCSIM_SIM_DECISIONS_H

#include "sim/sim.h"
#include "util/fault.h"

typedef struct sim_decisions sim_decisions;

/* An empty record (unknown) sized for networks of params p (p->n, p->vcs,
 * p->slices and p->q_update are read).  Returns it for sim_decisions_free,
 * or NULL when memory runs out. */
NOCSIM_MUST_USE
sim_decisions *sim_decisions_new(const sim_params *p);
/* Free d; NULL is fine. */
void sim_decisions_free(sim_decisions *d);

/* Does d hold a finished run's decisions (a sim_run_recording that ended
 * SIM_OK on the fast engine, with nothing too large to keep)? */
int sim_decisions_known(const sim_decisions *d);
/* Forget what d holds (unknown). */
void sim_decisions_clear(sim_decisions *d);

/* Like sim_run_cutoff; when d is not NULL, d holds this run's decisions if
 * the fast engine ran it to SIM_OK and is unknown otherwise. */
sim_status sim_run_recording(sim *s, const sim_config *c, int64_t cutoff, sim_decisions *d, sim_metrics *m);
/* sim_run_recording for a search whose score needs none of te, lb, ir, or_,
 * ib and ob: the fast engine leaves them 0 (and the links' first and last
 * cycles -1), which saves a third of a run's instructions; every other
 * metric, the tail cycles and the links' flits are exact. */
sim_status sim_run_lean(sim *s, const sim_config *c, int64_t cutoff, sim_decisions *d, sim_metrics *m);

/* 1 if running `child` is certain to repeat the run of `parent` that d
 * recorded, decision for decision (so its metrics, tail cycles and link
 * statistics are the parent run's); 0 if d is unknown or a changed gene may
 * change a decision.  parent and child must match d's network.  Reads only;
 * several threads may ask about one record at once. */
int sim_decisions_repeat(const sim_decisions *d, const sim_config *parent, const sim_config *child);

#endif
