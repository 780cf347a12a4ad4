/* The open-loop option tables (see ol_options.h). */
#include "sim/ol_options.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "router/arbiter.h"
#include "router/routing.h"
#include "util/parse.h"
#include "util/quote.h"

const char *const ol_topology_names[] = { "torus", "mesh" };
const char *const ol_vc_rule_names[] = { "dateline", "any" };
const char *const ol_tie_names[] = { "nowrap", "plus", "minus" };
const char *const ol_process_names[] = { "bernoulli", "periodic", "onoff" };
const char *const ol_self_names[] = { "skip", "send" };
const char *const ol_vc_alloc_names[] = { "lowest", "rotate" };
const char *const sim_dateline_names[] = { "on-link", "after-link" };
const char *const sim_qupdate_names[] = { "tail", "rotate" };
const char *const sim_slot_names[] = { "next-cycle", "same-cycle" };
const char *const sim_input_names[] = { "vc", "port" };

#define NAMES(a) (a), (int)(sizeof(a) / sizeof(a)[0])
#define FIELD(f) #f, offsetof(ol_params, f)

/* ---- custom rows ---- */

/* One side of a grid, or a message naming the value and the range. */
static int side(const char *s, int *out, char *err, size_t errlen)
{
    int64_t v;
    parse_status st = parse_int(s, OL_MIN_SIDE, OL_MAX_SIDE, &v);
    if (st != PARSE_OK) return parse_explain_int(err, errlen, st, s, OL_MIN_SIDE, OL_MAX_SIDE), -FAULT_INPUT;
    *out = (int)v;
    return 0;
}

/* v as "A" (0) or "A<sep>B" (1) with A into a (len bytes) and *b at B;
 * -1 when a side is empty or too long or sep comes twice. */
static int split2(const char *v, char sep, char *a, size_t len, const char **b)
{
    const char *c = v ? strchr(v, sep) : NULL;
    size_t n = c ? (size_t)(c - v) : 0;
    if (!c) return v ? 0 : -1;
    if (n == 0 || n >= len || !c[1] || strchr(c + 1, sep)) return -1;
    memcpy(a, v, n);
    a[n] = '\0';
    *b = c + 1;
    return 1;
}

/* "N" (N x N) or "WxH". */
static int parse_size(const opt_row *r, void *base, const char *v, char *err, size_t errlen)
{
    (void)r;
    ol_params *p = base;
    char a[32], q[QUOTE_BUF];
    const char *b = NULL;
    int w, h, two = split2(v, 'x', a, sizeof a, &b);
    if (two < 0)
        return snprintf(err, errlen, "'%s' is not N or WxH (each side in [%d, %d])", quote_str(q, sizeof q, v),
                        OL_MIN_SIDE, OL_MAX_SIDE), -FAULT_INPUT;
    if (side(two ? a : v, &w, err, errlen) || side(two ? b : v, &h, err, errlen)) return -FAULT_INPUT;
    p->net.rp.w = p->net.rp.n = w;
    p->net.rp.h = h;
    return 0;
}

static void show_size(const opt_row *r, const void *base, char *buf, size_t len)
{
    (void)r;
    const route_params *rp = &((const ol_params *)base)->net.rp;
    if (rp->w == rp->h) snprintf(buf, len, "%d", rp->w);
    else snprintf(buf, len, "%dx%d", rp->w, rp->h);
}

/* sim_params' size: "N" (even, [SIM_MIN_N, SIM_MAX_N]) or "WxH" (each in
 * [2, SIM_MAX_N]); h is 0 for a square (sim_height). */
static int parse_sim_size(const opt_row *r, void *base, const char *v, char *err, size_t errlen)
{
    (void)r;
    sim_params *p = base;
    char a[32], q[QUOTE_BUF];
    const char *b = NULL;
    int two = split2(v, 'x', a, sizeof a, &b);
    int64_t w, h, lo = two > 0 ? 2 : SIM_MIN_N;
    parse_status st;
    if (two < 0)
        return snprintf(err, errlen, "'%s' is not N or WxH (each side in [2, %d])", quote_str(q, sizeof q, v),
                        SIM_MAX_N), -FAULT_INPUT;
    const char *first = two ? a : v, *second = two ? b : v;
    if ((st = parse_int(first, lo, SIM_MAX_N, &w)) != PARSE_OK)
        return parse_explain_int(err, errlen, st, first, lo, SIM_MAX_N), -FAULT_INPUT;
    if ((st = parse_int(second, lo, SIM_MAX_N, &h)) != PARSE_OK)
        return parse_explain_int(err, errlen, st, second, lo, SIM_MAX_N), -FAULT_INPUT;
    if (w == h && w % 2)
        return snprintf(err, errlen, "%d is odd; a closed-loop run's grid needs an even width, on a mesh too", (int)w),
               -FAULT_INPUT;
    p->n = (int)w;
    p->h = w == h ? 0 : (int)h;
    return 0;
}

static void show_sim_size(const opt_row *r, const void *base, char *buf, size_t len)
{
    (void)r;
    const sim_params *p = base;
    if (!p->h || p->h == p->n) snprintf(buf, len, "%d", p->n);
    else snprintf(buf, len, "%dx%d", p->n, p->h);
}

static int parse_arb(const opt_row *r, void *base, const char *v, char *err, size_t errlen)
{
    (void)r;
    int k = v ? vcsel_parse(v) : -1;
    char q[QUOTE_BUF];
    if (k < 0)
        return snprintf(err, errlen, "'%s' is not a scheme (allowed: C00-C%02d)", quote_str(q, sizeof q, v),
                        VCSEL_NSCHEMES - 1), -FAULT_INPUT;
    ((ol_params *)base)->net.scheme = k;
    return 0;
}

static int parse_routing(const opt_row *r, void *base, const char *v, char *err, size_t errlen)
{
    (void)r;
    int k = v ? routing_parse(v) : -1;
    char q[QUOTE_BUF], names[256];
    if (k < 0)
        return snprintf(err, errlen, "'%s' is not a routing function (allowed: %s)", quote_str(q, sizeof q, v),
                        routing_names(names, sizeof names)), -FAULT_INPUT;
    ((ol_params *)base)->net.routing = (routing_kind)k;
    return 0;
}

static void show_routing(const opt_row *r, const void *base, char *buf, size_t len)
{
    (void)r;
    snprintf(buf, len, "%s", routing_info_of(((const ol_params *)base)->net.routing)->name);
}

static int parse_selection(const opt_row *r, void *base, const char *v, char *err, size_t errlen)
{
    (void)r;
    int k = v ? routing_selection_parse(v) : -1;
    char q[QUOTE_BUF];
    if (k < 0)
        return snprintf(err, errlen, "'%s' is not a selection rule (allowed: credits, random, first)",
                        quote_str(q, sizeof q, v)), -FAULT_INPUT;
    ((ol_params *)base)->net.selection = (routing_selection)k;
    return 0;
}

static void show_selection(const opt_row *r, const void *base, char *buf, size_t len)
{
    (void)r;
    snprintf(buf, len, "%s", routing_selection_name(((const ol_params *)base)->net.selection));
}

static void show_arb(const opt_row *r, const void *base, char *buf, size_t len)
{
    (void)r;
    snprintf(buf, len, "%s", vcsel_name(((const ol_params *)base)->net.scheme));
}

static int parse_packet(const opt_row *r, void *base, const char *v, char *err, size_t errlen)
{
    (void)r;
    return ol_parse_packet_mix(base, v ? v : "", err, errlen) ? -FAULT_INPUT : 0;
}

/* "8", or the mix "1:0.5,8:0.5". */
static void show_packet(const opt_row *r, const void *base, char *buf, size_t len)
{
    (void)r;
    const ol_params *p = base;
    buf[0] = '\0';
    if (p->nlen == 1) {
        snprintf(buf, len, "%d", p->len[0]);
        return;
    }
    for (int k = 0; k < p->nlen; k++) {
        size_t n = strlen(buf);
        snprintf(buf + n, len - n, "%s%d:%g", k ? "," : "", p->len[k], p->prob[k]);
    }
}

/* "bernoulli", "periodic" or "onoff:BURST:IDLE" (the on/off source's mean
 * on and off periods in cycles, each in [OL_BURST_MIN, OL_BURST_MAX]). */
static int parse_process(const opt_row *r, void *base, const char *v, char *err, size_t errlen)
{
    (void)r;
    ol_params *p = base;
    char q[QUOTE_BUF], a[64];
    const char *b = NULL;
    if (v && (!strcmp(v, "bernoulli") || !strcmp(v, "periodic"))) {
        p->process = v[0] == 'b' ? OL_BERNOULLI : OL_PERIODIC;
        return 0;
    }
    double burst, idle;
    if (v && !strncmp(v, "onoff:", 6) && split2(v + 6, ':', a, sizeof a, &b) == 1 &&
        parse_real(a, OL_BURST_MIN, OL_BURST_MAX, &burst) == PARSE_OK &&
        parse_real(b, OL_BURST_MIN, OL_BURST_MAX, &idle) == PARSE_OK) {
        p->process = OL_ONOFF;
        p->burst = burst;
        p->idle = idle;
        return 0;
    }
    return snprintf(err, errlen, "'%s' is not one of: bernoulli periodic onoff:BURST:IDLE (mean on and off periods "
                    "in cycles, each in [%g, %g])", quote_str(q, sizeof q, v ? v : ""), OL_BURST_MIN, OL_BURST_MAX),
           -FAULT_INPUT;
}

static void show_process(const opt_row *r, const void *base, char *buf, size_t len)
{
    (void)r;
    const ol_params *p = base;
    if (p->process == OL_ONOFF) snprintf(buf, len, "onoff:%g:%g", p->burst, p->idle);
    else snprintf(buf, len, "%s", ol_process_names[p->process]);
}

/* A latency histogram's bins: "W" cycles wide (in [1, OL_HIST_WIDTH_MAX]) or
 * "log2" ([2^k, 2^(k+1))); "off" shown when none. */
static int parse_histogram(const opt_row *r, void *base, const char *v, char *err, size_t errlen)
{
    (void)r;
    ol_params *p = base;
    int64_t w;
    char q[QUOTE_BUF];
    if (v && !strcmp(v, "log2")) {
        p->hist_log = 1;
        p->hist_width = 0;
        return 0;
    }
    if (v && parse_int(v, 1, OL_HIST_WIDTH_MAX, &w) == PARSE_OK) {
        p->hist_width = (int)w;
        p->hist_log = 0;
        return 0;
    }
    return snprintf(err, errlen, "'%s': expected a bin width in [1, %d] cycles, or log2",
                    quote_str(q, sizeof q, v ? v : ""), OL_HIST_WIDTH_MAX), -FAULT_INPUT;
}

static void show_histogram(const opt_row *r, const void *base, char *buf, size_t len)
{
    (void)r;
    const ol_params *p = base;
    if (p->hist_log) snprintf(buf, len, "log2");
    else if (p->hist_width) snprintf(buf, len, "%d", p->hist_width);
    else snprintf(buf, len, "off");
}

/* "MIN:MAX" or "N" (N:N), 1 <= MIN <= MAX <= OL_WARMUP_MAX. */
static int parse_warmup(const opt_row *r, void *base, const char *v, char *err, size_t errlen)
{
    (void)r;
    ol_params *p = base;
    char a[32], q[QUOTE_BUF];
    const char *b = NULL;
    int64_t lo = 0, hi = 0;
    int two = split2(v, ':', a, sizeof a, &b);
    parse_status st = two < 0 ? PARSE_SYNTAX : parse_int(two ? a : v, 1, OL_WARMUP_MAX, &lo);
    if (st == PARSE_OK) st = parse_int(two ? b : v, 1, OL_WARMUP_MAX, &hi);
    if (st != PARSE_OK) {
        char why[QUOTE_BUF + 96];
        parse_explain_int(why, sizeof why, st, v, 1, OL_WARMUP_MAX);
        return snprintf(err, errlen, "%s, as MIN:MAX or N", why), -FAULT_INPUT;
    }
    if (lo > hi)
        return snprintf(err, errlen, "'%s' is an empty range (MIN:MAX with MIN <= MAX)", quote_str(q, sizeof q, v)),
               -FAULT_INPUT;
    p->warmup_min = (int)lo;
    p->warmup_max = (int)hi;
    return 0;
}

static void show_warmup(const opt_row *r, const void *base, char *buf, size_t len)
{
    (void)r;
    const ol_params *p = base;
    snprintf(buf, len, "%d:%d", p->warmup_min, p->warmup_max);
}

/* ---- the tables ---- */

#define HEADING(text) { NULL, 0, NULL, text, OPT_HEADING, NULL, 0, 0, 0, 0, 0, NULL, 0, NULL, NULL, 0 }

/* The network rows every network-building command shares, over any
 * struct T with the fields named (ol_params here, sim_params below). */
#define ROW_TOPOLOGY(T, f)                                                                                 \
    { "topology", 0, NULL, "the network; a mesh has no wrap links", OPT_CHOICE, #f, offsetof(T, f), 0, 0, 0, 0, \
      NAMES(ol_topology_names), NULL, NULL, 0 }
#define ROW_VCS(T, f)                                                                                       \
    { "vcs", 0, "V", "virtual channels per link, >= 3 on a torus", OPT_INT, #f, offsetof(T, f), 1, SIM_MAX_VCS, \
      0, 0, NULL, 0, NULL, NULL, 0 }
#define ROW_BUFFER(T, f)                                                                                         \
    { "buffer", 0, "B", "flits per input-VC FIFO", OPT_INT, #f, offsetof(T, f), 1, OL_MAX_BUFFER, 0, 0, NULL, 0, \
      NULL, NULL, 0 }
#define ROW_VC_RULE(T, f)                                                                                   \
    { "vc-rule", 0, NULL, "which VC a header may take: its own, one up at each dateline\n"                 \
                          "(torus default; dor's only choice there), or any free VC of\n"               \
                          "its port's class (mesh default; dor2, valiant, min-adaptive\n"               \
                          "take it on a torus too)",                                                      \
      OPT_CHOICE, #f, offsetof(T, f), 0, 0, 0, 0, NAMES(ol_vc_rule_names), NULL, NULL, 1 }
#define ROW_TIE(T, f)                                                                                          \
    { "tie", 0, NULL, "torus route at a distance of exactly half a ring", OPT_CHOICE, #f, offsetof(T, f), 0, 0, 0, \
      0, NAMES(ol_tie_names), NULL, NULL, 0 }

const opt_row ol_net_options[] = {
    HEADING("network:"),
    ROW_TOPOLOGY(ol_params, net.rp.topo),
    { "size", 0, "N|WxH", "grid of W x H routers, each side", OPT_CUSTOM, "size", offsetof(ol_params, net.rp),
      OL_MIN_SIDE, OL_MAX_SIDE, 0, 0, NULL, 0, parse_size, show_size, 0 },
    ROW_VCS(ol_params, net.vcs),
    ROW_BUFFER(ol_params, net.buffer),
    ROW_VC_RULE(ol_params, net.vc_rule),
    { "arb", 0, "Cxx", "VC-selection scheme of every port, C00-C09", OPT_CUSTOM, FIELD(net.scheme), 0, 0, 0, 0, NULL,
      0, parse_arb, show_arb, 0 },
    ROW_TIE(ol_params, net.rp.tie),
    { "routing", 0, "NAME", "dor, yx, o1turn, valiant, romm, west-first, north-last,\n"
                            "negative-first, odd-even, min-adaptive, dor2 (two classes\n"
                            "a ring); a torus takes dor, dor2 (2 VCs), valiant (4 VCs)\n"
                            "and min-adaptive (3 VCs) alone; BookSim2's names xy_yx,\n"
                            "min_adapt, dim_order too",
      OPT_CUSTOM, FIELD(net.routing), 0, 0, 0, 0, NULL, 0, parse_routing, show_routing, 0 },
    { "selection", 0, "RULE", "an adaptive function's port: credits (most free slots\n"
                              "downstream), random, first (E, W, N, S)",
      OPT_CUSTOM, FIELD(net.selection), 0, 0, 0, 0, NULL, 0, parse_selection, show_selection, 0 },
    { "vc-alloc", 0, NULL, "under the any VC rule, which free VC of its port a header\n"
                           "gets: the lowest, or the one after the port's last grant,\n"
                           "going round (BookSim2's VC allocator)",
      OPT_CHOICE, FIELD(net.vc_rotate), 0, 0, 0, 0, NAMES(ol_vc_alloc_names), NULL, NULL, 0 },
    { "router-delay", 0, "D", "router timing: extra cycles a header waits at its FIFO's\n"
                              "head before it may be granted (routing, allocation)",
      OPT_INT, FIELD(net.router_delay), 0, OLNET_MAX_DELAY, 0, 0, NULL, 0, NULL, NULL, 0 },
    { "switch-delay", 0, "S", "extra cycles a flit a router sends spends in its switch",
      OPT_INT, FIELD(net.switch_delay), 0, OLNET_MAX_DELAY, 0, 0, NULL, 0, NULL, NULL, 0 },
    { "link-delay", 0, "L", "extra cycles a flit spends on a link (injection and\n"
                            "ejection channels too)", OPT_INT, FIELD(net.link_delay), 0, OLNET_MAX_DELAY, 0, 0, NULL, 0,
      NULL, NULL, 0 },
    { "credit-delay", 0, "C", "extra cycles before a freed slot is seen by its sender;\n"
                              "all 0: the model's one hop a cycle; BookSim2's iq router\n"
                              "of the reference config: D S L C = 1 1 1 1 (docs/model.md)",
      OPT_INT, FIELD(net.credit_delay), 0, OLNET_MAX_DELAY, 0, 0, NULL, 0, NULL, NULL, 0 },
    OPT_END
};

const opt_row ol_packet_options[] = {
    HEADING("packets:"),
    { "packet", 0, "MIX", "length in flits, or a mix LEN:PROB,...", OPT_CUSTOM, FIELD(len), 0, 0, 0, 0, NULL, 0,
      parse_packet, show_packet, 0 },
    { "process", 0, "bernoulli|periodic|onoff:B:I", "when a source generates: a coin per cycle, evenly\n"
                                                    "spaced, or in bursts of mean B cycles and idle periods\n"
                                                    "of mean I (the same mean rate)",
      OPT_CUSTOM, FIELD(process), 0, 0, 0, 0, NULL, 0, parse_process, show_process, 0 },
    OPT_END
};

const opt_row ol_measure_options[] = {
    HEADING("measurement:"),
    { "batch", 0, "C", "cycles per batch", OPT_INT, FIELD(batch), OL_BATCH_MIN, OL_BATCH_MAX, 0, 0, NULL, 0, NULL,
      NULL, 0 },
    { "warmup", 0, "MIN:MAX", "warm-up batches; steady when two batch means differ by\n"
                              "at most --warmup-tolerance; MIN and MAX each",
      OPT_CUSTOM, FIELD(warmup_min), 1, OL_WARMUP_MAX, 0, 0, NULL, 0, parse_warmup, show_warmup, 0 },
    { "warmup-tolerance", 0, "F", "", OPT_REAL, FIELD(warmup_tol), 0, 1, 0, 0, NULL, 0, NULL, NULL, 0 },
    { "window", 0, "K", "measurement batches (CI95 by batch means)", OPT_INT, FIELD(window), OL_WINDOW_MIN,
      OL_WINDOW_MAX, 0, 0, NULL, 0, NULL, NULL, 0 },
    { "drain-cap", 0, "C", "most drain cycles", OPT_I64, FIELD(drain_cap), 0, OL_DRAIN_CAP_MAX, 0, 0, NULL, 0, NULL,
      NULL, 0 },
    { "accept-tolerance", 0, "F", "saturated when accepted < (1-F) offered", OPT_REAL, FIELD(accept_tol), 0, 1, 0, 1,
      NULL, 0, NULL, NULL, 0 },
    { "latency-limit", 0, "L", "saturated when mean latency > L", OPT_REAL, FIELD(latency_limit),
      OL_LATENCY_LIMIT_MIN, OL_LATENCY_LIMIT_MAX, 0, 0, NULL, 0, NULL, NULL, 0 },
    { "early-stop", 0, NULL, "end a point's drain as soon as its verdict is certain:\n"
                             "stable points are as without it, saturated ones cost less",
      OPT_SWITCH, FIELD(early_stop), 0, 0, 0, 0, NULL, 0, NULL, NULL, 0 },
    { "ci", 0, "X", "precision instead of cycles: the window goes on, batch\n"
                    "after batch, until CI95 <= X x the mean latency (at least\n"
                    "5 batches, at most --window); implies --early-stop; 0 off",
      OPT_REAL, FIELD(ci), 0, OL_CI_MAX, 0, 0, NULL, 0, NULL, NULL, 0 },
    { "per-flow", 0, NULL, "also saturated when one source's backlog outgrows 8 packets\n"
                           "and F of its window's traffic (stricter than the field's rule)",
      OPT_SWITCH, FIELD(per_flow), 0, 0, 0, 0, NULL, 0, NULL, NULL, 0 },
    { "histogram", 0, "W|log2", "per point, a latency histogram: bins of W cycles, or\n"
                                "[2^k, 2^(k+1))",
      OPT_CUSTOM, FIELD(hist_width), 0, 0, 0, 0, NULL, 0, parse_histogram, show_histogram, 0 },
    { "throughput", 0, NULL, "per point, accepted flits/cycle per source node and per\n"
                             "flow: min, max, mean, Jain's index (at most 1024 nodes)",
      OPT_SWITCH, FIELD(report_nodes), 0, 0, 0, 0, NULL, 0, NULL, NULL, 0 },
    { "by-length", 0, NULL, "per point, the mean latency of each packet length", OPT_SWITCH, FIELD(report_lengths), 0,
      0, 0, 0, NULL, 0, NULL, NULL, 0 },
    { "links", 0, NULL, "per point, the load of each link between routers in the\n"
                        "window, flits/cycle (the busiest named; --links-png draws it)",
      OPT_SWITCH, FIELD(report_links), 0, 0, 0, 0, NULL, 0, NULL, NULL, 0 },
    OPT_END
};

#define SFIELD(f) #f, offsetof(sim_params, f)

const opt_row sim_net_options[] = {
    HEADING("network:"),
    ROW_TOPOLOGY(sim_params, topo),
    { "size", 0, "N|WxH", "N x N network, or W wide and H high; N and W even, H even\n"
                          "on a torus; bit patterns need powers of two", OPT_CUSTOM, "size", offsetof(sim_params, n), 2,
      SIM_MAX_N, 0, 0, NULL, 0, parse_sim_size, show_sim_size, 0 },
    ROW_VCS(sim_params, vcs),
    ROW_BUFFER(sim_params, buffer),
    ROW_VC_RULE(sim_params, vc_rule),
    ROW_TIE(sim_params, tie),
    OPT_END
};

const opt_row sim_model_options[] = {
    HEADING("model choices (docs/model.md's [choice] rules):"),
    { "flits", 0, "L", "packet length l_c in flits", OPT_INT, SFIELD(flits), 2, SIM_MAX_FLITS, 0, 0, NULL, 0, NULL,
      NULL, 0 },
    { "slices", 0, "S", "slices per message, one packet each (default: the command's)", OPT_INT, SFIELD(slices), 1,
      SIM_MAX_SLICES, 0, 0, NULL, 0, NULL, NULL, 1 },
    { "dateline", 0, NULL, "where the VC goes up at a dateline", OPT_CHOICE, SFIELD(dateline), 0, 0, 0, 0,
      NAMES(sim_dateline_names), NULL, NULL, 0 },
    { "q-update", 0, NULL, "queue-selection order after a grant", OPT_CHOICE, SFIELD(q_update), 0, 0, 0, 0,
      NAMES(sim_qupdate_names), NULL, NULL, 0 },
    { "slot-reuse", 0, NULL, "when a freed FIFO slot can be refilled", OPT_CHOICE, SFIELD(slot_reuse), 0, 0, 0, 0,
      NAMES(sim_slot_names), NULL, NULL, 0 },
    { "input-limit", 0, NULL, "one flit per cycle per input VC, or per input port", OPT_CHOICE, SFIELD(input_limit), 0,
      0, 0, 0, NAMES(sim_input_names), NULL, NULL, 0 },
    { "self", 0, NULL, "packets addressed to their source", OPT_CHOICE, SFIELD(self), 0, 0, 0, 0, NAMES(ol_self_names),
      NULL, NULL, 0 },
    { "deadlock-cycles", 0, "C", "watchdog: cycles without a move", OPT_INT, SFIELD(deadlock_cycles), 1, 1000000000, 0,
      0, NULL, 0, NULL, NULL, 0 },
    HEADING("paper Sect. 7.2 functions (off by default; they run on the reference engine):"),
    { "slice-reinit", 0, NULL, "a node's arbitration state is reset whenever a packet for it\narrives", OPT_SWITCH,
      SFIELD(slice_reinit), 0, 0, 0, 0, NULL, 0, NULL, NULL, 0 },
    { "interlock", 0, NULL, "a node's next slice waits until it has received the last\nslice's packets", OPT_SWITCH,
      SFIELD(interlock), 0, 0, 0, 0, NULL, 0, NULL, NULL, 0 },
    OPT_END
};

void ol_default_vc_rule(ol_params *p) { p->net.vc_rule = routing_default_vc_rule(p->net.routing, p->net.rp.topo); }

int ol_net_check(const ol_params *p, char *err, size_t errlen)
{
    const route_params *rp = &p->net.rp;
    if (rp->topo != TOPO_TORUS) return 0;
    if (p->net.vc_rule == VCRULE_ANY && p->net.routing == ROUTING_DOR)
        return snprintf(err, errlen, "vc_rule any: only on a mesh, or under routing dor2, valiant or min-adaptive "
                        "(a torus needs its datelines)"), -FAULT_INPUT;
    if (rp->w % 2 || rp->h % 2)
        return snprintf(err, errlen, "size %dx%d: a torus needs even sides", rp->w, rp->h), -FAULT_INPUT;
    if (p->net.routing == ROUTING_DOR && p->net.vcs < 3)
        return snprintf(err, errlen, "vcs %d: a torus needs at least 3 (datelines; routing dor2 runs on 2)",
                        p->net.vcs), -FAULT_INPUT;
    return 0;
}
