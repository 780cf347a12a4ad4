/* Shared model options (see model_opts.h). */
#include "cli/model_opts.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "cli/args.h"
#include "cli/status.h"
#include "router/routing.h"
#include "sim/ol_config.h"
#include "sim/ol_options.h"
#include "util/parse.h"
#include "util/quote.h"

/* The traffic the closed-loop commands run when none is given. */
#define MODEL_DEFAULT_TRAFFIC "brev"

void model_opts_default(model_opts *mo)
{
    memset(mo, 0, sizeof *mo);
    sim_params_default(&mo->params);
    mo->traffic = MODEL_DEFAULT_TRAFFIC;
    mo->seed = OL_DEFAULT_SEED;
    mo->params.route_seed = sim_route_seed(mo->seed);
}

/* --routing NAME into the routing_kind at r's offset (our names or BookSim2's). */
static int parse_routing(const opt_row *r, void *base, const char *v, char *err, size_t errlen)
{
    const int k = v ? routing_parse(v) : -1;
    char q[QUOTE_BUF], names[256];
    if (k < 0)
        return snprintf(err, errlen, "'%s' is not a routing function (allowed: %s)", quote_str(q, sizeof q, v),
                        routing_names(names, sizeof names)), -FAULT_INPUT;
    *(routing_kind *)(void *)((char *)base + r->offset) = (routing_kind)k;
    return 0;
}

static void show_routing(const opt_row *r, const void *base, char *buf, size_t len)
{
    snprintf(buf, len, "%s", routing_info_of(*(const routing_kind *)(const void *)((const char *)base + r->offset))->name);
}

/* --selection RULE into the routing_selection at r's offset. */
static int parse_selection(const opt_row *r, void *base, const char *v, char *err, size_t errlen)
{
    const int k = v ? routing_selection_parse(v) : -1;
    char q[QUOTE_BUF];
    if (k < 0)
        return snprintf(err, errlen, "'%s' is not a selection rule (allowed: credits, random, first)",
                        quote_str(q, sizeof q, v)), -FAULT_INPUT;
    *(routing_selection *)(void *)((char *)base + r->offset) = (routing_selection)k;
    return 0;
}

static void show_selection(const opt_row *r, const void *base, char *buf, size_t len)
{
    snprintf(buf, len, "%s",
             routing_selection_name(*(const routing_selection *)(const void *)((const char *)base + r->offset)));
}

/* The rows over model_opts itself (the network's and the model's are over
 * sim_params: sim/ol_options.h's sim_net_options, sim_model_options). */
static const opt_row model_rows[] = {
    { NULL, 0, NULL, "traffic and routing:", OPT_HEADING, NULL, 0, 0, 0, 0, 0, NULL, 0, NULL, NULL, 0 },
    { "traffic", 0, "T", "bcmp brev brot shfl torn trns randperm file:PATH", OPT_TEXT, "traffic",
      offsetof(model_opts, traffic), 0, 0, 0, 0, NULL, 0, NULL, NULL, 0 },
    { "routing", 0, "NAME", "the routing function: yx, o1turn, romm, west-first,\n"
                            "north-last, negative-first, odd-even on a mesh;\n"
                            "dor2 (2 VCs), valiant (4), min-adaptive (3) on either;\n"
                            "docs/model.md [R-RF-*]\n"
                            "(any but dor: the GA's floor counts the sources alone, cut\n"
                            "runs have no load bound, children are all run: [R-RF-10])",
      OPT_CUSTOM, "routing", offsetof(model_opts, params.routing), 0, 0, 0, 0, NULL, 0, parse_routing, show_routing, 0 },
    { "selection", 0, "RULE", "an adaptive function's port: credits, random, first", OPT_CUSTOM, "selection",
      offsetof(model_opts, params.selection), 0, 0, 0, 0, NULL, 0, parse_selection, show_selection, 0 },
    { "seed", 's', "X", "seed for randperm and random choices", OPT_I64, "seed", offsetof(model_opts, seed), 0,
      OL_SEED_MAX, 0, 0, NULL, 0, NULL, NULL, 0 },
    /* read by model_opts_set itself (read_config): the row gives its help */
    { "config", 0, "FILE", "an experiment file: `key = value` settings of these options,\n"
                           "by name or BookSim2's (docs/config.md); flags override it",
      OPT_TEXT, "config", offsetof(model_opts, config), 0, 0, 0, 0, NULL, 0, NULL, NULL, 0 },
    OPT_END
};

/* The row named name (and the struct it sets), or NULL. */
static const opt_row *model_row(model_opts *mo, const char *name, void **base)
{
    const opt_row *r = opt_find(model_rows, name);
    *base = mo;
    if (r) return r;
    *base = &mo->params;
    if ((r = opt_find(sim_net_options, name))) return r;
    return opt_find(sim_model_options, name);
}

static int given(const model_opts *mo, const opt_row *r)
{
    for (int i = 0; i < mo->ngiven; i++)
        if (mo->given_rows[i] == r) return 1;
    return 0;
}

/* After r was set: what depends on it. */
static void after_set(model_opts *mo, const opt_row *r)
{
    sim_params *p = &mo->params;
    if (!strcmp(r->name, "topology")) mo->topo_set = 1;
    if (!strcmp(r->name, "vc-rule")) mo->rule_set = 1;
    if (!strcmp(r->name, "seed")) p->route_seed = sim_route_seed(mo->seed);
    if (!mo->rule_set) p->vc_rule = routing_default_vc_rule(p->routing, p->topo);
}

/* One setting of a --config file (where: "--config F, line N: KEY").  0, or
 * -1 after a message. */
static int config_setting(model_opts *mo, const char *cmd, const char *where, const char *name, const char *value)
{
    int64_t len;
    /* load's packet mix is the closed-loop model's one length */
    if (!strcmp(name, "packet")) {
        if (parse_int(value, 2, SIM_MAX_FLITS, &len) != PARSE_OK)
            return fprintf(stderr, "nocsim %s: %s: one packet length in [2, %d] (a mix is load's)\n", cmd, where,
                           SIM_MAX_FLITS), -1;
        name = "flits";
    }
    void *base;
    const opt_row *r = model_row(mo, name, &base);
    char err[512];
    if (!r || !strcmp(name, "config"))
        return fprintf(stderr, "nocsim %s: %s: not an option of %s (docs/config.md: some keys are load's only)\n", cmd,
                       where, cmd), -1;
    model_opts copy = *mo;
    if (given(mo, r)) base = (char *)&copy + ((char *)base - (char *)mo); /* overridden: only checked */
    if (opt_set(r, base, value, err, sizeof err)) return fprintf(stderr, "nocsim %s: %s: %s\n", cmd, where, err), -1;
    if (given(mo, r)) return 0;
    if (r->type == OPT_TEXT) {
        snprintf(mo->traffic_buf, sizeof mo->traffic_buf, "%s", value);
        mo->traffic = mo->traffic_buf;
    }
    after_set(mo, r);
    return 0;
}

static int read_config(model_opts *mo, const char *cmd, const char *path)
{
    char err[1024], q[QUOTE_BUF];
    quote_str(q, sizeof q, path);
    ol_config c;
    int rc = ol_config_read(path, q, &c, err, sizeof err);
    if (rc) fprintf(stderr, "nocsim %s: --config %s\n", cmd, err);
    for (int i = 0; !rc && i < c.n; i++) {
        /* The router timing a BookSim2 file implies without naming it is
         * load's: closed-loop runs take the model's. */
        if (c.set[i].implied) continue;
        char where[QUOTE_BUF + 160];
        snprintf(where, sizeof where, "--config %s, line %ld: %s", q, c.set[i].line, c.set[i].key);
        rc = config_setting(mo, cmd, where, c.set[i].name, c.set[i].value);
    }
    if (!rc && *c.approx)
        fprintf(stderr, "nocsim %s: --config %s: taken as the nearest nocsim has (docs/config.md): %s\n", cmd, q,
                c.approx);
    ol_config_free(&c);
    return rc ? -1 : 0;
}

int model_opts_set(void *ctx, const char *cmd, const char *a, const char *v)
{
    model_opts *mo = ctx;
    void *base;
    if (!mo->given[0] && strcmp(a, "--slices")) snprintf(mo->given, sizeof mo->given, "%s", a);
    if (!strcmp(a, "--config")) return read_config(mo, cmd, v);
    const opt_row *r = model_row(mo, a + 2, &base);
    char err[512];
    if (!r || r->type == OPT_HEADING) return fprintf(stderr, "nocsim %s: %s: not a model option\n", cmd, a), -1;
    if (opt_set(r, base, v, err, sizeof err)) return fprintf(stderr, "nocsim %s: %s: %s\n", cmd, a, err), -1;
    if (!given(mo, r) && mo->ngiven < MODEL_MAX_ROWS) mo->given_rows[mo->ngiven++] = r;
    after_set(mo, r);
    return 0;
}

int model_table_init(model_table *t, model_opts *mo)
{
    memset(t, 0, sizeof *t);
    const opt_row *const rows[MODEL_GROUPS] = { model_rows, sim_net_options, sim_model_options };
    void *const base[MODEL_GROUPS] = { mo, &mo->params, &mo->params };
    const size_t size[MODEL_GROUPS] = { sizeof *mo, sizeof mo->params, sizeof mo->params };
    int n = 0;
    for (t->made = 0; t->made < MODEL_GROUPS; t->made++) {
        if (opt_group_init(&t->g[t->made], rows[t->made], base[t->made], size[t->made])) goto fail;
        n += t->g[t->made].n;
    }
    if (!(t->opts = calloc((size_t)n + 1, sizeof *t->opts))) goto fail;
    n = 0;
    for (int k = 0; k < MODEL_GROUPS; k++)
        for (int i = 0; i < t->g[k].n; i++) t->opts[n++] = t->g[k].opts[i];
    t->opts[n] = (cli_opt)CLI_END;
    return 0;
fail:
    model_table_free(t);
    return -1;
}

void model_table_free(model_table *t)
{
    for (int k = 0; k < t->made; k++) opt_group_free(&t->g[k]);
    free(t->opts);
    memset(t, 0, sizeof *t);
}

const char *model_flag_message(const char *msg, const opt_row *const *extra, int nextra, char *buf, size_t len)
{
    const opt_row *tables[MODEL_GROUPS + 8] = { model_rows, sim_net_options, sim_model_options };
    int n = MODEL_GROUPS;
    for (int k = 0; k < nextra && n < MODEL_GROUPS + 8; k++) tables[n++] = extra[k];
    return opt_flag_message(tables, n, msg, buf, len);
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
    /* A routing function but dor, and an adaptive one's selection rule (as
     * load's records): absent under dor, so that dor's records stay as they were. */
    const routing_info *ri = routing_info_of(p->routing);
    if (j && p->routing != ROUTING_DOR &&
        (json_object_set_new(j, "routing", json_string(ri->name)) ||
         (ri->adaptive && json_object_set_new(j, "selection", json_string(routing_selection_name(p->selection)))))) {
        json_decref(j);
        j = NULL;
    }
    return j;
}
