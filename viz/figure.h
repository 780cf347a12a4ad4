/* A figure of x-y series, drawn by gnuplot: the curves of `nocsim plot`
 * (duration against interval per scheme, best and average per generation,
 * best against average over runs, open-loop latency with error bars and
 * reference lines).  The figure owns copies of everything added to it;
 * viz_fig_render writes its data and a gnuplot script and runs gnuplot, or
 * leaves both in a folder for the user to edit. */
#ifndef NOCSIM_VIZ_FIGURE_H
#define NOCSIM_VIZ_FIGURE_H

#include <stddef.h>

#include "util/fault.h"

/* VIZ_LINE solid, VIZ_DASHED dashed, VIZ_POINTS dots without a line;
 * VIZ_ERRORLINES a solid line with a marker (one shape per colour) and the
 * y error bar of each point (viz_fig_point_err); VIZ_MARK a large open
 * circle at each point, without a key entry (a saturation point); VIZ_DOTTED
 * a dotted line (used only by viz_fig_key). */
typedef enum { VIZ_LINE = 0, VIZ_DASHED, VIZ_POINTS, VIZ_ERRORLINES, VIZ_MARK, VIZ_DOTTED } viz_style;

typedef struct viz_figure viz_figure;

/* An empty figure with a title and axis labels (copied; NULL = none).  NULL
 * when out of memory. */
NOCSIM_MUST_USE
viz_figure *viz_fig_new(const char *title, const char *xlabel, const char *ylabel);
void viz_fig_free(viz_figure *f);   /* NULL is fine */
/* Replace the title (copied); -1 when out of memory (title unchanged). */
NOCSIM_MUST_USE
int viz_fig_set_title(viz_figure *f, const char *title);
/* Add an empty series; returns its index, or -1 when out of memory.
 * `colour_of` >= 0 draws it in the colour of that earlier series (a run's
 * average dashed beside its best), -1 gives it the next colour. */
NOCSIM_MUST_USE
int viz_fig_series(viz_figure *f, const char *title, viz_style style, int colour_of);
/* Append a point to series k; -1 when out of memory. */
NOCSIM_MUST_USE
int viz_fig_point(viz_figure *f, int k, double x, double y);
/* Append a point with the half-width of its y error bar (>= 0) to series k,
 * drawn as a bar when the series is VIZ_ERRORLINES; -1 when out of memory. */
NOCSIM_MUST_USE
int viz_fig_point_err(viz_figure *f, int k, double x, double y, double yerr);
/* Draw the line y = x under the series (paper Fig. 5). */
void viz_fig_diagonal(viz_figure *f);
/* A dotted vertical line at x across the plot, in the colour of series
 * colour_of (-1: black), without a key entry (viz_fig_key explains it);
 * -1 when out of memory. */
NOCSIM_MUST_USE
int viz_fig_vline(viz_figure *f, double x, int colour_of);
/* A dotted horizontal line at y across the plot with a key entry `title`
 * (copied), in the colour of series colour_of (-1: black); -1 when out of
 * memory. */
NOCSIM_MUST_USE
int viz_fig_hline(viz_figure *f, double y, const char *title, int colour_of);
/* A key entry (black, in `style`) with nothing drawn: what the dotted lines or
 * the marks mean.  -1 when out of memory. */
NOCSIM_MUST_USE
int viz_fig_key(viz_figure *f, const char *title, viz_style style);
/* The range of an axis; NaN at either end lets gnuplot choose it.  On a log
 * axis an end <= 0 is left to gnuplot too. */
void viz_fig_xrange(viz_figure *f, double lo, double hi);
void viz_fig_yrange(viz_figure *f, double lo, double hi);
/* The upper end of the y range alone, and its value so far (NaN: gnuplot's
 * choice).  A top at or below every point would leave nothing to draw
 * (gnuplot even fails on it): VIZ_BADINPUT, naming the lowest point, and the
 * range is unchanged. */
NOCSIM_MUST_USE
int viz_fig_set_ymax(viz_figure *f, double hi, char *err, size_t errlen);
double viz_fig_ymax(const viz_figure *f);
/* Logarithmic x and/or y axis (the data must then be positive there). */
void viz_fig_log(viz_figure *f, int logx, int logy);
int viz_fig_nseries(const viz_figure *f);
int viz_fig_npoints(const viz_figure *f, int k);

/* Check that the figure can be drawn: at least one series, every plain line
 * (VIZ_LINE, VIZ_DASHED) at least two points, the figure at least two
 * points (a VIZ_ERRORLINES point with its bar stands alone: an open-loop
 * run of one rate).  VIZ_BADINPUT naming the first series that fails. */
NOCSIM_MUST_USE
int viz_fig_check(const viz_figure *f, char *err, size_t errlen);

/* Write the data (FIGURE.dat) and the script (plot.gp) into `dir`, an
 * existing folder, for a w x h PNG at `out` (NULL: "plot.png" in dir). */
NOCSIM_MUST_USE
int viz_fig_write_script(const viz_figure *f, const char *dir, const char *out, int w, int h,
                         char *err, size_t errlen);

/* Draw the figure as a w x h PNG at `out`: data and script in a temporary
 * folder, gnuplot run on it, its PNG renamed into place, the folder removed.
 * VIZ_BADINPUT: viz_fig_check fails or out cannot be created; VIZ_FAIL:
 * gnuplot missing (the message names the Debian package gnuplot-nox) or
 * failing, or a write failed.  Never leaves a partial `out`: a SIGINT or
 * SIGTERM that arrives meanwhile takes effect once the files are removed. */
NOCSIM_MUST_USE
int viz_fig_render(const viz_figure *f, const char *out, int w, int h, char *err, size_t errlen);

#endif
