/* The open-loop option tables (see ol_options.h). */
#include "sim/ol_options.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "router/arbiter.h"
#include "util/parse.h"
#include "util/quote.h"

const char *const ol_topology_names[] = { "torus", "mesh" };
const char *const ol_vc_rule_names[] = { "dateline", "any" };
const char *const ol_tie_names[] = { "nowrap", "plus", "minus" };
const char *const ol_process_names[] = { "bernoulli", "periodic" };

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

const opt_row ol_net_options[] = {
    HEADING("network:"),
    { "topology", 0, NULL, "the network; a mesh has no wrap links", OPT_CHOICE, FIELD(net.rp.topo), 0, 0, 0, 0,
      NAMES(ol_topology_names), NULL, NULL, 0 },
    { "size", 0, "N|WxH", "grid of W x H routers, each side", OPT_CUSTOM, FIELD(net.rp), OL_MIN_SIDE, OL_MAX_SIDE, 0, 0,
      NULL, 0, parse_size, show_size, 0 },
    { "vcs", 0, "V", "virtual channels per link, >= 3 on a torus", OPT_INT, FIELD(net.vcs), 1, SIM_MAX_VCS, 0, 0,
      NULL, 0, NULL, NULL, 0 },
    { "buffer", 0, "B", "flits per input-VC FIFO", OPT_INT, FIELD(net.buffer), 1, OL_MAX_BUFFER, 0, 0, NULL, 0, NULL,
      NULL, 0 },
    { "vc-rule", 0, NULL, "which VC a header may take: its own, one up at each dateline\n"
                          "(torus default and only choice on a torus), or any free VC\n"
                          "of its port (mesh default)",
      OPT_CHOICE, FIELD(net.vc_rule), 0, 0, 0, 0, NAMES(ol_vc_rule_names), NULL, NULL, 1 },
    { "arb", 0, "Cxx", "VC-selection scheme of every port, C00-C09", OPT_CUSTOM, FIELD(net.scheme), 0, 0, 0, 0, NULL,
      0, parse_arb, show_arb, 0 },
    { "tie", 0, NULL, "torus route at a distance of exactly half a ring", OPT_CHOICE, FIELD(net.rp.tie), 0, 0, 0, 0,
      NAMES(ol_tie_names), NULL, NULL, 0 },
    OPT_END
};

const opt_row ol_packet_options[] = {
    HEADING("packets:"),
    { "packet", 0, "MIX", "length in flits, or a mix LEN:PROB,...", OPT_CUSTOM, FIELD(len), 0, 0, 0, 0, NULL, 0,
      parse_packet, show_packet, 0 },
    { "process", 0, NULL, "when a source generates: a coin per cycle, or evenly spaced", OPT_CHOICE, FIELD(process),
      0, 0, 0, 0, NAMES(ol_process_names), NULL, NULL, 0 },
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
    { "per-flow", 0, NULL, "also saturated when one source's backlog outgrows 8 packets\n"
                           "and F of its window's traffic (stricter than the field's rule)",
      OPT_SWITCH, FIELD(per_flow), 0, 0, 0, 0, NULL, 0, NULL, NULL, 0 },
    OPT_END
};

void ol_default_vc_rule(ol_params *p)
{
    p->net.vc_rule = p->net.rp.topo == TOPO_MESH ? VCRULE_ANY : VCRULE_DATELINE;
}

int ol_net_check(const ol_params *p, char *err, size_t errlen)
{
    const route_params *rp = &p->net.rp;
    if (rp->topo != TOPO_TORUS) return 0;
    if (p->net.vc_rule == VCRULE_ANY)
        return snprintf(err, errlen, "vc_rule any: only on a mesh (a torus needs its datelines)"), -FAULT_INPUT;
    if (rp->w % 2 || rp->h % 2)
        return snprintf(err, errlen, "size %dx%d: a torus needs even sides", rp->w, rp->h), -FAULT_INPUT;
    if (p->net.vcs < 3)
        return snprintf(err, errlen, "vcs %d: a torus needs at least 3 (datelines)", p->net.vcs), -FAULT_INPUT;
    return 0;
}
