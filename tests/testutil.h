/* Shared by the Check test executables. */
#ifndef NOCSIM_TESTUTIL_H
#define NOCSIM_TESTUTIL_H

#include <check.h>

#include "sim/sim.h"

/* The default parameters (sim_params_default) with an n x n torus,
 * flits-flit packets and slices slices. */
sim_params testutil_params(int n, int flits, int slices);

/* A name for a new database file in /tmp (no file of that name exists),
 * "/tmp/nocsim-STEM-XXXXXX", into path (64 bytes: stem at most 30). */
void testutil_temp_db(char *path, const char *stem);
/* Remove database file path and its -wal and -shm side files. */
void testutil_remove_db(const char *path);

/* Random genes into c from the splitmix64 stream *r: schemes, queue orders
 * (random permutations), injection timings in [0, imax] and the interval in
 * [flits, flits + vspan]. */
void testutil_random_genes(sim_config *c, uint64_t *r, int flits, int imax, int vspan);

/* Run every test of s; the process exit status (0 when all pass). */
int testutil_run(Suite *s);

/* Assert that every metric of a run (all of sim_metrics) equals b's; what
 * names the case, an and bn the two runs, in the failure message. */
void testutil_same_metrics(const sim_metrics *a, const sim_metrics *b, const char *what, const char *an,
                           const char *bn);

#endif
