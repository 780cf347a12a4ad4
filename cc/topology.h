/* Network graphs for CC scheduling: built-in families (ring, mesh, torus,
 * hypercube, octagon, Kautz), edge-list files, and fault injection.  Every
 * link is stored as directed channels (an undirected link is two channels,
 * one each way), because conflicts are counted per channel. */
#ifndef NOCSIM_CC_TOPOLOGY_H
#define NOCSIM_CC_TOPOLOGY_H

#include <stdbool.h>
#include <stddef.h>

#include "cc/errors.h"
#include "util/fault.h"

typedef struct cc_topo {
    char *spec;        /* the spec it was built from, for output */
    bool directed;     /* digraph: a "link A-B" is only the channel A->B */
    int n;             /* nodes */
    char **names;      /* node names, as the papers write them */
    int nch;           /* channels */
    int *ch_from, *ch_to;
    int *out_start, *out_ch;   /* CSR: channels leaving node v are out_ch[out_start[v] .. out_start[v+1]) */
    int *in_start, *in_ch;     /* CSR: channels entering node v */
    /* The faults applied, by name, so a schedule file can name its whole
     * problem: failed link i is fail_a[i]-fail_b[i]; failed node j fail_node[j]. */
    int nfail_links, nfail_nodes;
    char **fail_a, **fail_b, **fail_node;
} cc_topo;

/* A topology under construction: faults are applied before it is frozen. */
typedef struct cc_topo_builder cc_topo_builder;

/* The usage line listing every spec form (for messages and --help). */
extern const char cc_topo_usage[];

/* Parse a spec: ring:P, mesh:RxC, torus:RxC, hypercube:D, octagon,
 * kautz:D,K, file:PATH.  *out is the new builder (caller frees), or NULL on
 * failure: CC_EINPUT for a bad spec or file (the message names the file and
 * line) or a size over CC_MAX_NODES / CC_MAX_CHANNELS, CC_ENOMEM. */
NOCSIM_MUST_USE
int cc_topo_parse(const char *spec, cc_topo_builder **out, char *err, size_t errlen);
/* The same for the text of an edge-list file held in memory (text[0..len),
 * no terminator needed); name stands for the file in messages and as the
 * spec. */
NOCSIM_MUST_USE
int cc_topo_parse_text(const char *name, const char *text, size_t len, cc_topo_builder **out, char *err, size_t errlen);
void cc_topo_builder_free(cc_topo_builder *b);
/* Remove the link "A-B" (names, which may themselves contain '-': every
 * split into two node names is tried, and more than one is ambiguous).
 * Undirected: both channels; directed: A->B.  CC_EINPUT if there is no such
 * link, CC_ENOMEM. */
NOCSIM_MUST_USE
int cc_topo_fail_link(cc_topo_builder *b, const char *link, char *err, size_t errlen);
/* The same with the two names given apart. */
NOCSIM_MUST_USE
int cc_topo_fail_link2(cc_topo_builder *b, const char *a, const char *c, char *err, size_t errlen);
/* Remove node N and all its channels.  CC_EINPUT if there is no such node. */
NOCSIM_MUST_USE
int cc_topo_fail_node(cc_topo_builder *b, const char *node, char *err, size_t errlen);
/* Freeze into a new topology *out (surviving nodes renumbered, names kept;
 * the builder is not changed).  CC_EINPUT if the result is not strongly
 * connected or has fewer than 2 nodes, CC_ENOMEM. */
NOCSIM_MUST_USE
int cc_topo_build(const cc_topo_builder *b, cc_topo **out, char *err, size_t errlen);
/* Shortcut: parse and build with no faults; the same codes. */
NOCSIM_MUST_USE
int cc_topo_new(const char *spec, cc_topo **out, char *err, size_t errlen);
void cc_topo_free(cc_topo *t);

/* Node index by name, or -1. */
int cc_topo_node(const cc_topo *t, const char *name);
/* Channel from u to v, or -1. */
int cc_topo_channel(const cc_topo *t, int u, int v);
static inline int cc_topo_outdeg(const cc_topo *t, int v) { return t->out_start[v + 1] - t->out_start[v]; }
static inline int cc_topo_indeg(const cc_topo *t, int v) { return t->in_start[v + 1] - t->in_start[v]; }

#endif
