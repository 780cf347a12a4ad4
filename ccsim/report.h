/* The cycles of one wormhole schedule in both replay modes, next to paper
 * 000's step model t = S x t_s + m x t_1 (its equation 3), with the
 * parameters the comparison uses.
 *
 * Parameters: t_1 = 1 cycle per flit (the replay moves one flit per channel
 * per cycle); t_s defaults to the schedule's longest path in hops, the
 * latency of a header in the replay, which has no software start-up (the
 * paper gives no values; --ts sets another).  m is the packet length. */
#ifndef NOCSIM_CCSIM_REPORT_H
#define NOCSIM_CCSIM_REPORT_H

#include "ccsim/replay.h"

typedef struct {
    int flits;             /* m */
    int steps;             /* S */
    int max_hops;
    int64_t ts, t1;        /* the step model's parameters, in cycles */
    int64_t model;         /* S x t_s + m x t_1 */
    ccsim_result mode[2];  /* [CCSIM_STEPS], [CCSIM_OVERLAP] */
} ccsim_report;

/* Replay s in both modes with packets of flits flits; ts < 0 takes the
 * default above.  CC_OK, or the codes of ccsim_replay. */
NOCSIM_MUST_USE
int ccsim_report_new(const cc_problem *pb, const cc_schedule *s, int flits, int64_t ts, ccsim_report *out,
                     char *err, size_t errlen);

#endif
