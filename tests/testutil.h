/* Shared by the Check test executables. */
#ifndef NOCSIM_TESTUTIL_H
#define NOCSIM_TESTUTIL_H

#include <check.h>

/* Run every test of s; the process exit status (0 when all pass). */
int testutil_run(Suite *s);

#endif
