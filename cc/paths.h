/* All shortest paths (optionally also those one hop longer) between every
 * ordered pair of nodes, enumerated once and indexed, so a gene can name a
 * route by a small integer.  Paths are stored as channel sequences. */
#ifndef NOCSIM_CC_PATHS_H
#define NOCSIM_CC_PATHS_H

#include "cc/topology.h"

typedef struct cc_paths {
    const cc_topo *t;
    int n;
    int *dist;        /* dist[s*n+d]: hops on a shortest path */
    int *first;       /* paths of pair (s,d) are first[s*n+d] .. first[s*n+d+1]-1 */
    int npaths;
    int *off;         /* path p is ch[off[p] .. off[p+1]) */
    int *ch;
    int maxcount;     /* most paths of any pair */
    bool truncated;   /* some pair had more than the cap */
} cc_paths;

/* nonminimal: also simple paths of length dist+1.  cap: most paths kept per
 * pair (the first ones in a fixed depth-first order). */
cc_paths *cc_paths_new(const cc_topo *t, bool nonminimal, int cap, char err[CC_ERRLEN]);
void cc_paths_free(cc_paths *p);

static inline int cc_paths_count(const cc_paths *p, int s, int d) { return p->first[s * p->n + d + 1] - p->first[s * p->n + d]; }
static inline int cc_paths_id(const cc_paths *p, int s, int d, int k) { return p->first[s * p->n + d] + k; }
static inline int cc_paths_len(const cc_paths *p, int id) { return p->off[id + 1] - p->off[id]; }
static inline const int *cc_paths_ch(const cc_paths *p, int id) { return p->ch + p->off[id]; }

#endif
