/* The link-activity map (paper Fig. 6) as a PNG: one column per directed
 * network link, in sim/activity.h's order (router 0 = (0,0) N E S W, router
 * 1 = (1,0) N E S W, ..., node = y * N + x), one row per cycle from 0 at the
 * top.  A pixel is the colour of the slice whose flit crossed the link in
 * that cycle (eight distinct colours, slice s takes colour s mod 8), dark
 * grey where the link was blocked, white where idle.  Below the map, a legend
 * strip: the slice colours labelled 0..7, then the blocked grey. */
#ifndef NOCSIM_VIZ_ACTIVITY_MAP_H
#define NOCSIM_VIZ_ACTIVITY_MAP_H

#include <stddef.h>
#include <stdint.h>

#include "sim/activity.h"

#define VIZ_ACT_COLOURS 8
#define VIZ_ACT_LEGEND_ROWS 14   /* height of the legend strip, pixels */
#define VIZ_ACT_MAX_SCALE 16

typedef struct {
    int scale;              /* K x K pixels per link-cycle, 1..VIZ_ACT_MAX_SCALE */
    int first, last;        /* links drawn, inclusive; last = -1: to the end */
    int legend;             /* draw the legend strip */
} viz_act_opts;

void viz_act_opts_default(viz_act_opts *o);

/* The RGB colour of a cell value (ACT_IDLE, ACT_BLOCKED, ACT_SLICE0 + s). */
void viz_act_colour(int cell, uint8_t rgb[3]);

/* Draw cycles 0..cycles-1 of a into a new RGB buffer (caller frees) of
 * *w x *h pixels: (last - first + 1) * scale wide (at least the legend's
 * width when drawn), cycles * scale high plus VIZ_ACT_LEGEND_ROWS with the
 * legend.  VIZ_BADINPUT for a link range outside a, a bad scale or an image
 * of more than 2^28 pixels; VIZ_FAIL when memory runs out. */
int viz_act_render(const sim_activity *a, int64_t cycles, int slices, const viz_act_opts *o,
                   uint8_t **rgb, int *w, int *h, char *err, size_t errlen);

/* Render and write to `path` (temporary file, then rename). */
int viz_act_write_png(const sim_activity *a, int64_t cycles, int slices, const viz_act_opts *o,
                      const char *path, char *err, size_t errlen);

#endif
