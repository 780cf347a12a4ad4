/* The link-activity flags shared by `nocsim sim` and `nocsim replay`:
 *   --activity FILE.png   --activity-scale K   --activity-links A:B
 *   --activity-no-legend
 * One parser, one help text, one call after the run that re-simulates the
 * configuration on the reference engine with a recorder and writes the map. */
#ifndef NOCSIM_ACTIVITY_OPTS_H
#define NOCSIM_ACTIVITY_OPTS_H

#include <stdint.h>
#include <stdio.h>

#include "cli/args.h"
#include "sim/sim.h"
#include "util/fault.h"
#include "viz/activity_map.h"

typedef struct {
    const char *path;     /* NULL: no map */
    viz_act_opts draw;
    int links_given;
} activity_opts;

void activity_opts_default(activity_opts *ao);
/* The activity flags' table (cli/args.h) and handler (ctx: an activity_opts);
 * a command lists ACTIVITY_OPTS_GROUP(&ao) among its cli_groups. */
extern const cli_opt activity_opts_table[];
NOCSIM_MUST_USE
int activity_opts_set(void *ctx, const char *cmd, const char *flag, const char *value);
#define ACTIVITY_OPTS_GROUP(ao) { activity_opts_table, activity_opts_set, (ao) }
/* After parsing, before any work: the --activity path must be writable and
 * none of the command's inputs (cli_check_output).  EXIT_OK or EXIT_USAGE
 * after a message. */
NOCSIM_MUST_USE
int activity_opts_check(const char *cmd, const activity_opts *ao, const char *const *inputs, int ninputs);
/* If a map was asked for: run c on a fresh simulator of (p, dest) with the
 * recorder, check that it reproduces `expect` (the command's own run; NULL
 * skips the check), and write the PNG.  Returns an exit status (EXIT_OK,
 * EXIT_USAGE for a link range outside the network or an unwritable path,
 * EXIT_FAIL otherwise), the error printed.  The picture's title names the
 * command, traffic, network, slices, interval and the run's T_d and lb. */
NOCSIM_MUST_USE
int activity_opts_write(const char *cmd, const activity_opts *ao, const sim_params *p, const int32_t *dest,
                        const sim_config *c, const sim_metrics *expect, const char *traffic);

#endif
