/* A scheduling problem described by names (topology spec, faults, CC, root,
 * ports, switching, routing model) and built into the objects the search,
 * the bounds and the verifier work on.  The description is what a schedule
 * file carries and what flags give; merging the two lets a file speak for
 * itself while flags may only agree with it. */
#ifndef NOCSIM_CC_INSTANCE_H
#define NOCSIM_CC_INSTANCE_H

#include "cc/bounds.h"
#include "cc/paths.h"
#include "cc/problem.h"
#include "util/fault.h"

#define CC_MAX_FAULTS 64
#define CC_UNSET (-1)
/* What an unset switching, port count and routing model become. */
#define CC_DEFAULT_SWITCHING CC_WH
#define CC_DEFAULT_PORTS 0      /* all-port */
#define CC_DEFAULT_EXTRA 0      /* minimal routes */

/* Every pointer is borrowed: the strings must outlive the description and
 * anything built from it only while building. */
typedef struct {
    const char *topology;
    int nfail_link, nfail_node;
    const char *fail_a[CC_MAX_FAULTS];   /* with fail_b[i] NULL, fail_a[i] is "A-B" */
    const char *fail_b[CC_MAX_FAULTS];
    const char *fail_node[CC_MAX_FAULTS];
    bool faults_given;                   /* the faults above are stated (even if none) */
    int kind, sw, ports, extra;          /* CC_UNSET when not given; ports 0 = all-port */
    const char *root, *senders, *receivers;
} cc_desc;

/* All fields unset. */
cc_desc cc_desc_empty(void);
/* d with an unset switching, port count and routing model at their
 * defaults (CC_DEFAULT_*), as cc_instance_new takes them. */
cc_desc cc_desc_filled(const cc_desc *d);

/* Fill what file leaves unset from flags; a field both give must agree
 * (faults: the same set).  CC_EINPUT naming the field and both values. */
NOCSIM_MUST_USE
int cc_desc_merge(cc_desc *file, const cc_desc *flags, char *err, size_t errlen);

typedef struct {
    cc_topo *t;
    cc_paths *paths;
    cc_problem *pb;
    cc_bounds bounds;
} cc_instance;

/* Build topology (faults applied), problem, routes (at most max_paths per
 * pair) and bounds; unset fields take their defaults (WH, all-port, minimal
 * routes).  *out (free with cc_instance_free) or NULL: CC_EINPUT for a bad or
 * missing field or a size over a limit, CC_ENOMEM. */
NOCSIM_MUST_USE
int cc_instance_new(const cc_desc *d, int max_paths, cc_instance **out, char *err, size_t errlen);
void cc_instance_free(cc_instance *in);

#endif
