/* A CC schedule as a list of transfers, each a node path started in a given
 * step (paper 000 Table 4 style), with text and JSON writers and a JSON
 * reader.  A schedule knows nothing of how it was found. */
#ifndef NOCSIM_CC_SCHEDULE_H
#define NOCSIM_CC_SCHEDULE_H

#include <jansson.h>
#include <stdio.h>

#include "cc/problem.h"
#include "util/fault.h"

typedef struct {
    int step;      /* step in which it starts (SF: hop i happens in step+i) */
    int origin;    /* broadcasts: whose message it carries; scatter: path[0] */
    int nnodes;    /* path length in nodes (>= 2) */
    int off;       /* nodes are pool[off .. off+nnodes) */
} cc_transfer;

typedef struct cc_schedule {
    int nt, cap;
    cc_transfer *tr;
    int npool, poolcap;
    int *pool;
} cc_schedule;

NOCSIM_MUST_USE
cc_schedule *cc_schedule_new(void);
void cc_schedule_free(cc_schedule *s);
/* Append a transfer (nodes are copied).  CC_OK, or CC_ENOMEM. */
NOCSIM_MUST_USE
int cc_schedule_add(cc_schedule *s, int step, int origin, int nnodes, const int *nodes);
static inline const int *cc_schedule_nodes(const cc_schedule *s, int i) { return s->pool + s->tr[i].off; }
/* Steps used: last step touched + 1 (SF counts every hop). */
int cc_schedule_steps(const cc_schedule *s, cc_switching sw);
/* Sort transfers by step then origin then path (stable output). */
void cc_schedule_sort(cc_schedule *s);

/* Text: one line per step, transfers as node paths "0-7-3"; broadcasts with
 * several origins prefix the origin ("2:0-7-3"). */
void cc_schedule_write_text(FILE *f, const cc_schedule *s, const cc_problem *pb);
/* A self-describing JSON object (jansson): the whole problem (topology
 * spec, faults, cc, switching, ports, nonminimal, root or senders/receivers),
 * "steps" and the steps' transfers.  cc/schedfile.h reads it back.  NULL:
 * out of memory. */
NOCSIM_MUST_USE
json_t *cc_schedule_json(const cc_schedule *s, const cc_problem *pb);
/* That object written to f, indented, with a newline: 0, or -1 when out of
 * memory or the write fails. */
NOCSIM_MUST_USE
int cc_schedule_write_json(FILE *f, const cc_schedule *s, const cc_problem *pb);

#endif
