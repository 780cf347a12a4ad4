/* The options every simulating command shares: the network, the traffic and
 * each open choice of the model (docs/model.md's [choice] rules).  One parser, one help text, so `sim`, `stack`
 * and `ga` accept exactly the same model flags. */
#ifndef NOCSIM_MODEL_OPTS_H
#define NOCSIM_MODEL_OPTS_H

#include <stdint.h>
#include <stdio.h>

#include "cli/args.h"
#include "cli/opt_group.h"
#include "sim/ol_options.h"
#include "sim/sim.h"
#include "traffic/traffic.h"
#include "util/fault.h"

/* Most option rows of the model (its tables' rows). */
#define MODEL_MAX_ROWS 40

typedef struct {
    sim_params params;
    const char *traffic;  /* spec */
    uint64_t seed;
    int topo_set, rule_set;  /* --topology / --vc-rule given */
    const char *config;   /* --config FILE (read at once: model_opts_set) */
    char given[40];       /* the first model flag given other than --slices, or "" (a copy: the table's flags go with it) */
    const void *given_rows[MODEL_MAX_ROWS];  /* the option rows the command line set (--config skips them) */
    int ngiven;
    char traffic_buf[1024];  /* --config's traffic (the file's text is freed after reading) */
} model_opts;

void model_opts_default(model_opts *mo);
/* The model options as one table of cli_parse (cli/args.h), made from their
 * rows: model_opts.c's own (traffic, routing, selection, seed, config) and
 * sim/ol_options.h's sim_net_options and sim_model_options.  Each help text
 * ends with the row's range and its default as mo held it when the table
 * was made (a command sets its own defaults first, e.g. ga's 2 slices).
 * The rows alone say what a model option is: this table is their view. */
enum { MODEL_GROUPS = 3 };
typedef struct {
    opt_group g[MODEL_GROUPS];  /* the rows' groups, for their help texts */
    int made;
    cli_opt *opts;              /* every group's flags in one table, CLI_END last; owned */
} model_table;
/* Make t over mo.  0, or -1 when memory runs out (t then needs no free). */
NOCSIM_MUST_USE
int model_table_init(model_table *t, model_opts *mo);
void model_table_free(model_table *t);
/* The handler of t's flags (ctx: a model_opts).  --config FILE reads an
 * experiment file (docs/config.md, sim/ol_config.h) at once: its settings
 * of these options (BookSim2's keys included) are applied unless the
 * command line gives them (before or after --config); a key that is not
 * one of these options is refused, naming file, line and key. */
NOCSIM_MUST_USE
int model_opts_set(void *ctx, const char *cmd, const char *flag, const char *value);
/* A command lists MODEL_OPTS_GROUP(&table, &mo) among its cli_groups. */
#define MODEL_OPTS_GROUP(t, mo) { (t)->opts, model_opts_set, (mo) }
/* A library message about a model parameter (sim_params_check's, sim_new's)
 * with its field named as the flag (cli/opt_group.h opt_flag_message over
 * the model's rows and extra[0..nextra-1], a command's own), into buf. */
const char *model_flag_message(const char *msg, const opt_row *const *extra, int nextra, char *buf, size_t len);
/* Build the traffic; on failure prints the error, sets *status by its kind
 * (EXIT_USAGE for bad input, EXIT_FAIL when memory or a read fails) and
 * returns NULL. */
NOCSIM_MUST_USE
traffic *model_opts_traffic(const char *cmd, const model_opts *mo, int *status);
/* The network's size as --size takes it: "16" for a square, "16x8" for a
 * rectangle, into buf (returned). */
const char *model_size_str(const sim_params *p, char *buf, size_t len);
/* The parameters as a new JSON object (NULL: out of memory); "size" is the
 * width, and a rectangle adds "height". */
NOCSIM_MUST_USE
json_t *model_opts_json(const model_opts *mo);

/* The names of the model's enums, in enum order (the library's: sim/ol_options.h). */
#define model_tie_names ol_tie_names
#define model_dateline_names sim_dateline_names
#define model_qupdate_names sim_qupdate_names
#define model_slot_names sim_slot_names
#define model_input_names sim_input_names
#define model_self_names ol_self_names
#define model_topology_names ol_topology_names
#define model_vc_rule_names ol_vc_rule_names

#endif
