/* Reading a simple-stacking sweep (the CSV of `nocsim stack --format csv`)
 * into a figure of duration against interval, one curve per scheme (paper
 * Fig. 3). */
#ifndef NOCSIM_VIZ_SWEEP_H
#define NOCSIM_VIZ_SWEEP_H

#include <stddef.h>
#include <stdio.h>

#include "util/fault.h"
#include "viz/figure.h"

/* The header line the CSV must start with. */
#define VIZ_SWEEP_HEADER "traffic,size,slices,scheme,interval,duration"

/* Read the CSV from in (`name` is used in messages).  Rows with a negative
 * duration (no finish) are left out of the curves.  On success *out is a new
 * figure (caller frees).  VIZ_BADINPUT with "NAME:LINE: what" for a wrong
 * header, a malformed row, or rows of more than one traffic/size/slices;
 * VIZ_FAIL when out of memory or reading fails. */
NOCSIM_MUST_USE
int viz_sweep_read(FILE *in, const char *name, viz_figure **out, char *err, size_t errlen);

#endif
