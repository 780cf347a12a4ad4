/* The open-loop parameters as option tables (util/options.h) over
 * ol_params: one row per option with its name (the flag --NAME and the key
 * NAME of an experiment file), the field it sets, its type and its range
 * from sim/openloop.h's constants; its default is what ol_params_default
 * puts in the field.  `nocsim load` parses, lists (--help, the man page,
 * the completion) and reads experiment files (sim/ol_config.h) from these
 * rows alone.  Adding an option is adding a row.
 *
 *   ol_net_options      the network: topology, size, vcs, buffer, vc-rule,
 *                       arb, tie, routing, selection (every command that builds an open-loop
 *                       network lists this group)
 *   ol_packet_options   the packets: length mix, injection process
 *   ol_measure_options  the measurement: batch, warm-up, window, drain,
 *                       the saturation rules
 *   sim_net_options     the same network rows over sim_params (one macro
 *                       a row: the two cannot drift apart)
 *   sim_model_options   the closed-loop model's other choices
 *
 * Each table ends with OPT_END.  The size row also sets rp.n (= the width),
 * as route_params wants. */
#ifndef NOCSIM_SIM_OL_OPTIONS_H
#define NOCSIM_SIM_OL_OPTIONS_H

#include <stddef.h>

#include "sim/openloop.h"
#include "util/options.h"

extern const opt_row ol_net_options[];
extern const opt_row ol_packet_options[];
extern const opt_row ol_measure_options[];
/* The same network rows over sim_params (closed-loop runs: sim, stack, ga,
 * replay), and the model's other choices.  The size row takes N (even, at
 * least SIM_MIN_N) or WxH and leaves h 0 for a square. */
extern const opt_row sim_net_options[];
extern const opt_row sim_model_options[];

/* Names of the enums the rows choose from, in enum order. */
extern const char *const ol_topology_names[2];
extern const char *const ol_vc_rule_names[2];
extern const char *const ol_tie_names[3];
extern const char *const ol_process_names[3];
extern const char *const ol_self_names[2];
extern const char *const ol_vc_alloc_names[2];
extern const char *const sim_dateline_names[2];
extern const char *const sim_qupdate_names[2];
extern const char *const sim_slot_names[2];
extern const char *const sim_input_names[2];

/* The VC rule a network gets when none is given: any VC on a mesh (it has
 * no datelines; all its VCs serve every packet), the dateline rule on a
 * torus (the only one that cannot deadlock there). */
void ol_default_vc_rule(ol_params *p);
/* What a network needs beyond each field's range: a torus has even sides,
 * the dateline rule and, under dor, at least 3 VCs.  0, or -FAULT_INPUT with a message
 * naming the fields ("vcs 2: a torus needs at least 3 (datelines)"). */
NOCSIM_MUST_USE
int ol_net_check(const ol_params *p, char *err, size_t errlen);

#endif
