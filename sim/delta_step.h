/* A measurement prototype of issue 38's cone stepper, after
 * data/delta_ceiling.md: a child's closed-loop run stepped one cycle at a
 * time on the routers of its cone only (those whose state differs from the
 * parent's run at the same cycle), reading what crosses the cone's edge from
 * a record of the parent's run.  It exists to measure k, the stepper's
 * instructions per active cone router-cycle against the fast path's, and to
 * show the stepping exact; it is not the product: the router it steps is the
 * default one only (dimension order, dateline rule, 3 VCs x 4 flits, no
 * router timing), lean (no decisions recorded, no load bound on the cone),
 * and a router joining the cone copies its state from the parent's run
 * stepped beside it (where the product would take a snapshot and replay).
 * bench/delta_ceiling.c drives it (measure --cone); no run of nocsim
 * reaches it.
 *
 * The parent's record (delta_cone_record), per cycle:
 *  - per link (sender * 4 + port) the flit sent, with the VC it goes into
 *    (the dense record of sim/delta.c has no VC, and a cone router must put
 *    a flit from outside into the right FIFO): 0 none, else
 *    (flit + 1) | VC << 28;
 *  - per router its downstream-full bits at the cycle's end (dfull), which
 *    are what the outside neighbours' FIFO counts say to a cone router.
 * 18 bytes a router a cycle, as the dense form. */
#ifndef NOCSIM_SIM_DELTA_STEP_H
#define NOCSIM_SIM_DELTA_STEP_H

#include <stdint.h>

#include "sim/sim.h"

typedef struct delta_cone delta_cone;

/* One cycle of a job, for projections made by the caller. */
typedef struct {
    int32_t ncone;       /* routers in the cone while the cycle was stepped */
    int32_t cone_active; /* of those, active (a flit in a FIFO or a source due) */
    int32_t active;      /* active routers of the whole network */
    int32_t edge;        /* links into the cone from routers outside it */
    int32_t joins;       /* routers that joined the cone in the cycle (edge and release) */
    int32_t stepped;     /* 1: closedloop.c would step the cycle (not an idle one) */
} delta_cone_cycle;

/* Sums over the jobs given to delta_cone_job. */
typedef struct {
    int64_t jobs, cycles;       /* jobs, cycles stepped (idle ones left out) */
    int64_t cone_rc, cone_active_rc, active_rc, edge_lc;
    int64_t joins_edge, joins_rel;  /* routers that joined by the edge check, by their releases */
    int64_t inexact;            /* jobs whose tail cycles differ from the whole child's */
    int64_t state_diffs;        /* cone router-cycles whose state differs from the whole child's */
    int64_t outside_diffs;      /* router-cycles outside the cone unlike the parent's (the invariant) */
    int64_t unlike_ga;          /* jobs whose whole child stepped other cycles than closedloop_run */
    double sec_cone, sec_full;  /* wall seconds (a side note: the machine is shared): the cone's
                                   cycles (releases, step, edge, joins), the GA's runs of the children */
} delta_cone_stats;

/* For checked parameters p on the default router (16x16 or any torus or
 * mesh, dor, dateline rule, 3 VCs of 4 flits, no timing) and traffic
 * dest[]; NULL when p is another router or memory runs out. */
delta_cone *delta_cone_new(const sim_params *p, const int32_t *dest);
void delta_cone_free(delta_cone *d);

/* The parent's whole run written as the record above (replacing the last
 * parent's).  Returns the parent's duration, -1 when it did not finish. */
int64_t delta_cone_record(delta_cone *d, const sim_config *parent);

/* One GA job: the child run as the GA runs it (closedloop_run, lean,
 * cutoff), then stepped again on its cone, from the record of this parent
 * (delta_cone_record just before), beside the whole child (the check: every
 * cone router's state equal every cycle, every tail cycle equal) and the
 * parent (the source of joining routers' states).  Fills cyc[0 .. cap - 1]
 * with the job's cycles (returns their number, at most cap; cyc may be
 * NULL) and adds to *st.  check 0: no whole child beside it, no check and
 * no counts but the wall times (which the whole child's stepping and the
 * check, touching every router of three networks each cycle, would slow
 * by evicting the cone's lines from the caches). */
int64_t delta_cone_job(delta_cone *d, const sim_config *parent, const sim_config *child, int64_t cutoff, int check,
                       delta_cone_stats *st, delta_cone_cycle *cyc, int64_t cap);

#endif
