/* Collective traffic patterns: each maps every node of a W x H grid (a torus
 * or a mesh: a pattern knows no topology, and leaves the network's own rules,
 * such as a torus's even sides, to the network) to one destination.  A node
 * whose destination is itself sends nothing.
 *
 * Specs: bcmp brev brot shfl torn trns (docs/model.md [R-CC-1], paper Table A-1),
 * randperm (a random permutation drawn from a seed), file:PATH (one
 * "src dst" pair per line, '#' starts a comment; unlisted nodes send nothing). */
#ifndef NOCSIM_TRAFFIC_H
#define NOCSIM_TRAFFIC_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "util/fault.h"

typedef struct {
    int n;          /* ring size (the width w on a rectangular grid) */
    int w, h;       /* grid width and height (n and n for a square grid) */
    int nodes;      /* w * h */
    int32_t *dest;  /* dest[src] */
    char name[64];  /* spec as given (a file spec is shortened) */
} traffic;

/* Largest ring size a pattern is built for: n * n destinations stay far
 * inside int32_t.  The simulator's own, smaller bound is SIM_MAX_N. */
#define TRAFFIC_MAX_N 4096

/* Longest line of a traffic file, in bytes (a pair and its comment need far
 * fewer): a longer one is refused, so an endless line cannot eat memory. */
#define TRAFFIC_MAX_LINE 65536

/* Build the pattern named by `spec` on an n x n grid (n in 2..
 * TRAFFIC_MAX_N); seed draws randperm and is ignored by the other patterns.
 * Returns a new traffic for traffic_free, or NULL with a one-line message in
 * err on bad input (unknown name, bad n, n not a power of two for a bit
 * pattern ("needs a power-of-two grid side"), an unreadable file or a bad line in it, naming file and line) or
 * when memory runs out. */
NOCSIM_MUST_USE
traffic *traffic_new(const char *spec, int n, uint64_t seed, char *err, size_t errlen);
/* A traffic file's pairs read from f (its format: see above; name is the
 * file's name for messages and t->name).  Every line is read whole and every
 * token parsed strictly (util/parse.h).  Returns the pattern (free with
 * traffic_free), or NULL with one line in err naming the file, the line and
 * the allowed range (a bad id, a second destination for a source, a NUL byte,
 * a line longer than TRAFFIC_MAX_LINE bytes, a read error, out of memory). */
NOCSIM_MUST_USE
traffic *traffic_read(FILE *f, const char *name, int n, char *err, size_t errlen);
/* traffic_new and traffic_read on a w x h grid (node = y * w + x; each side
 * in [2, TRAFFIC_MAX_N], odd or even).  The bit patterns need
 * power-of-two sides, trns a square grid; the messages say so.  On failure
 * *kind (may be NULL) is FAULT_INPUT (a name, a size, a file that cannot be
 * opened or a bad line in it), FAULT_IO (a read error) or FAULT_RESOURCE
 * (memory). */
NOCSIM_MUST_USE
traffic *traffic_new_grid(const char *spec, int w, int h, uint64_t seed, fault_kind *kind, char *err, size_t errlen);
NOCSIM_MUST_USE
traffic *traffic_read_grid(FILE *f, const char *name, int w, int h, fault_kind *kind, char *err, size_t errlen);
/* Free t and its destination array.  t may be NULL. */
void traffic_free(traffic *t);

/* The names of the built-in patterns, for help texts and sweeps (static
 * strings), and how many there are. */
extern const char *const traffic_builtin_names[];
/* Number of entries of traffic_builtin_names. */
extern const int traffic_builtin_count;

/* Destination of node w under a built-in pattern k on an n x n grid (n a
 * power of two for the bit patterns).  Exposed for tests. */
int32_t traffic_builtin_dest(int k, int n, int32_t w);
/* The same on a w x h grid; valid when traffic_grid_supports(k, w, h). */
int32_t traffic_grid_dest(int k, int w, int h, int32_t node);
int traffic_grid_supports(int k, int w, int h);

#endif
