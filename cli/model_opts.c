/* Shared model options (see model_opts.h). */
#include "cli/model_opts.h"

#include <string.h>

#include "cli/args.h"
#include "cli/status.h"
#include "util/quote.h"

const char *const model_tie_names[] = { "nowrap", "plus", "minus" };
const char *const model_dateline_names[] = { "on-link", "after-link" };
const char *const model_qupdate_names[] = { "tail", "rotate" };
const char *const model_slot_names[] = { "next-cycle", "same-cycle" };
const char *const model_input_names[] = { "vc", "port" };
const char *const model_self_names[] = { "skip", "send" };
const char *const model_topology_names[] = { "torus", "mesh" };
const char *const model_vc_rule_names[] = { "dateline", "any" };

void model_opts_default(model_opts *mo)
{
    memset(mo, 0, sizeof *mo);
    sim_params_default(&mo->params);
    mo->traffic = "brev";
    mo->seed = 1;
}

const cli_opt model_opts_table[] = {
    CLI_HEADING("network and traffic:"),
    { "--traffic", 0, "T", "bcmp brev brot shfl torn trns randperm file:PATH (default brev)" },
    { "--size", 0, "N|WxH", "N x N network, or W wide and H high (default 16); N and W\n"
                            "even, H even on a torus; bit patterns need powers of two" },
    { "--slices", 0, "S", "slices per message, one packet each (default depends on command)" },
    { "--flits", 0, "L", "packet length l_c in flits (default 8)" },
    { "--vcs", 0, "K", "virtual channels per link, >= 3 on a torus (default 3)" },
    { "--topology", 0, "torus|mesh", "the network (default torus); a mesh has no wrap links" },
    { "--vc-rule", 0, "dateline|any", "which VC a header takes: its own, one up at each dateline\n"
                                      "(torus default), or any free VC of its port (mesh default)" },
    { "--buffer", 0, "B", "flits per input-VC FIFO (default 4)" },
    { "--seed", 's', "X", "seed for randperm and random choices (default 1)" },
    CLI_HEADING("model choices (model.md [choice]; defaults first):"),
    { "--tie", 0, "nowrap|plus|minus", "route of a distance of exactly N/2" },
    { "--dateline", 0, "on-link|after-link", "where the VC goes up at a dateline" },
    { "--q-update", 0, "tail|rotate", "queue-selection order after a grant" },
    { "--slot-reuse", 0, "next-cycle|same-cycle", "when a freed FIFO slot can be refilled" },
    { "--input-limit", 0, "vc|port", "one flit per cycle per input VC, or per input port" },
    { "--self", 0, "skip|send", "packets addressed to their source" },
    { "--deadlock-cycles", 0, "C", "watchdog: cycles without a move (default 1000)" },
    CLI_HEADING("paper Sect. 7.2 functions (off by default; they run on the reference engine):"),
    { "--slice-reinit", 0, NULL, "a node's arbitration state is reset whenever a packet for it\narrives" },
    { "--interlock", 0, NULL, "a node's next slice waits until it has received the last\nslice's packets" },
    CLI_END
};

int model_opts_set(void *ctx, const char *cmd, const char *a, const char *v)
{
    model_opts *mo = ctx;
    sim_params *p = &mo->params;
    long x;
    int k;
#define INT(field, lo, hi) do { if (!arg_int(cmd, a, v, lo, hi, &x)) return -1; field = (int)x; } while (0)
#define CHOICE(field, names, type) do { if (!arg_choice(cmd, a, v, names, (int)(sizeof names / sizeof names[0]), &k)) return -1; field = (type)k; } while (0)
    if (!strcmp(a, "--traffic")) mo->traffic = v;
    else if (!strcmp(a, "--seed")) { if (!arg_int(cmd, a, v, 0, 2147483647L, &x)) return -1; mo->seed = (uint64_t)x; }
    else if (!strcmp(a, "--size")) {
        int w, h;
        if (!arg_size(cmd, a, v, strchr(v, 'x') ? 2 : SIM_MIN_N, SIM_MAX_N, &w, &h)) return -1;
        p->n = w;
        p->h = w == h ? 0 : h;   /* 0: square (sim_height) */
    }
    else if (!strcmp(a, "--vcs")) INT(p->vcs, 1, SIM_MAX_VCS);
    else if (!strcmp(a, "--topology")) { CHOICE(p->topo, model_topology_names, route_topology); mo->topo_set = 1; }
    else if (!strcmp(a, "--vc-rule")) { CHOICE(p->vc_rule, model_vc_rule_names, route_vc_rule); mo->rule_set = 1; }
    else if (!strcmp(a, "--buffer")) INT(p->buffer, 1, 255);
    else if (!strcmp(a, "--flits")) INT(p->flits, 2, SIM_MAX_FLITS);
    else if (!strcmp(a, "--slices")) INT(p->slices, 1, SIM_MAX_SLICES);
    else if (!strcmp(a, "--deadlock-cycles")) INT(p->deadlock_cycles, 1, 1000000000);
    else if (!strcmp(a, "--tie")) CHOICE(p->tie, model_tie_names, route_tie);
    else if (!strcmp(a, "--dateline")) CHOICE(p->dateline, model_dateline_names, route_dateline);
    else if (!strcmp(a, "--q-update")) CHOICE(p->q_update, model_qupdate_names, qsel_update);
    else if (!strcmp(a, "--slot-reuse")) CHOICE(p->slot_reuse, model_slot_names, sim_slot_reuse);
    else if (!strcmp(a, "--input-limit")) CHOICE(p->input_limit, model_input_names, sim_input_limit);
    else if (!strcmp(a, "--self")) CHOICE(p->self, model_self_names, sim_self);
    else if (!strcmp(a, "--slice-reinit")) p->slice_reinit = 1;
    else if (!strcmp(a, "--interlock")) p->interlock = 1;
#undef INT
#undef CHOICE
    if (!strcmp(a, "--size") && !p->h && p->n % 2) {
        fprintf(stderr, "nocsim %s: --size: %d is odd; the torus needs an even N\n", cmd, p->n);
        return -1;
    }
    /* A mesh's default VC rule gives it all its VCs (docs/openloop.md). */
    if (!mo->rule_set) p->vc_rule = p->topo == TOPO_MESH ? VCRULE_ANY : VCRULE_DATELINE;
    if (!mo->given && strcmp(a, "--slices")) mo->given = a;
    return 0;
}

traffic *model_opts_traffic(const char *cmd, const model_opts *mo, int *status)
{
    char err[512];
    fault_kind kind;
    traffic *t = traffic_new_grid(mo->traffic, mo->params.n, sim_height(&mo->params), mo->seed, &kind, err, sizeof err);
    if (!t) *status = cli_fail(cmd, cli_fault_status(kind), "--traffic: %s", err);
    /* A pattern in which no node sends (an empty file, only self-loops
     * skipped by --self skip) would give an all-zero result: bad input. */
    int senders = 0;
    for (int i = 0; t && i < t->nodes && !senders; i++) senders = t->dest[i] != i || mo->params.self == SELF_SEND;
    if (t && !senders) {
        char q[QUOTE_BUF];
        *status = cli_fail(cmd, EXIT_USAGE, "--traffic %s: no node sends a packet (every node is addressed to "
                           "itself or not listed; --self send sends self-addressed packets)",
                           quote_str(q, sizeof q, mo->traffic));
        traffic_free(t);
        t = NULL;
    }
    return t;
}

const char *model_size_str(const sim_params *p, char *buf, size_t len)
{
    if (sim_height(p) == p->n) snprintf(buf, len, "%d", p->n);
    else snprintf(buf, len, "%dx%d", p->n, sim_height(p));
    return buf;
}

json_t *model_opts_json(const model_opts *mo)
{
    const sim_params *p = &mo->params;
    json_t *j = json_pack("{s:o, s:s, s:s, s:i, s:i, s:i, s:i, s:i, s:I, s:s, s:s, s:s, s:s, s:s, s:s, s:i, s:i}",
                     "traffic", ujson_str(mo->traffic), "topology", model_topology_names[p->topo],
                     "vc_rule", model_vc_rule_names[p->vc_rule], "size", p->n, "slices", p->slices, "flits", p->flits,
                     "vcs", p->vcs, "buffer", p->buffer, "seed", (json_int_t)mo->seed, "tie", model_tie_names[p->tie],
                     "dateline", model_dateline_names[p->dateline], "q_update", model_qupdate_names[p->q_update],
                     "slot_reuse", model_slot_names[p->slot_reuse], "input_limit", model_input_names[p->input_limit],
                     "self", model_self_names[p->self], "slice_reinit", p->slice_reinit, "interlock", p->interlock);
    /* A rectangle's height follows its width ("size"); a square has none. */
    if (j && sim_height(p) != p->n && json_object_set_new(j, "height", json_integer(sim_height(p)))) {
        json_decref(j);
        j = NULL;
    }
    return j;
}
