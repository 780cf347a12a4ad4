/* Shared by the Check test executables. */
#ifndef NOCSIM_TESTUTIL_H
#define NOCSIM_TESTUTIL_H

#include <check.h>

#include "sim/sim.h"

/* The default parameters (sim_params_default) with an n x n torus,
 * flits-flit packets and slices slices. */
sim_params testutil_params(int n, int flits, int slices);

/* Temporary files go to $TMPDIR (default /tmp), so that a caller (such as
 * scripts/mutants.sh) can collect what failing tests leave behind.  Paths
 * have at most TESTUTIL_PATH_MAX bytes. */
#define TESTUTIL_PATH_MAX 256
/* Create an empty file "$TMPDIR/nocsim-STEM-XXXXXX" and put its name into
 * path (TESTUTIL_PATH_MAX bytes); the caller removes it. */
void testutil_temp_file(char *path, const char *stem);
/* A name for a new database file as testutil_temp_file's, with no file of
 * that name. */
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
