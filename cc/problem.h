/* The definition of one collective communication (CC) to schedule: its kind,
 * the senders and receivers, the switching and the port model.  Gather and
 * reduce are scatter and broadcast reversed, so they are not separate kinds. */
#ifndef NOCSIM_CC_PROBLEM_H
#define NOCSIM_CC_PROBLEM_H

#include <stdbool.h>

#include "cc/topology.h"
#include "util/fault.h"

typedef enum { CC_OAB, CC_OAS, CC_AAB, CC_AAS, CC_MNB, CC_MNS } cc_kind;
typedef enum { CC_WH, CC_SF } cc_switching;

extern const char *const cc_kind_names[6];      /* "oab", ... */
extern const char *const cc_switching_names[2]; /* "wh", "sf" */
/* The largest K of the K-port model the front end takes. */
#define CC_PORTS_MAX 1024

/* What a user states about the CC (the topology apart). */
typedef struct {
    cc_kind kind;
    cc_switching sw;
    int ports;                /* K of the K-port model; 0 means all-port */
    int extra;                /* routing model: paths up to this many hops longer than the shortest */
    const char *root;         /* OAB/OAS source by name; NULL: the first node */
    const char *senders;      /* MNB/MNS: comma-separated node names; NULL: all nodes */
    const char *receivers;
} cc_problem_def;

typedef struct cc_problem {
    const cc_topo *t;
    cc_kind kind;
    cc_switching sw;
    int ports;          /* K of the K-port model; 0 means all-port */
    int extra;          /* routing model: at most dist + extra hops per path */
    int root;           /* OAB/OAS */
    bool *sender;       /* [n] */
    bool *receiver;     /* [n] */
    bool broadcast;     /* OAB/AAB/MNB: every receiver gets each sender's message */
    int nmsg;           /* scatter: messages (s,d) with s != d; broadcast: deliveries (origin, receiver) */
    int *msrc, *mdst;   /* [nmsg], grouped by source (origin) */
} cc_problem;

/* The problem def names on t (which must outlive it).  *out is the new
 * problem (free with cc_problem_free), or NULL: CC_EINPUT for an unknown name,
 * a root/senders/receivers given to a kind that has none, or a CC without
 * messages; CC_ENOMEM. */
NOCSIM_MUST_USE
int cc_problem_new(const cc_topo *t, const cc_problem_def *def, cc_problem **out, char *err, size_t errlen);
void cc_problem_free(cc_problem *pb);
/* Kind / switching by name (e.g. "aab", "wh"), or -1. */
int cc_kind_find(const char *name);
int cc_switching_find(const char *name);

/* The port limit of node v for sending / receiving: K, or its degree for all-port. */
int cc_problem_kout(const cc_problem *pb, int v);
int cc_problem_kin(const cc_problem *pb, int v);

#endif
