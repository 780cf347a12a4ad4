/* The link-activity map (paper Fig. 6) as a PNG: one column per directed
 * network link, one row per cycle from 0 at the top.  A pixel is the colour
 * of the slice whose flit crossed the link in that cycle (eight distinct
 * colours, slice s takes colour s mod 8), dark grey where the link was
 * blocked, white where idle.
 *
 * Framed (the default, opts.legend = 1), the picture reads on its own: a
 * title (the run's parameters, opts.title), the cycle axis on the left with
 * tick labels (time runs down), the links grouped by direction (N, E, S, W)
 * and, within a direction, by router row y (x = 0..N-1 within a row) with
 * the rows and directions labelled under the map, and a legend strip: the
 * slice colours labelled 0..7, then the blocked grey.  Bare (legend = 0,
 * --activity-no-legend): only the map, its columns in sim/activity.h's link
 * order (router 0 = (0,0) N E S W, router 1 = (1,0) N E S W, ..., node =
 * y * N + x). */
#ifndef NOCSIM_VIZ_ACTIVITY_MAP_H
#define NOCSIM_VIZ_ACTIVITY_MAP_H

#include <stddef.h>
#include <stdint.h>

#include "sim/activity.h"
#include "util/fault.h"

#define VIZ_ACT_COLOURS 8
#define VIZ_ACT_LEGEND_ROWS 14   /* height of the legend strip, pixels */
#define VIZ_ACT_MAX_SCALE 16

typedef struct {
    int scale;              /* K x K pixels per link-cycle, 1..VIZ_ACT_MAX_SCALE */
    int first, last;        /* links drawn, inclusive; last = -1: to the end */
    int legend;             /* framed: title, axes and legend; 0: the bare map */
    const char *title;      /* the run's parameters, in the title (framed); NULL: none */
} viz_act_opts;

/* Where things are in the picture (pixels). */
typedef struct {
    int w, h;               /* the picture */
    int map_x, map_y;       /* the map's top-left pixel */
    int cols;               /* links drawn, one column (scale pixels) each */
    int tick_cycles;        /* cycles between labelled ticks (framed) */
} viz_act_layout;

void viz_act_opts_default(viz_act_opts *o);

/* The RGB colour of a cell value (ACT_IDLE, ACT_BLOCKED, ACT_SLICE0 + s). */
void viz_act_colour(int cell, uint8_t rgb[3]);

/* The layout of the picture of cycles 0..cycles-1: VIZ_OK, or VIZ_BADINPUT
 * (a link range outside a, a bad scale, more than 2^28 pixels) with err. */
NOCSIM_MUST_USE
int viz_act_geometry(const sim_activity *a, int64_t cycles, int slices, const viz_act_opts *o, viz_act_layout *g,
                     char *err, size_t errlen);
/* The link shown in column col (0..cols-1): framed, the links first..last
 * grouped by direction, then row, then x; bare, first + col. */
int viz_act_column_link(const sim_activity *a, const viz_act_opts *o, int col);

/* Draw cycles 0..cycles-1 of a into a new RGB buffer (caller frees) of
 * *w x *h pixels (bare: (last - first + 1) * scale wide, cycles * scale
 * high; framed: viz_act_geometry's).  VIZ_BADINPUT for a link range outside a, a bad scale or an image
 * of more than 2^28 pixels; VIZ_FAIL when memory runs out. */
NOCSIM_MUST_USE
int viz_act_render(const sim_activity *a, int64_t cycles, int slices, const viz_act_opts *o,
                   uint8_t **rgb, int *w, int *h, char *err, size_t errlen);

/* Render and write to `path` (temporary file, then rename). */
NOCSIM_MUST_USE
int viz_act_write_png(const sim_activity *a, int64_t cycles, int slices, const viz_act_opts *o,
                      const char *path, char *err, size_t errlen);

#endif
