/* Shared by the Check test executables. */
#ifndef NOCSIM_TESTUTIL_H
#define NOCSIM_TESTUTIL_H

#include <check.h>

#include "sim/sim.h"

/* The default parameters (sim_params_default) with an n x n torus,
 * flits-flit packets and slices slices. */
sim_params testutil_params(int n, int flits, int slices);

/* Run every test of s; the process exit status (0 when all pass). */
int testutil_run(Suite *s);

/* Assert that every metric of a run (all of sim_metrics) equals b's; what
 * names the case, an and bn the two runs, in the failure message. */
void testutil_same_metrics(const sim_metrics *a, const sim_metrics *b, const char *what, const char *an,
                           const char *bn);

#endif
