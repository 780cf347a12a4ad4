/* Link activity of one run: for every directed network link and every cycle,
 * which slice's flit crossed it, or whether it was blocked (the run's `lb`
 * definition: it stayed idle because every ready VC's downstream FIFO was
 * full), or idle.  The raw material of the link-activity map (paper Fig. 6).
 *
 * Links are numbered as sim_link_stats numbers them: link k = node * 4 + port,
 * port N, E, S, W (0..3), node = y * N + x.  A recorder is filled by
 * sim_run_traced (the reference engine) and read afterwards; it owns its
 * memory (sim_activity_new / sim_activity_free). */
#ifndef NOCSIM_SIM_ACTIVITY_H
#define NOCSIM_SIM_ACTIVITY_H

#include <stdint.h>

#include "util/fault.h"

/* Cell values: idle, blocked, or ACT_SLICE0 + the flit's slice. */
enum { ACT_IDLE = 0, ACT_BLOCKED = 1, ACT_SLICE0 = 2 };

typedef struct sim_activity sim_activity;

/* A recorder for `links` links (> 0), empty.  NULL when out of memory. */
NOCSIM_MUST_USE
sim_activity *sim_activity_new(int links);
void sim_activity_free(sim_activity *a);          /* NULL is fine */
/* Forget everything recorded; the links stay. */
void sim_activity_reset(sim_activity *a);

/* Record that a flit of `slice` crossed `link` in cycle t, or that the link
 * was blocked in cycle t.  Rows grow as needed; cycles never recorded read as
 * idle.  On allocation failure the recorder remembers it (sim_activity_ok)
 * and ignores further records. */
void sim_activity_flit(sim_activity *a, int64_t t, int link, int slice);
void sim_activity_blocked(sim_activity *a, int64_t t, int link);

/* 1 unless a record was lost to an allocation failure. */
int sim_activity_ok(const sim_activity *a);
int sim_activity_links(const sim_activity *a);
/* One more than the last cycle recorded (0 when nothing was). */
int64_t sim_activity_cycles(const sim_activity *a);
/* The cell of (cycle t, link); ACT_IDLE outside the recorded rows. */
int sim_activity_at(const sim_activity *a, int64_t t, int link);

#endif
