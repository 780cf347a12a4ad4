/* Independent schedule checker.  It uses only the topology's channels and the
 * CC definition (its own breadth-first distances for the routing model) — never the path tables or the search's own bookkeeping — so
 * a bug in the search cannot hide itself. */
#ifndef NOCSIM_CC_VERIFY_H
#define NOCSIM_CC_VERIFY_H

#include "cc/problem.h"
#include "cc/schedule.h"
#include "util/fault.h"

typedef enum {
    CC_VERR_BROKEN_PATH,   /* consecutive path nodes not joined by a working channel */
    CC_VERR_CONFLICT,      /* a channel used twice in one step */
    CC_VERR_UNINFORMED,    /* a broadcast sender that did not have the message yet */
    CC_VERR_PORTS,         /* more than K sends or receives by a node in a step */
    CC_VERR_MISSING,       /* a required delivery never happens */
    CC_VERR_EXTRA,         /* a transfer that is not part of the CC (wrong endpoints, duplicate scatter message,
                              a broadcast delivery back to the message's origin) */
    CC_VERR_NOT_SIMPLE,    /* a path that visits a node twice */
    CC_VERR_TOO_LONG,      /* a path longer than the routing model allows (shortest + pb->extra hops) */
    CC_VERR_KINDS
} cc_verr;

/* Names of the error kinds, for reports ("broken paths", ...). */
extern const char *const cc_verr_names[CC_VERR_KINDS];

typedef struct {
    bool ok;
    int steps;               /* steps used by the schedule */
    int count[CC_VERR_KINDS];
    char first[256];         /* the first error found, in words */
} cc_verify_result;

/* Check s against pb into *res (res->ok says whether it is valid).  CC_OK,
 * or CC_ENOMEM. */
NOCSIM_MUST_USE
int cc_verify(const cc_problem *pb, const cc_schedule *s, cc_verify_result *res);

#endif
