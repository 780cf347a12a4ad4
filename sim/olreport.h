/* The pieces of an open-loop point's report (issue 37, openloop.h's
 * ol_report), built by openloop.c and oltrace.c from what a run counted.
 * Internal to sim/: the callers outside see only openloop.h. */
#ifndef NOCSIM_SIM_OLREPORT_H
#define NOCSIM_SIM_OLREPORT_H

#include <stddef.h>
#include <stdint.h>

#include "sim/openloop.h"

/* ol_params_check's part for the issue-37 fields (on/off lengths, the
 * histogram's bins, per-flow counts' grid).  0 or -FAULT_INPUT with a
 * message naming the flag and its range. */
NOCSIM_MUST_USE
int ol_params_check_extras(const ol_params *p, char *err, size_t errlen);

/* An empty report for a grid of `nodes` (NULL when memory runs out). */
ol_report *olrep_new(const ol_params *p, int nodes);
/* The histogram of lat[0..n) under p's bins.  0, or -1 out of memory. */
int olrep_histogram(ol_report *r, const ol_params *p, const int32_t *lat, int64_t n);
/* Per node: gen[i], ej[i] flits generated and ejected in `cycles`; the
 * spread over senders[0..nsend).  0, or -1 out of memory. */
int olrep_nodes(ol_report *r, const int32_t *senders, int nsend, const int64_t *gen, const int64_t *ej,
                double cycles);
/* The flows of fgen / fej (src * nodes + dst, flits in `cycles`).  0, or -1
 * out of memory. */
int olrep_flows(ol_report *r, const int64_t *fgen, const int64_t *fej, int nodes, double cycles);
/* Per length of p's mix, from the latency sums and counts. */
void olrep_lengths(ol_report *r, const ol_params *p, const double *sum, const int64_t *cnt);

#endif
