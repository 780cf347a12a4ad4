/* The link-activity flags (see activity_opts.h). */
#include "cli/activity_opts.h"

#include <string.h>

#include "cli/args.h"
#include "cli/cli.h"
#include "cli/outdest.h"
#include "sim/activity.h"
#include "viz/viz.h"

void activity_opts_default(activity_opts *ao)
{
    memset(ao, 0, sizeof *ao);
    viz_act_opts_default(&ao->draw);
}

const cli_opt activity_opts_table[] = {
    CLI_HEADING("link-activity map (paper Fig. 6; see README, Pictures):"),
    { "--activity", 0, "FILE.png", "draw one column per directed link (router 0 N E S W,\n"
                                   "router 1 ..., node = y*N + x), one row per cycle:\n"
                                   "slice colours, dark grey = blocked (lb), white = idle" },
    { "--activity-scale", 0, "K", "K x K pixels per link-cycle, 1.." CLI_STR(VIZ_ACT_MAX_SCALE) " (default 1)" },
    { "--activity-links", 0, "A:B", "only links A..B (default all, 0:4*N*N-1)" },
    { "--activity-no-legend", 0, NULL, "leave out the legend strip under the map" },
    CLI_END
};

int activity_opts_set(void *ctx, const char *cmd, const char *a, const char *v)
{
    activity_opts *ao = ctx;
    long x, y;
    if (!strcmp(a, "--activity")) {
        ao->path = v;
    } else if (!strcmp(a, "--activity-scale")) {
        if (!arg_int(cmd, a, v, 1, VIZ_ACT_MAX_SCALE, &x)) return -1;
        ao->draw.scale = (int)x;
    } else if (!strcmp(a, "--activity-links")) {
        if (!arg_range(cmd, a, v, 0, 4L * 4096 * 4096, &x, &y)) return -1;
        ao->draw.first = (int)x;
        ao->draw.last = (int)y;
        ao->links_given = 1;
    } else if (!strcmp(a, "--activity-no-legend")) {
        ao->draw.legend = 0;
    }
    return 0;
}

int activity_opts_check(const char *cmd, const activity_opts *ao, const char *const *inputs, int ninputs)
{
    return ao->path ? cli_check_output(cmd, "--activity", ao->path, inputs, ninputs) : EXIT_OK;
}

int activity_opts_write(const char *cmd, const activity_opts *ao, const sim_params *p, const int32_t *dest,
                        const sim_config *c, const sim_metrics *expect, const char *traffic)
{
    if (!ao->path) return EXIT_OK;
    int links = sim_nodes(p) * 4;
    if (ao->links_given && ao->draw.last >= links) {
        fprintf(stderr, "nocsim %s: --activity-links: %d:%d is outside this network's links (allowed: 0:%d)\n",
                cmd, ao->draw.first, ao->draw.last, links - 1);
        return EXIT_USAGE;
    }
    char err[512];
    sim_params rp = *p;
    rp.reference_only = 1; /* the recorder lives in the reference loop: no fast engine to build */
    fault_kind kind = FAULT_RESOURCE;
    sim *s = sim_new(&rp, dest, &kind, err, sizeof err);
    sim_activity *a = sim_activity_new(links);
    int rc = EXIT_OK;
    if (!s || !a) {
        fprintf(stderr, "nocsim %s: --activity: %s\n", cmd, s ? "out of memory" : err);
        rc = cli_fault_status(s ? FAULT_RESOURCE : kind);
        goto out;
    }
    sim_metrics m;
    sim_run_traced(s, c, a, &m);
    if (!sim_activity_ok(a)) {
        fprintf(stderr, "nocsim %s: --activity: out of memory for the link activity\n", cmd);
        rc = EXIT_FAIL;
        goto out;
    }
    /* The two engines are tested to agree; a difference here is a bug. */
    if (expect && (m.duration != expect->duration || m.lb != expect->lb)) {
        fprintf(stderr, "nocsim %s: --activity: internal error: the reference run gives duration %lld, lb %lld, "
                        "not %lld, %lld\n", cmd, (long long)m.duration, (long long)m.lb,
                (long long)expect->duration, (long long)expect->lb);
        rc = EXIT_FAIL;
        goto out;
    }
    int64_t rows = m.duration > sim_activity_cycles(a) ? m.duration : sim_activity_cycles(a);
    char title[512];
    snprintf(title, sizeof title, "NOCSIM %s, %s, %dX%d TORUS, %d SLICE%s OF %d FLITS, INTERVAL %u, T_D %lld, LB %lld", cmd,
             traffic, p->n, sim_height(p), p->slices, p->slices == 1 ? "" : "S", p->flits, c->interval, (long long)m.duration,
             (long long)m.lb);
    viz_act_opts draw = ao->draw;
    draw.title = title;
    outdest d;
    int vr = outdest_start(&d, ao->path, err, sizeof err);
    if (vr == VIZ_OK) {
        vr = viz_act_write_png(a, rows, p->slices, &draw, outdest_path(&d), err, sizeof err);
        if (outdest_finish(&d, vr == VIZ_OK, err, sizeof err) != OUTFILE_OK) vr = VIZ_FAIL;
    }
    if (vr != VIZ_OK) {
        fprintf(stderr, "nocsim %s: --activity: %s\n", cmd, err);
        rc = cli_fault_status((fault_kind)vr);   /* VIZ_* are the kinds */
    }
out:
    sim_activity_free(a);
    sim_free(s);
    return rc;
}
