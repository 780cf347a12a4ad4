/* `nocsim sim`: one simulation, its metrics in text, JSON or CSV. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "cli/activity_opts.h"
#include "cli/args.h"
#include "cli/chromfile.h"
#include "cli/cli.h"
#include "cli/model_opts.h"
#include "cli/opt_group.h"
#include "ga/ga_options.h"
#include "router/arbiter.h"
#include "sim/interval.h"
#include "sim/sim.h"

/* The interval of every slice when --interval is not given. */
#define SIM_CMD_INTERVAL 16

typedef struct {
    model_opts mo;
    int interval;
    int arb, links;
    const char *config;   /* --config FILE, or NULL */
    out_format fmt;
    activity_opts ao;     /* --activity FILE.png */
} sim_opts;

#define OFIELD(f) #f, offsetof(sim_opts, f)
/* sim's own options over sim_opts; defaults: sim_defaults. */
static const opt_row sim_rows[] = {
    { "interval", 0, "V", "inter-slice interval, >= the packet length", OPT_INT, OFIELD(interval), 1,
      SIM_INTERVAL_MAX, 0, 0, NULL, 0, NULL, NULL, 0 },
    { "arb", 0, "Cxx", "VC-selection scheme of every port", OPT_CUSTOM, OFIELD(arb), 0, 0, 0, 0, NULL, 0,
      ga_opt_scheme_parse, ga_opt_scheme_show, 0 },
    { "config", 0, "FILE", "per-router settings (interval, inject, scheme, qorder);\n"
                           "applied over --interval/--arb; format in README", OPT_TEXT, OFIELD(config), 0, 0, 0, 0,
      NULL, 0, NULL, NULL, 0 },
    { "links", 0, NULL, "also list every used link's occupation", OPT_SWITCH, OFIELD(links), 0, 0, 0, 0, NULL, 0,
      NULL, NULL, 0 },
    { "format", 0, NULL, "output format", OPT_CHOICE, OFIELD(fmt), 0, 0, 0, 0, cli_format_names, 3, NULL, NULL,
      0 },
    OPT_END
};

static void help(const cli_spec *spec)
{
    printf("usage: nocsim sim [options]\n\n"
           "Simulate one collective communication: every node sends S slices to its\n"
           "destination under the traffic pattern, slice s of node i released at\n"
           "s*V + I[i].  Prints the duration and the other metrics.\n\n");
    cli_help(stdout, spec);
    printf("\nexample: nocsim sim --traffic brev --slices 2 --interval 16 --arb C00\n");
}

static json_t *links_json(const sim *s, int n, int nodes);

static const char *status_name(sim_status st)
{
    static const char *const names[] = { "ok", "deadlock", "timeout", "cutoff" };
    return names[st];
}

static int print_metrics(FILE *f, out_format fmt, const model_opts *mo, const char *arb,
                         uint32_t interval, const sim_metrics *m, json_t *links)
{
    if (fmt == FMT_JSON) {
        json_t *j = model_opts_json(mo);
        if (j && json_object_update_new(j, json_pack("{s:i, s:o, s:s, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, "
                                                     "s:I, s:I, s:I, s:I}",
                                                     "interval", (int)interval, "arb", ujson_str(arb),
                                                     "status", status_name(m->status), "duration", (json_int_t)m->duration,
                                                     "te", (json_int_t)m->te, "ir", (json_int_t)m->ir, "or", (json_int_t)m->or_,
                                                     "ib", (json_int_t)m->ib, "ob", (json_int_t)m->ob, "lb", (json_int_t)m->lb,
                                                     "flits_injected", (json_int_t)m->flits_injected,
                                                     "flits_ejected", (json_int_t)m->flits_ejected,
                                                     "packets", (json_int_t)m->packets, "idle_nodes", (json_int_t)m->idle_nodes,
                                                     "cycles", (json_int_t)m->cycles, "max_link_flits", (json_int_t)m->max_link_flits,
                                                     "late", (json_int_t)m->late, "late_sum", (json_int_t)m->late_sum))) {
            json_decref(j);
            j = NULL;
        }
        if (j && links && json_object_set_new(j, "links", links)) {
            json_decref(j);
            j = NULL;
        } else if (!j) json_decref(links);
        return cli_json_out("sim", NULL, j);
    } else if (fmt == FMT_CSV) {
        char size[32];
        fprintf(f, "traffic,size,slices,flits,interval,arb,status,duration,te,ir,or,ib,ob,lb,"
                   "flits_injected,flits_ejected,packets,idle_nodes,cycles,max_link_flits,late,late_sum\n");
        cli_csv_field(f, mo->traffic);   /* a file: name may hold a comma or a quote */
        fprintf(f, ",%s,%d,%d,%u,%s,%s,%lld,%lld,%lld,%lld,%lld,%lld,%lld,%lld,%lld,%lld,%lld,%lld,%lld,%lld,%lld\n",
                model_size_str(&mo->params, size, sizeof size), mo->params.slices, mo->params.flits, interval, arb,
                status_name(m->status), (long long)m->duration, (long long)m->te, (long long)m->ir,
                (long long)m->or_, (long long)m->ib, (long long)m->ob, (long long)m->lb,
                (long long)m->flits_injected, (long long)m->flits_ejected, (long long)m->packets,
                (long long)m->idle_nodes, (long long)m->cycles, (long long)m->max_link_flits, (long long)m->late,
                (long long)m->late_sum);
    } else {
        fprintf(f, "traffic %s on a %dx%d %s, %d slice(s) of %d flits, interval %u, arbitration %s\n",
                mo->traffic, mo->params.n, sim_height(&mo->params), model_topology_names[mo->params.topo], mo->params.slices, mo->params.flits, interval, arb);
        if (mo->params.routing != ROUTING_DOR) /* dor's text stays as it was */
            fprintf(f, "routing         %s%s%s\n", routing_info_of(mo->params.routing)->name,
                    routing_info_of(mo->params.routing)->adaptive ? ", selection " : "",
                    routing_info_of(mo->params.routing)->adaptive ? routing_selection_name(mo->params.selection) : "");
        fprintf(f, "status          %s\n", status_name(m->status));
        fprintf(f, "duration T_d    %lld cycles\n", (long long)m->duration);
        fprintf(f, "thickness T_e   %lld cycles (longest link occupation)\n", (long long)m->te);
        fprintf(f, "ir / or         %lld / %lld (queue-selection blocks, in-/out-of-order)\n",
                (long long)m->ir, (long long)m->or_);
        fprintf(f, "ib / ob         %lld / %lld (VC-selection blocks, in-/out-of-order)\n",
                (long long)m->ib, (long long)m->ob);
        fprintf(f, "lb              %lld (link-cycles idle behind full downstream FIFOs)\n", (long long)m->lb);
        fprintf(f, "flits           %lld injected, %lld ejected, %lld packets\n",
                (long long)m->flits_injected, (long long)m->flits_ejected, (long long)m->packets);
        fprintf(f, "idle nodes      %lld (self-addressed, sent nothing)\n", (long long)m->idle_nodes);
        fprintf(f, "busiest link    %lld flits (bound: duration >= %lld)\n",
                (long long)m->max_link_flits, (long long)m->max_link_flits + 1);
        fprintf(f, "late packets    %lld (tails ejected in the last %d cycles)\n", (long long)m->late, mo->params.flits);
        fprintf(f, "late sum        %lld (the sum of the tail cycles in the last %d cycles)\n", (long long)m->late_sum,
                sim_late_sum_window(mo->params.flits));
        fprintf(f, "cycles          %lld simulated\n", (long long)m->cycles);
    }
    return EXIT_OK;
}

/* Every used link's occupation as JSON rows (sim --links --format json). */
static json_t *links_json(const sim *s, int n, int nodes)
{
    json_t *a = json_array();
    for (int k = 0; a && k < nodes * 4; k++) {
        int64_t first, last, fl;
        sim_link_stats(s, k, &first, &last, &fl);
        if (first < 0) continue;
        int i = k / 4;
        char port[2] = { route_port_name(k % 4), 0 };
        if (json_array_append_new(a, json_pack("{s:i, s:i, s:i, s:s, s:I, s:I, s:I, s:I}", "node", i, "x", i % n, "y", i / n,
                                               "port", port, "first", (json_int_t)first, "last", (json_int_t)last,
                                               "occupation", (json_int_t)(last - first + 1), "flits", (json_int_t)fl))) {
            json_decref(a);
            a = NULL;
        }
    }
    return a;
}

static void print_links(FILE *f, out_format fmt, const sim *s, int n, int nodes)
{
    if (fmt == FMT_TEXT) fprintf(f, "\nlink occupation (node x y port first last occupation flits):\n");
    else fprintf(f, "node,x,y,port,first,last,occupation,flits\n");
    for (int k = 0; k < nodes * 4; k++) {
        int64_t a, b, fl;
        sim_link_stats(s, k, &a, &b, &fl);
        if (a < 0) continue;
        int i = k / 4;
        fprintf(f, fmt == FMT_TEXT ? "%d %d %d %c %lld %lld %lld %lld\n" : "%d,%d,%d,%c,%lld,%lld,%lld,%lld\n",
                i, i % n, i / n, route_port_name(k % 4), (long long)a, (long long)b, (long long)(b - a + 1),
                (long long)fl);
    }
}

static void sim_defaults(sim_opts *o)
{
    memset(o, 0, sizeof *o);
    model_opts_default(&o->mo);
    o->interval = SIM_CMD_INTERVAL;
    o->fmt = FMT_TEXT;
    activity_opts_default(&o->ao);
}

/* Fills o from argv with the option tables (g: sim's rows, the caller
 * frees it).  Returns EXIT_OK, CLI_HELP (after the help), EXIT_USAGE after
 * a message, or EXIT_FAIL when memory runs out. */
static int parse(int argc, char **argv, sim_opts *o, opt_group *g)
{
    sim_defaults(o);
    model_table mt;
    if (opt_group_init(g, sim_rows, o, sizeof *o)) return cli_fail("sim", EXIT_FAIL, "out of memory");
    if (model_table_init(&mt, &o->mo)) return cli_fail("sim", EXIT_FAIL, "out of memory");
    const cli_group groups[] = { opt_group_cli(g), MODEL_OPTS_GROUP(&mt, &o->mo), ACTIVITY_OPTS_GROUP(&o->ao) };
    const cli_spec spec = { "sim", groups, 3, NULL, NULL };
    int rc = cli_parse(&spec, argc, argv);
    if (rc == CLI_HELP) help(&spec);
    model_table_free(&mt);
    if (rc != EXIT_OK) return rc;
    if (o->mo.params.slices == 1 && o->interval < o->mo.params.flits) o->interval = o->mo.params.flits;
    return EXIT_OK;
}

/* The simulation of o, kept until sim_run_clear: the simulator (for the
 * link table), its configuration and metrics. */
typedef struct {
    traffic *t;
    sim_config *c;
    sim *s;
    sim_metrics m;
    sim_status st;
} sim_run_state;

static void sim_run_clear(sim_run_state *r)
{
    sim_free(r->s);
    sim_config_free(r->c);
    traffic_free(r->t);
}

/* Builds the configuration (--interval, --arb, then --config over them) and
 * runs it.  A run that does not finish is not an error here. */
static int run(const sim_opts *o, sim_run_state *r)
{
    const sim_params *p = &o->mo.params;
    char err[512];
    int rc;
    if (!(r->t = model_opts_traffic("sim", &o->mo, &rc))) return rc;
    if (!(r->c = sim_config_new(r->t->nodes, p->vcs, o->arb, (uint32_t)o->interval)))
        return cli_fail("sim", EXIT_FAIL, "out of memory");
    int loaded = o->config ? chromfile_load(r->c, p->n, o->config, err, sizeof err) : 0;
    if (loaded < 0) return cli_fail("sim", cli_fault_status(fault_of(loaded)), "--config: %s", err);
    if (r->c->interval < (uint32_t)p->flits)
        return cli_fail("sim", EXIT_USAGE, "--interval: %u is below the packet length %d (allowed: >= %d)",
                        r->c->interval, p->flits, p->flits);
    fault_kind kind;
    char msg[600];
    if (!(r->s = sim_new(p, r->t->dest, &kind, err, sizeof err)))
        return cli_fail("sim", cli_fault_status(kind), "%s", model_flag_message(err, NULL, 0, msg, sizeof msg));
    r->st = sim_run(r->s, r->c, &r->m);
    return EXIT_OK;
}

/* A run that did not finish: why, on stderr (the metrics are printed anyway). */
static int report_unfinished(const sim_opts *o, const sim_run_state *r)
{
    if (r->st == SIM_OK) return EXIT_OK;
    if (r->st == SIM_DEADLOCK) {
        fprintf(stderr, "nocsim sim: deadlock: no flit moved for %d cycles, declared at cycle %lld; blocked FIFOs:\n",
                o->mo.params.deadlock_cycles, (long long)r->m.stop_cycle);
        sim_report_blocked(r->s, stderr, 40);
        return EXIT_FAIL;
    }
    return cli_fail("sim", EXIT_FAIL, "stopped at cycle %lld (%s)", (long long)r->m.stop_cycle, status_name(r->st));
}

int cmd_sim(int argc, char **argv)
{
    sim_opts o;
    opt_group g = { 0 };
    int rc = parse(argc, argv, &o, &g);
    if (opt_groups_done(&g, 1, &rc)) return rc;
    const char *inputs[] = { o.config, cli_traffic_file(o.mo.traffic) };
    if ((rc = activity_opts_check("sim", &o.ao, inputs, 2)) != EXIT_OK) return rc;
    sim_run_state r;
    memset(&r, 0, sizeof r);
    if ((rc = run(&o, &r)) == EXIT_OK) rc = activity_opts_write("sim", &o.ao, &o.mo.params, r.t->dest, r.c, &r.m, o.mo.traffic);
    if (rc == EXIT_OK) {
        json_t *links = o.links && o.fmt == FMT_JSON ? links_json(r.s, o.mo.params.n, sim_nodes(&o.mo.params)) : NULL;
        if (o.links && o.fmt == FMT_JSON && !links) rc = cli_fail("sim", EXIT_FAIL, "out of memory");
        else rc = print_metrics(stdout, o.fmt, &o.mo, o.config ? "config" : vcsel_name(o.arb), r.c->interval, &r.m, links);
        if (o.links && o.fmt != FMT_JSON) print_links(stdout, o.fmt, r.s, o.mo.params.n, sim_nodes(&o.mo.params));
        if (rc == EXIT_OK) rc = report_unfinished(&o, &r);
    }
    sim_run_clear(&r);
    return rc;
}
