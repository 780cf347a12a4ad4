/* The routes a transfer may take: all shortest paths between every ordered
 * pair of nodes (or the pairs asked for), optionally also those up to K hops longer, enumerated once
 * and indexed, so a gene can name a route by a small integer.  Paths are
 * simple (no node twice) and stored as channel sequences. */
#ifndef NOCSIM_CC_PATHS_H
#define NOCSIM_CC_PATHS_H

#include "cc/topology.h"
#include "util/fault.h"

typedef struct cc_paths {
    const cc_topo *t;
    int n;
    int extra;        /* routes up to this many hops longer than the shortest */
    int *dist;        /* dist[s*n+d]: hops on a shortest path */
    int *first;       /* paths of pair (s,d) are first[s*n+d] .. first[s*n+d+1]-1 */
    int npaths;
    int *off;         /* path p is ch[off[p] .. off[p+1]) */
    int *ch;
    int maxcount;     /* most paths of any pair */
    bool truncated;   /* some pair had more than the cap */
} cc_paths;

/* Routes kept per pair unless the user says otherwise. */
#define CC_PATHS_DEFAULT_MAX 128
/* The most routes per pair the front end takes. */
#define CC_PATHS_MAX 100000

/* Most depth-first steps the enumeration takes over all pairs (about a
 * second) before it refuses the problem: --nonminimal on a large graph. */
#define CC_PATHS_MAX_STEPS 100000000LL

/* Most extra hops --nonminimal accepts. */
#define CC_PATHS_MAX_EXTRA 8

/* extra: also simple paths of length dist+1 .. dist+extra (0..CC_PATHS_MAX_EXTRA).
 * cap: most paths kept per pair (shortest first, then by length, each length
 * in a fixed depth-first order).  *out is the new table (caller frees with
 * cc_paths_free; it points to t, which must outlive it), or NULL: CC_EINPUT
 * when the table would exceed CC_MAX_BYTES (the minimal routes are counted
 * before any is stored; longer ones are checked as they are found), CC_ENOMEM. */
NOCSIM_MUST_USE
int cc_paths_new(const cc_topo *t, int extra, int cap, cc_paths **out, char *err, size_t errlen);
/* The same for the pairs (s, d) with src[s] and dst[d] only (NULL: every
 * node); the other pairs have no route in the table.  A problem's table
 * needs only the pairs its transfers can use (cc_instance_new). */
NOCSIM_MUST_USE
int cc_paths_new_for(const cc_topo *t, int extra, int cap, const bool *src, const bool *dst, cc_paths **out, char *err,
                     size_t errlen);
void cc_paths_free(cc_paths *p);

static inline int cc_paths_count(const cc_paths *p, int s, int d) { return p->first[s * p->n + d + 1] - p->first[s * p->n + d]; }
static inline int cc_paths_id(const cc_paths *p, int s, int d, int k) { return p->first[s * p->n + d] + k; }
static inline int cc_paths_len(const cc_paths *p, int id) { return p->off[id + 1] - p->off[id]; }
static inline const int *cc_paths_ch(const cc_paths *p, int id) { return p->ch + p->off[id]; }

#endif
