/* The definition of one collective communication (CC) to schedule: its kind,
 * the senders and receivers, the switching and the port model.  Gather and
 * reduce are scatter and broadcast reversed, so they are not separate kinds. */
#ifndef NOCSIM_CC_PROBLEM_H
#define NOCSIM_CC_PROBLEM_H

#include <stdbool.h>

#include "cc/topology.h"

typedef enum { CC_OAB, CC_OAS, CC_AAB, CC_AAS, CC_MNB, CC_MNS } cc_kind;
typedef enum { CC_WH, CC_SF } cc_switching;

extern const char *const cc_kind_names[6];      /* "oab", ... */
extern const char *const cc_switching_names[2]; /* "wh", "sf" */

typedef struct cc_problem {
    const cc_topo *t;
    cc_kind kind;
    cc_switching sw;
    int ports;          /* K of the K-port model; 0 means all-port */
    int root;           /* OAB/OAS */
    bool *sender;       /* [n] */
    bool *receiver;     /* [n] */
    bool broadcast;     /* OAB/AAB/MNB: every receiver gets each sender's message */
    int nmsg;           /* scatter: messages (s,d) with s != d; broadcast: deliveries (origin, receiver) */
    int *msrc, *mdst;   /* [nmsg], grouped by source (origin) */
} cc_problem;

/* senders/receivers: comma-separated node names, used only for MNB/MNS (NULL
 * means all nodes).  root: node name for OAB/OAS. */
cc_problem *cc_problem_new(const cc_topo *t, cc_kind kind, cc_switching sw, int ports,
                           const char *root, const char *senders, const char *receivers,
                           char err[CC_ERRLEN]);
void cc_problem_free(cc_problem *pb);

/* The port limit of node v for sending / receiving: K, or its degree for all-port. */
int cc_problem_kout(const cc_problem *pb, int v);
int cc_problem_kin(const cc_problem *pb, int v);

#endif
