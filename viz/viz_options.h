/* The limits and defaults of a figure's options (nocsim plot's rows,
 * cli/cmd_plot.c, read them): each written once, here. */
#ifndef NOCSIM_VIZ_VIZ_OPTIONS_H
#define NOCSIM_VIZ_VIZ_OPTIONS_H

/* A picture's sides in pixels, and its size when none is given. */
#define VIZ_SIDE_MIN 100
#define VIZ_SIDE_MAX 8000
#define VIZ_DEFAULT_WIDTH 800
#define VIZ_DEFAULT_HEIGHT 500
/* The top of a y axis that may be asked for. */
#define VIZ_YMAX_MIN 1
#define VIZ_YMAX_MAX 1e12
/* The slice counts a run filter takes (plot runs --slices). */
#define VIZ_FILTER_SLICES_MAX 1048576 /* 2^20 */

#endif
