/* `nocsim load`'s issue-37 options (on/off sources, histograms, trace
 * replay) and the printing of the reports they add to a curve.  cmd_load.c
 * calls these from its parse and print steps; the measurements themselves
 * are sim/openloop.h's. */
#ifndef NOCSIM_CLI_LOAD_REPORT_H
#define NOCSIM_CLI_LOAD_REPORT_H

#include <jansson.h>
#include <stdio.h>

#include "cli/args.h"
#include "sim/openloop.h"

/* --process bernoulli|periodic|onoff:BURST:IDLE into p.  0, or -1 after a
 * message naming the flag and the allowed values. */
int load_parse_process(const char *cmd, const char *v, ol_params *p);
/* --histogram WIDTH|log2 into p.  0, or -1 after a message. */
int load_parse_histogram(const char *cmd, const char *v, ol_params *p);

/* What the points' reports add after the curve, in text or CSV (each
 * table after a blank line, with its own header). */
void load_report_text(FILE *f, const ol_point *pts, int n);
void load_report_csv(FILE *f, const ol_point *pts, int n);
/* The report's members into a point's JSON object (`histogram`,
 * `throughput`, `by_length`, as asked).  0, or -1 out of memory. */
int load_report_json(json_t *row, const ol_report *r);

/* --trace PATH: replay the file on p's network, print every packet and the
 * summary in fmt.  The exit status (after a message on failure). */
int load_trace(const char *cmd, const ol_params *p, const char *path, int allow_self, out_format fmt);

#endif
