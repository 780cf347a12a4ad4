/* What topology.c (the builder, families, faults, the check) and
 * topofile.c (the edge-list file reader) share: the builder's state and the
 * calls that add to it.  Not for other parts: topology.h is the interface. */
#ifndef NOCSIM_CC_TOPO_INTERNAL_H
#define NOCSIM_CC_TOPO_INTERNAL_H

#include <stdio.h>

#include "cc/topology.h"
#include "util/fault.h"

/* Name hash table size: a power of two over twice CC_MAX_NODES. */
#define HASH_SIZE 16384

typedef struct { int u, v; int next; bool alive; } arc;   /* next: u's next out-arc, -1 */

struct cc_topo_builder {
    char *spec;
    bool directed;
    int n, ncap;
    char **names;
    bool *alive;
    int *head;          /* [ncap]: first out-arc of each node, -1 */
    int na, acap;
    arc *arcs;
    int hash[HASH_SIZE];   /* node index + 1 by name hash, 0 = empty */
    int nfl, nfn;          /* faults applied, in order, for the topology's record */
    char **fl_a, **fl_b, **fn;
};


/* A builder for spec (copied), NULL when memory runs out. */
NOCSIM_MUST_USE
cc_topo_builder *topo_b_new(const char *spec, bool directed);
/* The index of the node named name, -1 if none. */
int topo_b_find(const cc_topo_builder *b, const char *name);
/* Add a node; returns its index, -1 on allocation failure, -2 over CC_MAX_NODES. */
NOCSIM_MUST_USE
int topo_b_node(cc_topo_builder *b, const char *name);
/* A link u-v (one channel in a digraph, two in a graph) unless present: 0,
 * -1 on allocation failure, -2 over CC_MAX_CHANNELS. */
NOCSIM_MUST_USE
int topo_b_link(cc_topo_builder *b, int u, int v);
/* The error for a -2 (too large) or -1 (out of memory) from the calls above,
 * naming what was being built. */
int topo_size_or_oom(int rc, const char *what, char *err, size_t errlen);

/* Read the edge-list file at path (spec "file:PATH") into a new builder. */
NOCSIM_MUST_USE
int topo_parse_file(const char *spec, const char *path, cc_topo_builder **out, char *err, size_t errlen);

#endif
