/* The open-loop figure of `nocsim plot load`: mean packet latency against
 * measured offered load, one curve per recorded run, drawn for a paper.
 *
 * - x is the offered load measured per sending node (flits generated per
 *   cycle per node whose pattern sends anything, in the measurement window),
 *   not the rate asked; y is the mean packet latency with its 95 % confidence
 *   interval as an error bar, each point marked (one shape per curve).
 * - A curve ends at its first saturated point: past it the latency says only
 *   "unbounded".
 * - Each curve's channel-load bound is a dotted vertical line in its colour,
 *   and its saturation point (when `load --saturation` found one) a large
 *   open circle at (accepted load, latency) of that point: at a stable point
 *   accepted equals offered within the acceptance tolerance.
 * - y runs from 0 to VIZ_LOAD_YFACTOR times the highest latency of any
 *   stable (unsaturated) point, rounded up to a multiple of 10, so the first
 *   saturated point leaves the frame instead of squeezing the curves flat
 *   (gnuplot's choice when no point is stable); x from 0 to 5 % past the
 *   largest offered load or bound.
 * - The key names what differs between the curves (the pattern, the network,
 *   the routing, VCs, buffers, the arbiter, the packet mix, ...); what they
 *   share goes in the title.  Curves that differ in nothing are named by their run. */
#ifndef NOCSIM_VIZ_LOADFIG_H
#define NOCSIM_VIZ_LOADFIG_H

#include <stddef.h>
#include <stdint.h>

#include "util/fault.h"
#include "viz/figure.h"

#define VIZ_LOAD_YFACTOR 2.0
#define VIZ_LOAD_YFACTOR_TEXT "2"

typedef struct {
    double offered, latency, ci95;   /* per sending node; cycles; half-width */
    int saturated;                   /* 0 stable, else the reasons' bits */
} viz_load_point;

/* What a run keeps (its params; NULL strings and negative numbers are
 * "not recorded", shown as "?"). */
typedef struct {
    int64_t run;
    const char *traffic, *hotspot, *topology, *vc_rule, *arb, *tie, *packet, *process, *self;
    const char *routing, *selection;  /* NULL: not kept (runs before load stored them): nothing said */
    int32_t delays[4];                /* router timing: router, switch, link, credit (0 0 0 0: the model's) */
    const char *vc_alloc;             /* "rotate", or NULL: the lowest free VC */
    int32_t width, height, vcs, buffer;
    int per_flow;                     /* 0 or 1; -1 unknown */
    int64_t batch, window;            /* -1 unknown */
    uint64_t seed;
    double bound;                     /* channel-load bound per sending node; NaN: none */
    double sat_accepted, sat_latency; /* the saturation point; NaN: none found */
    const viz_load_point *pts;        /* by rising rate */
    int npts;
} viz_load_curve;

/* The aspects a curve is told apart by, in the order the key and the title
 * name them: pattern, hotspot, network, routing, VC rule, VCs, buffers,
 * arbiter, packet mix, injection; then, only when they differ, the adaptive
 * selection rule, ties, self-traffic, saturation rule, window, router
 * timing (named whenever it is not the model's) and seed. */
#define VIZ_LOAD_NASPECTS 17

/* The text of aspect a of curve c ("" when there is nothing to say, as for
 * no hotspot) into buf; 1 if a shared value of it belongs in the title. */
int viz_load_aspect(const viz_load_curve *c, int a, char *buf, size_t len);

/* The title (after `prefix`) and each curve's key text: aspects equal on
 * every curve in the title, those that differ in the key, joined by ", ".
 * keys[k] has keylen bytes. */
void viz_load_names(const viz_load_curve *c, int n, const char *prefix, char *title, size_t titlelen, char **keys,
                    size_t keylen);

/* The upper end of y by the rule above (NaN when no point is stable). */
double viz_load_ymax(const viz_load_curve *c, int n);

/* The figure of n >= 1 curves (a new figure in *out).  VIZ_BADINPUT naming
 * the run when a curve has no points; VIZ_FAIL when out of memory. */
NOCSIM_MUST_USE
int viz_load_figure(const viz_load_curve *c, int n, viz_figure **out, char *err, size_t errlen);

#endif
