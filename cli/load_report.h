/* The printing of the reports `nocsim load`'s issue-37 options add to a
 * curve (histograms, throughput, latency by length, link load) and the trace replay's
 * output.  The options are rows of sim/ol_options.c; cmd_load.c calls these
 * from its print step; the measurements themselves are sim/openloop.h's. */
#ifndef NOCSIM_CLI_LOAD_REPORT_H
#define NOCSIM_CLI_LOAD_REPORT_H

#include <jansson.h>
#include <stdio.h>

#include "cli/args.h"
#include "sim/openloop.h"

/* What the points' reports add after the curve, in text or CSV (each
 * table after a blank line, with its own header). */
void load_report_text(FILE *f, const ol_point *pts, int n);
void load_report_csv(FILE *f, const ol_point *pts, int n);
/* The report's members into a point's JSON object (`histogram`,
 * `throughput`, `by_length`, `links`, as asked).  0, or -1 out of memory. */
int load_report_json(json_t *row, const ol_report *r);

/* A library message about an open-loop parameter with its field named as
 * load's flag (cli/opt_group.h opt_flag_message over sim/ol_options.h's
 * tables), into buf. */
const char *ol_flag_message(const char *msg, char *buf, size_t len);

/* --trace PATH: replay the file on p's network, print every packet and the
 * summary in fmt.  The exit status (after a message on failure). */
int load_trace(const char *cmd, const ol_params *p, const char *path, int allow_self, out_format fmt);

#endif
