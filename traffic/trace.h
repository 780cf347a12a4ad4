/* Trace files for open-loop replay (`nocsim load --trace FILE`): one packet
 * a line, "cycle src dst flits" (cycle in [0, 2^40], the cycle the packet is
 * generated at its source; node ids in [0, nodes-1], node = y * w + x;
 * flits in [1, 255]), lines in cycle order (equal cycles keep the file's
 * order), '#' starts a comment, blank lines are skipped.  A packet from a
 * node to itself is refused unless self-addressed packets are allowed. */
#ifndef NOCSIM_TRAFFIC_TRACE_H
#define NOCSIM_TRAFFIC_TRACE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "util/fault.h"

typedef struct {
    int64_t cycle;                /* generation cycle */
    int32_t src, dst, flits;
} trace_packet;

#define TRACE_MAX_CYCLE ((int64_t)1 << 40)
#define TRACE_MAX_FLITS 255
/* Most packets a trace holds. */
#define TRACE_MAX_PACKETS 100000000

typedef struct {
    trace_packet *pk;
    int64_t n;
} trace;

/* Read the trace at path (or from f, name for messages) for a grid of
 * `nodes`; allow_self: a packet may go from a node to itself.  Returns a
 * trace for trace_free, or NULL with one line in err naming the file, the
 * line and the allowed range, *kind (may be NULL) FAULT_INPUT (cannot open,
 * a bad line, no packet), FAULT_IO (read error) or FAULT_RESOURCE. */
NOCSIM_MUST_USE
trace *trace_load(const char *path, int nodes, int allow_self, fault_kind *kind, char *err, size_t errlen);
NOCSIM_MUST_USE
trace *trace_read(FILE *f, const char *name, int nodes, int allow_self, fault_kind *kind, char *err, size_t errlen);
/* t may be NULL. */
void trace_free(trace *t);

#endif
