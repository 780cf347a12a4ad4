/* The options every simulating command shares: the network, the traffic and
 * each open choice of model.md.  One parser, one help text, so `sim`, `stack`
 * and `ga` accept exactly the same model flags. */
#ifndef NOCSIM_MODEL_OPTS_H
#define NOCSIM_MODEL_OPTS_H

#include <stdint.h>
#include <stdio.h>

#include "sim/sim.h"
#include "traffic/traffic.h"

typedef struct {
    sim_params params;
    const char *traffic;  /* spec */
    uint64_t seed;
    int topo_set, rule_set;  /* --topology / --vc-rule given */
    const char *given;    /* the first model flag given other than --slices, or NULL */
} model_opts;

void model_opts_default(model_opts *mo);
/* Consume argv[*i] (and its value) if it is a model option.  Returns 1 if
 * consumed, 0 if it is not a model option, -1 on a bad value (message printed). */
int model_opts_parse(const char *cmd, int argc, char **argv, int *i, model_opts *mo);
void model_opts_help(FILE *f);
/* Build the traffic; prints the error and returns NULL on bad input. */
traffic *model_opts_traffic(const char *cmd, const model_opts *mo);
/* Print the parameters as a JSON object body (without braces). */
void model_opts_json(FILE *f, const model_opts *mo);

extern const char *const model_tie_names[];
extern const char *const model_dateline_names[];
extern const char *const model_qupdate_names[];
extern const char *const model_slot_names[];
extern const char *const model_input_names[];
extern const char *const model_self_names[];
extern const char *const model_topology_names[];
extern const char *const model_vc_rule_names[];

#endif
