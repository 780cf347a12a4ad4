/* Destinations of open-loop synthetic traffic on a w x h grid (node =
 * y * w + x): each generated packet draws its destination from its source's
 * pattern.
 *
 * Patterns (synth_new's spec):
 *   uniform            any other node, equally likely (every node, itself
 *                      included, when self is SYNTH_SELF_SEND: BookSim2's)
 *   bcmp brev brot shfl torn trns, randperm, file:PATH
 *                      the collective patterns of traffic.h, one fixed
 *                      destination per source
 *   bitcomp bitrev shuffle transpose
 *                      BookSim2's names for bcmp brev shfl trns
 *   tornado            BookSim2's tornado: (x + ceil(w/2) - 1, y + ceil(h/2) - 1)
 *                      mod (w, h), which differs from the paper's torn
 *   neighbor           (x + 1, y + 1) mod (w, h)
 *   matrix:PATH        a traffic matrix (traffic/matrix.h): per source its
 *                      destinations with their rates, taken as given and
 *                      scaled by the point's rate
 * and, on top of any of them, a hotspot share (synth_set_hotspot): with
 * probability `fraction` the destination is one of the hotspot nodes, drawn
 * uniformly, else the pattern's (also when a hotspot source draws itself
 * under SYNTH_SELF_SKIP).
 *
 * A fixed destination equal to its source sends nothing under
 * SYNTH_SELF_SKIP (docs/model.md [R-RT-4], the default) and sends to itself under
 * SYNTH_SELF_SEND.
 *
 * Conventions as in store/store.h: functions that can fail return NULL or -1
 * with one line in err; nothing is printed; synth_free accepts NULL.  The
 * draws use the caller's rng, so a run's seed decides every destination. */
#ifndef NOCSIM_TRAFFIC_SYNTH_H
#define NOCSIM_TRAFFIC_SYNTH_H

#include <stddef.h>
#include <stdint.h>

#include "util/fault.h"
#include "util/rng.h"

typedef enum { SYNTH_SELF_SKIP = 0, SYNTH_SELF_SEND } synth_self;

/* Most hotspot nodes a pattern takes. */
#define SYNTH_MAX_HOTSPOTS 64

typedef struct {
    int w, h, nodes;
    int uniform;          /* 1: uniform draws; 0: dest[] */
    synth_self self;
    int32_t *dest;        /* per source its fixed destination (uniform == 0) */
    int nhot;
    int32_t hot[SYNTH_MAX_HOTSPOTS];
    double hot_fraction;
    char name[64];
    /* A traffic matrix (matrix:PATH), else all NULL: per source its row's
     * sum, in [0, 1] (its rate relative to the point's); its destinations
     * row_dest[row_start[i] .. row_start[i + 1]) with their entries row_w
     * (as given) and cumulative shares row_cum (the last 1). */
    double *src_rate;
    int32_t *row_start, *row_dest;
    double *row_w, *row_cum;
} synth;

/* The pattern named by spec on a w x h grid (each side 2..4096); seed draws
 * randperm.  Returns it for synth_free, or NULL with a message naming the
 * pattern and why (unknown name with the allowed list, a bit pattern on
 * sides that are not powers of two, transpose on a non-square grid, a file
 * error with its line, out of memory); *kind (may be NULL) says which as
 * traffic_new_grid's does. */
NOCSIM_MUST_USE
synth *synth_new(const char *spec, int w, int h, synth_self self, uint64_t seed, fault_kind *kind, char *err,
                 size_t errlen);
/* Free s.  s may be NULL. */
void synth_free(synth *s);

/* Add a hotspot share: parse "NODES:FRACTION" (NODES a comma list of node
 * ids in [0, nodes-1], FRACTION in (0, 1]).  Returns 0, or -1 with a message
 * naming the bad node or fraction and the allowed range. */
NOCSIM_MUST_USE
int synth_set_hotspot(synth *s, const char *spec, char *err, size_t errlen);

/* Does source src send at all?  (A fixed point under SYNTH_SELF_SKIP, or a
 * uniform pattern on a grid where src has no other node, does not.) */
int synth_sends(const synth *s, int src);

/* A matrix row's destination for a uniform draw u in [0, 1): the first
 * entry whose cumulative share exceeds u. */
int32_t synth_matrix_draw(const synth *s, int src, double u);

/* Draw the destination of a packet from src (which must send). */
static inline int32_t synth_draw(const synth *s, int src, rng *r)
{
    if (s->nhot && rng_unit(r) < s->hot_fraction) {
        int32_t d = s->hot[rng_below(r, (uint32_t)s->nhot)];
        /* A hotspot drawn by itself under SELF_SKIP falls back to the pattern. */
        if (d != src || s->self == SYNTH_SELF_SEND) return d;
    }
    if (s->row_start) return synth_matrix_draw(s, src, rng_unit(r));
    if (!s->uniform) return s->dest[src];
    if (s->self == SYNTH_SELF_SEND) return (int32_t)rng_below(r, (uint32_t)s->nodes);
    int32_t d = (int32_t)rng_below(r, (uint32_t)s->nodes - 1);
    return d >= src ? d + 1 : d;
}

/* The names synth_new knows, for help texts (static strings), and how many. */
extern const char *const synth_names[];
extern const int synth_name_count;

#endif
