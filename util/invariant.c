/* The failure path of NOCSIM_ASSERT (see invariant.h). */
#include "util/invariant.h"

#include <stdio.h>
#include <stdlib.h>

void nocsim_assert_fail(const char *name, const char *cond, const char *file, int line)
{
    fprintf(stderr, "nocsim: invariant broken: %s (%s) at %s:%d\n", name, cond, file, line);
    fflush(stderr);
    abort();
}

int nocsim_asserts_on(void) { return NOCSIM_ASSERTS; }
