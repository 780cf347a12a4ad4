/* Network graphs for CC scheduling: built-in families (ring, mesh, torus,
 * hypercube, octagon, Kautz), edge-list files, and fault injection.  Every
 * link is stored as directed channels (an undirected link is two channels,
 * one each way), because conflicts are counted per channel. */
#ifndef NOCSIM_CC_TOPOLOGY_H
#define NOCSIM_CC_TOPOLOGY_H

#include <stdbool.h>

#define CC_ERRLEN 256

typedef struct cc_topo {
    char *spec;        /* the spec it was built from, for output */
    bool directed;     /* digraph: a "link A-B" is only the channel A->B */
    int n;             /* nodes */
    char **names;      /* node names, as the papers write them */
    int nch;           /* channels */
    int *ch_from, *ch_to;
    int *out_start, *out_ch;   /* CSR: channels leaving node v are out_ch[out_start[v] .. out_start[v+1]) */
    int *in_start, *in_ch;     /* CSR: channels entering node v */
} cc_topo;

/* A topology under construction: faults are applied before it is frozen. */
typedef struct cc_topo_builder cc_topo_builder;

/* Parse a spec: ring:P, mesh:RxC, torus:RxC, hypercube:D, octagon,
 * kautz:D,K, file:PATH.  Returns NULL and fills err on bad input. */
cc_topo_builder *cc_topo_parse(const char *spec, char err[CC_ERRLEN]);
void cc_topo_builder_free(cc_topo_builder *b);
/* Remove the link "A-B" (names).  Undirected: both channels; directed: A->B. */
bool cc_topo_fail_link(cc_topo_builder *b, const char *link, char err[CC_ERRLEN]);
/* Remove node N and all its channels. */
bool cc_topo_fail_node(cc_topo_builder *b, const char *node, char err[CC_ERRLEN]);
/* Freeze into a topology (surviving nodes renumbered, names kept).  Fails if
 * the result is not strongly connected. */
cc_topo *cc_topo_build(const cc_topo_builder *b, char err[CC_ERRLEN]);
/* Shortcut: parse and build with no faults. */
cc_topo *cc_topo_new(const char *spec, char err[CC_ERRLEN]);
void cc_topo_free(cc_topo *t);

/* Node index by name, or -1. */
int cc_topo_node(const cc_topo *t, const char *name);
/* Channel from u to v, or -1. */
int cc_topo_channel(const cc_topo *t, int u, int v);
static inline int cc_topo_outdeg(const cc_topo *t, int v) { return t->out_start[v + 1] - t->out_start[v]; }
static inline int cc_topo_indeg(const cc_topo *t, int v) { return t->in_start[v + 1] - t->in_start[v]; }

#endif
