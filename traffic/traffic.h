/* Collective traffic patterns: each maps every node of an N x N torus to one
 * destination.  A node whose destination is itself sends nothing.
 *
 * Specs: bcmp brev brot shfl torn trns (model.md, paper Table A-1),
 * randperm (a random permutation drawn from a seed), file:PATH (one
 * "src dst" pair per line, '#' starts a comment; unlisted nodes send nothing). */
#ifndef NOCSIM_TRAFFIC_H
#define NOCSIM_TRAFFIC_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct {
    int n;          /* ring size */
    int nodes;      /* n * n */
    int32_t *dest;  /* dest[src] */
    char name[64];  /* spec as given (a file spec is shortened) */
} traffic;

/* Build the pattern named by `spec` on an n x n torus.  Returns NULL and a
 * one-line message in err on bad input (unknown name, n not a power of two
 * for a bit pattern, a bad line in a file). */
traffic *traffic_new(const char *spec, int n, uint64_t seed, char *err, size_t errlen);
/* A traffic file's pairs read from f (its format: see above; name is the
 * file's name for messages and t->name).  Every line is read whole and every
 * token parsed strictly (util/parse.h).  Returns the pattern (free with
 * traffic_free), or NULL with one line in err naming the file, the line and
 * the allowed range (a bad id, a second destination for a source, a NUL byte,
 * a read error, out of memory). */
traffic *traffic_read(FILE *f, const char *name, int n, char *err, size_t errlen);
void traffic_free(traffic *t);

/* The names of the built-in patterns, for help texts and sweeps. */
extern const char *const traffic_builtin_names[];
extern const int traffic_builtin_count;

/* Destination of node w under a built-in pattern k on an n x n torus (n a
 * power of two for the bit patterns).  Exposed for tests. */
int32_t traffic_builtin_dest(int k, int n, int32_t w);

#endif
