/* The open-loop run's analytic figures (see openloop.h): the zero-load
 * latency and the channel-load bound of a traffic pattern under the
 * network's routing function, from the probability of every (source,
 * destination) pair and of every route between them.  Checked against a
 * plain enumeration (ol_channel_bound_enum, tests/test_chanbound.c) and
 * against values worked out by hand (tests/test_openloop.c). */
#include "sim/openloop.h"

#include <stdio.h>
#include <stdlib.h>

/* Call fn(ctx, src, dest, weight) for every destination a packet of src can
 * draw, with its probability. */
typedef void (*pair_fn)(void *ctx, int src, int dest, double w);

static void each_pair(const synth *s, int src, pair_fn fn, void *ctx)
{
    double base = 1.0;
    if (s->nhot) {
        double share = s->hot_fraction / s->nhot, back = 0;
        for (int k = 0; k < s->nhot; k++) {
            if (s->hot[k] == src && s->self == SYNTH_SELF_SKIP) back += share;
            else fn(ctx, src, s->hot[k], share * (s->src_rate ? s->src_rate[src] : 1.0));
        }
        base = 1.0 - s->hot_fraction + back;
    }
    if (s->row_start) {
        /* A matrix: each entry as given (the row's share of the source's
         * rate times the row's sum), so pairs weigh by their packets. */
        for (int32_t k = s->row_start[src]; k < s->row_start[src + 1]; k++)
            fn(ctx, src, s->row_dest[k], base * s->row_w[k]);
        return;
    }
    if (!s->uniform) {
        fn(ctx, src, s->dest[src], base);
        return;
    }
    int others = s->self == SYNTH_SELF_SEND ? s->nodes : s->nodes - 1;
    for (int d = 0; d < s->nodes; d++)
        if (d != src || s->self == SYNTH_SELF_SEND) fn(ctx, src, d, base / others);
}

typedef struct {
    const route_params *rp;
    routing_kind routing;
    double *any;         /* Valiant: per node, routing_mean_hops_any (NULL otherwise) */
    double *cells;       /* an adaptive function's scratch (routing_spread_adaptive) */
    double hops, weight;
    double *load;        /* per channel: nodes * 4 links, then ejection */
    int nodes;
} pairsum;

static void add_hops(void *ctx, int src, int dest, double w)
{
    pairsum *ps = ctx;
    if (ps->any) ps->hops += w * (ps->any[src] + ps->any[dest]); /* Valiant's, per node once */
    else if (ps->routing == ROUTING_DOR) ps->hops += w * route_hops(ps->rp, src, dest);
    else ps->hops += w * routing_mean_hops(ps->routing, ps->rp, src, dest);
    ps->weight += w;
}

/* One leg of a dimension-order route: `hops` links out of port d, from
 * (x, y) on, each carrying w more. */
static void add_leg(pairsum *ps, int wd, int hd, int x, int y, int d, int hops, double w)
{
    for (int j = 0; j < hops; j++) {
        ps->load[(y * wd + x) * 4 + d] += w;
        switch (d) {
        case PORT_E: x = x + 1 == wd ? 0 : x + 1; break;
        case PORT_W: x = x ? x - 1 : wd - 1; break;
        case PORT_N: y = y + 1 == hd ? 0 : y + 1; break;
        default:     y = y ? y - 1 : hd - 1; break;
        }
    }
}

/* A routing function's leg (a routing_leg_fn), link by link: each router's
 * port from route_grid_port (XY) or route_grid_port_yx. */
static void walk_leg(void *ctx, int a, int b, int yx, double w)
{
    pairsum *ps = ctx;
    for (int node = a; node != b;) {
        int d = yx ? route_grid_port_yx(ps->rp, node, b) : route_grid_port(ps->rp, node, b);
        ps->load[node * 4 + d] += w;
        node = route_grid_neighbour(ps->rp, node, d);
    }
}

/* A link's share of an adaptive function's routes (a routing_link_fn). */
static void add_link(void *ctx, int node, int port, double w)
{
    pairsum *ps = ctx;
    ps->load[node * 4 + port] += w;
}

/* The links of the route from src to dest each carry w more, and dest's
 * ejection channel: X then Y, each leg one way round (route_grid_port's
 * port at the leg's first router holds to its end); under another routing
 * function, every leg of every plan walked. */
static void add_load(void *ctx, int src, int dest, double w)
{
    pairsum *ps = ctx;
    const route_params *rp = ps->rp;
    if (ps->cells) {
        routing_spread_adaptive(ps->routing, rp, src, dest, w, add_link, ps, ps->cells);
        ps->load[ps->nodes * 4 + dest] += w;
        return;
    }
    if (ps->routing != ROUTING_DOR) {
        routing_legs(ps->routing, rp, src, dest, w, walk_leg, ps);
        ps->load[ps->nodes * 4 + dest] += w;
        return;
    }
    int wd = route_width(rp), hd = route_height(rp);
    int sx = src % wd, dx = dest % wd, row = src - sx, corner = row + dx;
    if (sx != dx) {
        int d = route_grid_port(rp, src, corner);
        int hops = d == PORT_E ? (dx - sx + wd) % wd : (sx - dx + wd) % wd;
        add_leg(ps, wd, hd, sx, src / wd, d, hops, w);
    }
    if (corner != dest) {
        int sy = corner / wd, dy = dest / wd;
        int d = route_grid_port(rp, corner, dest);
        int hops = d == PORT_N ? (dy - sy + hd) % hd : (sy - dy + hd) % hd;
        add_leg(ps, wd, hd, dx, sy, d, hops, w);
    }
    ps->load[ps->nodes * 4 + dest] += w;
}

static route_params grid_of(const ol_params *p, const synth *s)
{
    route_params rp = p->net.rp;
    rp.w = s->w;
    rp.h = s->h;
    rp.n = s->w;
    return rp;
}

/* Uniform traffic in closed form: a source's destinations are every other
 * node (every node with --self send), so the hops of all its pairs are h
 * times its row's x distances plus w times its column's y distances, each
 * summed once per dimension.  O(w^2 + h^2 + nodes) instead of O(nodes^2). */
static int all_send(const synth *s)
{
    for (int i = 0; i < s->nodes; i++)
        if (!synth_sends(s, i)) return 0;
    return 1;
}

/* Hops along one dimension from a to b (the other coordinate 0), as
 * route_hops counts them. */
static int dim_hops(const route_params *rp, int wd, int a, int b, int is_x)
{
    return is_x ? route_hops(rp, a, b) : route_hops(rp, a * wd, b * wd);
}

double ol_zero_load(const ol_params *p, const synth *s, double *hops)
{
    route_params rp = grid_of(p, s);
    pairsum ps = { .rp = &rp, .routing = p->net.routing, .nodes = s->nodes };
    if (s->uniform && all_send(s) && p->net.routing == ROUTING_DOR) {
        /* The uniform part: weight base(src) / others on each pair. */
        int wd = s->w, hd = s->h, others = s->self == SYNTH_SELF_SEND ? s->nodes : s->nodes - 1;
        double *hx = calloc((size_t)(wd + hd), sizeof *hx), *hy = hx + wd;
        if (!hx) {
            if (hops) *hops = 0;
            return -1;
        }
        for (int a = 0; a < wd; a++)
            for (int b = 0; b < wd; b++) hx[a] += dim_hops(&rp, wd, a, b, 1);
        for (int a = 0; a < hd; a++)
            for (int b = 0; b < hd; b++) hy[a] += dim_hops(&rp, wd, a, b, 0);
        double b0 = s->nhot ? 1.0 - s->hot_fraction : 1.0, share = s->nhot ? s->hot_fraction / s->nhot : 0;
        for (int i = 0; i < s->nodes; i++) {
            double base = b0;
            for (int k = 0; k < s->nhot; k++) {
                if (s->hot[k] == i && s->self == SYNTH_SELF_SKIP) base += share;
                else add_hops(&ps, i, s->hot[k], share);
            }
            ps.hops += base / others * (hd * hx[i % wd] + wd * hy[i / wd]);
            ps.weight += base;
        }
        free(hx);
    } else {
        if (ps.routing == ROUTING_VALIANT && (ps.any = malloc(sizeof *ps.any * (size_t)s->nodes)))
            for (int i = 0; i < s->nodes; i++) ps.any[i] = routing_mean_hops_any(&rp, i);
        for (int i = 0; i < s->nodes; i++)
            if (synth_sends(s, i)) each_pair(s, i, add_hops, &ps);
        free(ps.any);
    }
    double h = ps.weight > 0 ? ps.hops / ps.weight : 0;
    if (hops) *hops = h;
    if (!olnet_timed(&p->net)) return h + ol_mean_length(p) + 1.0;
    /* Under router timing [R-TM-4]: 1 + D + S + L a hop, and what a packet
     * of each length takes beside its hops, read off a lone packet's run. */
    const double per_hop = 1.0 + p->net.router_delay + p->net.switch_delay + p->net.link_delay;
    double rest = 0;
    for (int k = 0; k < p->nlen; k++) {
        const double lone = ol_lone_latency(p, 1, p->len[k]);
        if (lone < 0) return -1;
        rest += p->prob[k] * (lone - per_hop);
    }
    return h * per_hop + rest;
}

/* A lone packet of len flits over `hops` links of a (hops + 1) x 2 mesh
 * with p's router (VCs, buffers, timing): generation to tail ejection,
 * + 1 (the latency's definition, [R-OL-3]).  Stepped on the reference
 * path; -1 when the network cannot be built (memory). */
double ol_lone_latency(const ol_params *p, int hops, int len)
{
    olnet_params op = p->net;
    op.rp = (route_params){ .w = hops + 1, .h = 2, .topo = TOPO_MESH };
    op.vc_rule = VCRULE_ANY;
    op.routing = ROUTING_DOR;
    op.reference = 1;
    char err[128];
    olnet *n = olnet_new(&op, NULL, NULL, err, sizeof err);
    if (!n) return -1;
    double lat = -1;
    if (olnet_add(n, 0, hops, len, 0, 0) >= 0)
        for (int64_t t = 0; t < 100000 && lat < 0; t++) {
            const int32_t *done;
            int nd;
            olnet_step(n, t, &done, &nd);
            if (nd) lat = (double)t + 1.0;
        }
    olnet_free(n);
    return lat;
}

/* The channel loads by legs: each leg of a dimension-order route covers a
 * run of consecutive links of one row (X) or one column (Y), added to a
 * difference array in O(1); prefix sums then give every link's load.  The
 * uniform part in closed form: the X legs of a row and the Y legs of a
 * column do not depend on which row or column they are in (a source's base
 * weight aside, which differs only at hotspot nodes), so they are summed
 * once per dimension, O(w^2 + h^2); every other pair (a permutation's, a
 * hotspot share) is added leg by leg.  O(w^2 + h^2 + nodes x (1 + hotspots))
 * in all, against O(nodes^2 x (w + h)) for the enumeration. */
typedef struct {
    const route_params *rp;
    int w, h, nodes;
    double *row;   /* [(y * 2 + west) * (w + 1) + x]: X legs per row, east and west */
    double *col;   /* [(x * 2 + south) * (h + 1) + y]: Y legs per column, north and south */
    double *tx;    /* [west * (w + 1) + x]: the uniform part's X legs, the same in every row */
    double *ty;    /* [south * (h + 1) + y]: its Y legs, the same in every column */
    double *eject; /* [node] */
} legsum;

/* Links from, from+1, ... (up) or from, from-1, ... (down), `hops` of them
 * on a ring of m, each w more, into diff[0..m]. */
static void leg_add(double *diff, int m, int from, int hops, int up, double w)
{
    int a = up ? from : ((from - hops + 1) % m + m) % m;
    diff[a] += w;
    if (a + hops <= m) {
        diff[a + hops] -= w;
    } else {
        diff[0] += w;
        diff[a + hops - m] -= w;
    }
}

/* The X leg from column sx to dx (row 0's nodes stand for every row: the
 * direction depends on the columns only) into diff (two rows of w + 1, east
 * then west). */
static void x_leg(const legsum *ls, double *diff, int sx, int dx, double w)
{
    if (sx == dx) return;
    /* A mesh's port without route_grid_port's division: the bound of a
     * routed pattern adds many legs a pair (ROMM uniform on a 32x32 mesh: 13.1 -> 5.6 s). */
    int d = ls->rp->topo == TOPO_MESH ? (dx > sx ? PORT_E : PORT_W) : route_grid_port(ls->rp, sx, dx), wd = ls->w;
    int hops = d == PORT_E ? (dx - sx + wd) % wd : (sx - dx + wd) % wd;
    leg_add(diff + (d == PORT_W) * (wd + 1), wd, sx, hops, d == PORT_E, w);
}

static void y_leg(const legsum *ls, double *diff, int sy, int dy, double w)
{
    if (sy == dy) return;
    int wd = ls->w, hd = ls->h;
    int d = ls->rp->topo == TOPO_MESH ? (dy > sy ? PORT_N : PORT_S) : route_grid_port(ls->rp, sy * wd, dy * wd);
    int hops = d == PORT_N ? (dy - sy + hd) % hd : (sy - dy + hd) % hd;
    leg_add(diff + (d == PORT_S) * (hd + 1), hd, sy, hops, d == PORT_N, w);
}

/* One pair (a pair_fn): its X leg in src's row, its Y leg in dest's column,
 * and dest's ejection channel. */
static void add_pair(void *ctx, int src, int dest, double w)
{
    legsum *ls = ctx;
    int wd = ls->w, sx = src % wd, sy = src / wd, dx = dest % wd, dy = dest / wd;
    x_leg(ls, ls->row + (size_t)sy * 2 * (wd + 1), sx, dx, w);
    y_leg(ls, ls->col + (size_t)dx * 2 * (ls->h + 1), sy, dy, w);
    ls->eject[dest] += w;
}

/* ---- routing functions other than dor ---- */

/* Row y's X legs and column x's Y legs (difference arrays, see legsum). */
static double *row_of(const legsum *ls, int y) { return ls->row + (size_t)y * 2 * (size_t)(ls->w + 1); }
static double *col_of(const legsum *ls, int x) { return ls->col + (size_t)x * 2 * (size_t)(ls->h + 1); }

/* One dimension-order leg from a to b (a routing_leg_fn): XY is X in a's
 * row then Y in b's column; YX is Y in a's column then X in b's row. */
static void add_leg_routed(void *ctx, int a, int b, int yx, double w)
{
    legsum *ls = ctx;
    int wd = ls->w, ax = a % wd, ay = a / wd, bx = b % wd, by = b / wd;
    if (yx) {
        y_leg(ls, col_of(ls, ax), ay, by, w);
        x_leg(ls, row_of(ls, by), ax, bx, w);
    } else {
        x_leg(ls, row_of(ls, ay), ax, bx, w);
        y_leg(ls, col_of(ls, bx), ay, by, w);
    }
}

/* Every pair's routes under a routing function other than dor.  Valiant's
 * first leg depends on the source alone and its second on the destination
 * alone, so the pairs only add up what each node sends and receives, and
 * each node's legs to and from every node are added once: O(nodes^2)
 * instead of O(nodes^3). */
typedef struct {
    legsum *ls;
    routing_kind k;
    double *out, *in;  /* Valiant: per node, the weight it sends, receives */
} routed;

static void add_pair_routed(void *ctx, int src, int dest, double w)
{
    routed *r = ctx;
    r->ls->eject[dest] += w;
    if (r->k == ROUTING_VALIANT) {
        r->out[src] += w;
        r->in[dest] += w;
        return;
    }
    routing_legs(r->k, r->ls->rp, src, dest, w, add_leg_routed, r->ls);
}

static int add_routed(legsum *ls, const ol_params *p, const synth *s)
{
    routed r = { .ls = ls, .k = p->net.routing };
    const int nodes = s->nodes;
    if (r.k == ROUTING_VALIANT && !(r.out = calloc(2 * (size_t)nodes, sizeof *r.out))) return -1;
    r.in = r.out ? r.out + nodes : NULL;
    for (int i = 0; i < nodes; i++)
        if (synth_sends(s, i)) each_pair(s, i, add_pair_routed, &r);
    if (r.out)
        for (int a = 0; a < nodes; a++)
            for (int m = 0; m < nodes; m++) {
                if (r.out[a] != 0) add_leg_routed(ls, a, m, 0, r.out[a] / nodes);
                if (r.in[a] != 0) add_leg_routed(ls, m, a, 0, r.in[a] / nodes);
            }
    free(r.out);
    return 0;
}

/* The uniform part of every source (each_pair's, in closed form). */
static int add_uniform(legsum *ls, const synth *s)
{
    int wd = ls->w, hd = ls->h, others = s->self == SYNTH_SELF_SEND ? s->nodes : s->nodes - 1;
    double b0 = s->nhot ? 1.0 - s->hot_fraction : 1.0, share = s->nhot ? s->hot_fraction / s->nhot : 0;
    /* A hotspot node under --self skip sends its own share uniformly too. */
    double *extra = calloc((size_t)s->nodes + (size_t)hd, sizeof *extra), *rsum = extra + s->nodes, total = 0;
    if (!extra) return -1;
    for (int k = 0; k < s->nhot; k++)
        if (s->self == SYNTH_SELF_SKIP) extra[s->hot[k]] += share;
    for (int i = 0; i < s->nodes; i++) {
        rsum[i / wd] += b0 + extra[i];
        total += b0 + extra[i];
    }
    /* X: every source of a row sends h / others of its base to each other
     * column; Y: the sources of row sy send rsum[sy] / others to each other
     * row, in every column. */
    for (int sx = 0; sx < wd; sx++)
        for (int dx = 0; dx < wd; dx++) x_leg(ls, ls->tx, sx, dx, b0 * hd / others);
    for (int i = 0; i < s->nodes; i++)
        if (extra[i] != 0)
            for (int dx = 0; dx < wd; dx++)
                x_leg(ls, ls->row + (size_t)(i / wd) * 2 * (wd + 1), i % wd, dx, extra[i] * hd / others);
    for (int sy = 0; sy < hd; sy++)
        for (int dy = 0; dy < hd; dy++) y_leg(ls, ls->ty, sy, dy, rsum[sy] / others);
    for (int d = 0; d < s->nodes; d++)
        ls->eject[d] += (total - (s->self == SYNTH_SELF_SKIP ? b0 + extra[d] : 0)) / others;
    /* The hotspot shares, pair by pair. */
    for (int i = 0; i < s->nodes; i++)
        for (int k = 0; k < s->nhot; k++)
            if (s->hot[k] != i || s->self == SYNTH_SELF_SEND) add_pair(ls, i, s->hot[k], share);
    free(extra);
    return 0;
}

/* Channel arg (-1: an injection channel; node * 4 + port; then the
 * ejection channels) described into what (may be NULL). */
static void name_channel(const synth *s, int arg, char *what, size_t whatlen)
{
    if (!what) return;
    if (arg < 0) snprintf(what, whatlen, "injection channel");
    else if (arg >= s->nodes * 4) snprintf(what, whatlen, "ejection at node %d", arg - s->nodes * 4);
    else snprintf(what, whatlen, "link (%d,%d) %c", (arg / 4) % s->w, (arg / 4) / s->w, route_port_name(arg % 4));
}

/* The busiest of the channels in load (nodes * 4 links, then the
 * ejection channels) against a sending node's injection channel, which
 * carries its own rate: 1 / its load, named into what. */
static double busiest(const double *load, const synth *s, char *what, size_t whatlen)
{
    double max = 1.0;
    int arg = -1;
    for (int k = 0; k < s->nodes * 5; k++)
        if (load[k] > max + 1e-12) {
            max = load[k];
            arg = k;
        }
    name_channel(s, arg, what, whatlen);
    return 1.0 / max;
}

/* An adaptive function's bound: the uniform part destination by
 * destination (routing_spread_adaptive_to, O(nodes^2)), every other pair
 * (a permutation's, a hotspot share) spread on its own. */
static double adaptive_bound(const ol_params *p, const synth *s, char *what, size_t whatlen)
{
    route_params rp = grid_of(p, s);
    const int nodes = s->nodes;
    pairsum ps = { .rp = &rp, .routing = p->net.routing, .nodes = nodes };
    double *mem = calloc((size_t)nodes * 9, sizeof *mem);
    if (!mem) {
        if (what) snprintf(what, whatlen, "out of memory");
        return -1;
    }
    ps.load = mem;
    ps.cells = mem + (size_t)nodes * 5;
    double *m0 = ps.cells + nodes, *m1 = m0 + nodes, *base = m1 + nodes;
    if (s->uniform && all_send(s)) {
        const int others = s->self == SYNTH_SELF_SEND ? nodes : nodes - 1;
        const double b0 = s->nhot ? 1.0 - s->hot_fraction : 1.0, share = s->nhot ? s->hot_fraction / s->nhot : 0;
        for (int i = 0; i < nodes; i++) base[i] = b0;
        for (int k = 0; k < s->nhot; k++) /* a hotspot's share to itself goes uniformly too */
            if (s->self == SYNTH_SELF_SKIP) base[s->hot[k]] += share;
        for (int d = 0; d < nodes; d++) {
            for (int i = 0; i < nodes; i++)
                if (i != d || s->self == SYNTH_SELF_SEND) {
                    m0[i] = base[i] / others;
                    ps.load[nodes * 4 + d] += m0[i];
                }
            routing_spread_adaptive_to(ps.routing, &rp, d, m0, m1, add_link, &ps);
        }
        for (int i = 0; i < nodes; i++)
            for (int k = 0; k < s->nhot; k++)
                if (s->hot[k] != i || s->self == SYNTH_SELF_SEND) add_load(&ps, i, s->hot[k], share);
    } else {
        for (int i = 0; i < nodes; i++)
            if (synth_sends(s, i)) each_pair(s, i, add_load, &ps);
    }
    const double b = busiest(ps.load, s, what, whatlen);
    free(mem);
    return b;
}

double ol_channel_bound(const ol_params *p, const synth *s, char *what, size_t whatlen)
{
    /* An adaptive function's routes are spread router by router: no legs
     * to add by rows and columns. */
    if (routing_info_of(p->net.routing)->adaptive) return adaptive_bound(p, s, what, whatlen);
    route_params rp = grid_of(p, s);
    int wd = s->w, hd = s->h;
    legsum ls = { .rp = &rp, .w = wd, .h = hd, .nodes = s->nodes };
    size_t nrow = (size_t)hd * 2 * (wd + 1), ncol = (size_t)wd * 2 * (hd + 1);
    double *mem = calloc(nrow + ncol + 2 * (size_t)(wd + 1) + 2 * (size_t)(hd + 1) + (size_t)s->nodes + 2 * (size_t)wd,
                         sizeof *mem);
    int fail = !mem;
    if (mem) {
        ls.row = mem;
        ls.col = ls.row + nrow;
        ls.tx = ls.col + ncol;
        ls.ty = ls.tx + 2 * (wd + 1);
        ls.eject = ls.ty + 2 * (hd + 1);
        if (p->net.routing != ROUTING_DOR) fail = add_routed(&ls, p, s) != 0;
        else if (s->uniform && all_send(s)) fail = add_uniform(&ls, s) != 0;
        else
            for (int i = 0; i < s->nodes; i++)
                if (synth_sends(s, i)) each_pair(s, i, add_pair, &ls);
    }
    if (fail) {
        free(mem);
        if (what) snprintf(what, whatlen, "out of memory");
        return -1;
    }
    /* Prefix sums in place, then the busiest channel in the enumeration's
     * order (node by node, ports N E S W, then the ejection channels). */
    for (int y = 0; y < hd; y++)
        for (int e = 0; e < 2; e++) {
            double *r = ls.row + ((size_t)y * 2 + e) * (wd + 1), acc = 0;
            for (int x = 0; x < wd; x++) r[x] = acc += r[x] + ls.tx[e * (wd + 1) + x];
        }
    for (int e = 0; e < 2; e++) { /* the uniform part's prefix once, then every column's */
        double *t = ls.ty + e * (hd + 1), acc = 0;
        for (int y = 0; y < hd; y++) t[y] = acc += t[y];
    }
    for (int x = 0; x < wd; x++)
        for (int e = 0; e < 2; e++) {
            double *c = ls.col + ((size_t)x * 2 + e) * (hd + 1), acc = 0;
            for (int y = 0; y < hd; y++) c[y] = (acc += c[y]) + ls.ty[e * (hd + 1) + y];
        }
    double max = 1.0; /* a sending node's injection channel carries its own rate */
    int arg = -1;
    for (int k = 0; k < s->nodes * 5; k++) {
        double v;
        if (k >= s->nodes * 4) v = ls.eject[k - s->nodes * 4];
        else {
            int node = k / 4, d = k % 4, x = node % wd, y = node / wd;
            if (d == PORT_E || d == PORT_W) v = ls.row[((size_t)y * 2 + (d == PORT_W)) * (wd + 1) + x];
            else v = ls.col[((size_t)x * 2 + (d == PORT_S)) * (hd + 1) + y];
        }
        if (v > max + 1e-12) {
            max = v;
            arg = k;
        }
    }
    name_channel(s, arg, what, whatlen);
    free(mem);
    return 1.0 / max;
}

/* The reference: every pair enumerated, every link of its route added. */
double ol_channel_bound_enum(const ol_params *p, const synth *s, char *what, size_t whatlen)
{
    route_params rp = grid_of(p, s);
    pairsum ps = { .rp = &rp, .routing = p->net.routing, .nodes = s->nodes };
    ps.load = calloc((size_t)s->nodes * 6, sizeof *ps.load);
    if (!ps.load) {
        if (what) snprintf(what, whatlen, "out of memory");
        return -1;
    }
    if (routing_info_of(ps.routing)->adaptive) ps.cells = ps.load + (size_t)s->nodes * 5;
    for (int i = 0; i < s->nodes; i++)
        if (synth_sends(s, i)) each_pair(s, i, add_load, &ps);
    const double b = busiest(ps.load, s, what, whatlen);
    free(ps.load);
    return b;
}
