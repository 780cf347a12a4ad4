/* The link load of an open-loop point (issue 37 section 4) as a PNG: the
 * grid of routers seen from above, x to the right and y up (N at the top),
 * each directed link a bar of its own between its two routers (E above W
 * in a row, N left of S in a column; a torus's wrap links as stubs off the
 * edge they leave), coloured by its load in the window from light grey
 * (idle) through yellow and orange to dark red (the busiest link); the
 * busiest is framed in black and named under the title, and a colour bar
 * gives the scale in flits/cycle.  The numbers are the report's CSV
 * (`nocsim load --links`). */
#ifndef NOCSIM_VIZ_LINKMAP_H
#define NOCSIM_VIZ_LINKMAP_H

#include <stddef.h>
#include <stdint.h>

#include "sim/openloop.h"
#include "util/fault.h"

/* Largest grid side drawn (the CSV has any grid's links). */
#define VIZ_LINKS_MAX_SIDE 64

/* The colour of a link at load / max load t in [0, 1] (0: idle grey). */
void viz_links_colour(double t, uint8_t rgb[3]);

/* The picture of r's links (r->link_flits set) with title (may be NULL)
 * into a new RGB buffer (caller frees) of *w x *h pixels.  VIZ_OK;
 * VIZ_BADINPUT when r has no link counts or its grid is wider or higher
 * than VIZ_LINKS_MAX_SIDE; VIZ_FAIL out of memory. */
NOCSIM_MUST_USE
int viz_links_render(const ol_report *r, const char *title, uint8_t **rgb, int *w, int *h, char *err, size_t errlen);
/* Render and write to path (temporary file, then rename). */
NOCSIM_MUST_USE
int viz_links_write_png(const ol_report *r, const char *title, const char *path, char *err, size_t errlen);

#endif
