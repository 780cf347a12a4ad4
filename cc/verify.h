/* Independent schedule checker.  It uses only the topology's channels and the
 * CC definition — never the path tables or the search's own bookkeeping — so
 * a bug in the search cannot hide itself. */
#ifndef NOCSIM_CC_VERIFY_H
#define NOCSIM_CC_VERIFY_H

#include "cc/problem.h"
#include "cc/schedule.h"

typedef enum {
    CC_VERR_BROKEN_PATH,   /* consecutive path nodes not joined by a working channel */
    CC_VERR_CONFLICT,      /* a channel used twice in one step */
    CC_VERR_UNINFORMED,    /* a broadcast sender that did not have the message yet */
    CC_VERR_PORTS,         /* more than K sends or receives by a node in a step */
    CC_VERR_MISSING,       /* a required delivery never happens */
    CC_VERR_EXTRA,         /* a transfer that is not part of the CC (wrong endpoints, duplicate scatter message) */
    CC_VERR_KINDS
} cc_verr;

typedef struct {
    bool ok;
    int steps;               /* steps used by the schedule */
    int count[CC_VERR_KINDS];
    char first[256];         /* the first error found, in words */
} cc_verify_result;

/* Returns false only on out-of-memory. */
bool cc_verify(const cc_problem *pb, const cc_schedule *s, cc_verify_result *res);

#endif
