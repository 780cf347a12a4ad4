/* Delta simulation (issue 38): a GA child run as its difference from its
 * parent.  A parent's run is kept as a record (delta_rec): per cycle what
 * every link carried and every router's downstream-full bits, snapshots of
 * the whole network every few cycles, each packet's tail cycle, and the
 * cycle each of its decisions (sim/decisions.h) was made.  A child is then
 * stepped only on its cone, the routers whose state may differ from the
 * parent's at the same cycle; everything outside the cone is the parent's,
 * read from the record.  An accepted child's cone patches the record and the
 * parent's decisions in place (delta_accept), so a lineage records in full
 * once.
 *
 * Results are exactly those of sim_run_lean (same status, metrics, tail
 * cycles, and after delta_accept the same decisions as the child's own
 * recording would hold): the GA's results do not depend on whether delta
 * runs are on.  Checked against full runs by tests/test_delta.c and the
 * fuzz target fuzz_delta; the reasoning that makes the cone exact is in
 * sim/delta_run.c's opening.
 *
 * Conventions as in sim/sim.h: a delta_engine is one thread's (like a sim);
 * a delta_rec is written by one thread and then read by any number at once
 * (delta_run_child only reads it); delta_accept runs when no child of the
 * record is running. */
#ifndef NOCSIM_SIM_DELTA_RUN_H
#define NOCSIM_SIM_DELTA_RUN_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "sim/decisions.h"
#include "sim/sim.h"
#include "util/fault.h"

typedef struct delta_engine delta_engine; /* one thread's stepping state */
typedef struct delta_rec delta_rec;       /* a parent's run, as its children read it */
typedef struct delta_patch delta_patch;   /* what a child's cone run changed */

/* Can delta runs serve networks of (checked) params p?  The default router
 * only (dimension order, dateline rule, 3 VCs of 4 flits, no router timing,
 * on the fast engine); for any other, the caller runs in full. */
int delta_supports(const sim_params *p);

/* For checked params p that delta_supports, traffic dest[src].  NULL when
 * memory runs out. */
NOCSIM_MUST_USE
delta_engine *delta_engine_new(const sim_params *p, const int32_t *dest);
void delta_engine_free(delta_engine *e); /* NULL is fine */
/* From now on e's child runs stop within a cycle once *stop holds 1 (their
 * results then mean nothing: a withdrawn speculative job's); NULL: never. */
void delta_engine_stop_on(delta_engine *e, const atomic_int *stop);

/* An empty record (invalid) and an empty patch, sized for params p.  NULL
 * when memory runs out. */
NOCSIM_MUST_USE
delta_rec *delta_rec_new(const sim_params *p);
void delta_rec_free(delta_rec *r); /* NULL is fine */
NOCSIM_MUST_USE
delta_patch *delta_patch_new(const sim_params *p);
void delta_patch_free(delta_patch *pt); /* NULL is fine */

/* Does r hold a finished parent's run (delta_run_parent ended SIM_OK, or a
 * delta_accept patched it since)?  A child of an invalid record runs in
 * full. */
int delta_rec_valid(const delta_rec *r);
void delta_rec_invalidate(delta_rec *r);
/* Can r still be written?  0 once a parent's run would have passed the
 * record's memory budget (sim/delta_internal.h, DELTA_REC_BUDGET: a large
 * network's long runs), after which its parents are not recorded again
 * and their children run in full. */
int delta_rec_recordable(const delta_rec *r);
/* Bytes r holds, for the memory figures. */
size_t delta_rec_bytes(const delta_rec *r);

/* The parent run of c: exactly sim_run_lean(s, c, INT64_MAX, d, m) on the
 * fast engine, tails (when not NULL and the run ends SIM_OK) as
 * sim_tail_cycles; r becomes c's record (valid when the run ends SIM_OK and
 * d's decisions are known).  Returns 1, or 0 when e cannot run c in full
 * exactly (a deadlock or time-out, whose metrics the reference gives): then
 * nothing but r (invalid) is written and the caller runs c as before. */
int delta_run_parent(delta_engine *e, const sim_config *c, sim_decisions *d, delta_rec *r, sim_metrics *m,
                     int64_t *tails);

/* A child c of the parent pc whose valid record is r (and pd the parent's
 * decisions that r was written or patched with), cutoff as sim_run_cutoff:
 * its status, metrics and (when tails is not NULL and the run ends SIM_OK)
 * tail cycles exactly as sim_run_lean(s, c, cutoff, d, m) would give them,
 * but that a run cut (SIM_CUTOFF) on its cone leaves flits_injected,
 * flits_ejected and max_link_flits 0 (a search reads only a cut run's
 * status and duration).  Returns 1 when it ran c: on its cone
 * (delta_patch_on_cone(pt): pt holds what delta_accept needs, d is left
 * alone), or on its cone and then, once the cone passed half the network,
 * on the whole network from that cycle on (d, when not NULL, holds c's
 * decisions as a full recording's).  Returns 0 when it did not run c (the
 * cutoff is not the parent's duration, or a watchdog or time-out could fire
 * before it): the caller runs c in full as before, decisions included. */
int delta_run_child(delta_engine *e, const sim_config *pc, const delta_rec *r, const sim_decisions *pd,
                    const sim_config *c, int64_t cutoff, sim_decisions *d, delta_patch *pt, sim_metrics *m,
                    int64_t *tails);
/* Did the run that left pt stay on its cone? */
int delta_patch_on_cone(const delta_patch *pt);

/* The child whose run left pt takes its parent's place: when pt holds a cone
 * run that ended SIM_OK, r and the parent's decisions pd (the record's
 * decisions, r's parent's) become the child's, and 1 is returned.
 * Otherwise 0: r is made invalid and pd left alone (the caller takes the
 * child's own decisions from its full run). */
int delta_accept(delta_rec *r, sim_decisions *pd, const delta_patch *pt);

#endif
