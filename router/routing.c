/* The routing functions' table and the functions (see routing.h). */
#include "router/routing.h"

#include <stdio.h>
#include <string.h>

#include "util/rng.h"

#define MESH (1u << TOPO_MESH)
#define TORUS (1u << TOPO_TORUS)

/* name, BookSim2's name, classes (mesh, torus), topologies, random, adaptive, escape, about */
static const routing_info table[ROUTING_COUNT] = {
    [ROUTING_DOR] = { "dor", "dor", 1, 1, MESH | TORUS, 0, 0, 0, "dimension order, X then Y (a torus: its datelines)" },
    [ROUTING_YX] = { "yx", NULL, 1, 0, MESH, 0, 0, 0, "dimension order, Y then X" },
    [ROUTING_O1TURN] = { "o1turn", "xy_yx", 2, 0, MESH, 1, 0, 0,
                         "XY or YX with equal odds a packet, each order in its own VC class" },
    [ROUTING_VALIANT] = { "valiant", "valiant", 2, 4, MESH | TORUS, 1, 0, 0,
                          "XY to a random node, then XY to the destination, a VC class each (a torus: two "
                          "dateline classes each)" },
    [ROUTING_ROMM] = { "romm", "romm", 2, 0, MESH, 1, 0, 0,
                       "as valiant with the node drawn inside the minimal quadrant" },
    [ROUTING_WEST_FIRST] = { "west-first", NULL, 1, 0, MESH, 0, 1, 0,
                             "turn model: W hops first, then E, N, S adaptively" },
    [ROUTING_NORTH_LAST] = { "north-last", NULL, 1, 0, MESH, 0, 1, 0, "turn model: N hops last" },
    [ROUTING_NEGATIVE_FIRST] = { "negative-first", NULL, 1, 0, MESH, 0, 1, 0, "turn model: W and S hops first" },
    [ROUTING_ODD_EVEN] = { "odd-even", NULL, 1, 0, MESH, 0, 1, 0,
                           "Chiu's odd-even turn model (no E-N, E-S turn in even columns, no N-W, S-W in odd)" },
    [ROUTING_MIN_ADAPTIVE] = { "min-adaptive", "min_adapt", 2, 3, MESH | TORUS, 0, 1, 1,
                               "any minimal port in VCs 1.., dimension order in the escape VC 0 (Duato; a torus: "
                               "escape VCs 0 and 1, adaptive 2..)" },
    [ROUTING_DOR2] = { "dor2", "dim_order", 2, 2, MESH | TORUS, 0, 0, 0,
                       "dimension order in two VC classes a ring: class 1 for a leg that takes the wrap link" },
};

const routing_info *routing_info_of(routing_kind k) { return &table[k]; }

int routing_parse(const char *name)
{
    for (int k = 0; k < ROUTING_COUNT; k++)
        if (!strcmp(name, table[k].name) || (table[k].booksim && !strcmp(name, table[k].booksim))) return k;
    return -1;
}

const char *routing_names(char *buf, size_t len)
{
    size_t at = 0;
    buf[0] = '\0';
    for (int k = 0; k < ROUTING_COUNT && at < len; k++) {
        int m = snprintf(buf + at, len - at, "%s%s", k ? ", " : "", table[k].name);
        if (m < 0) break;
        at += (size_t)m;
    }
    return buf;
}

route_vc_rule routing_default_vc_rule(routing_kind k, route_topology topo)
{
    return topo == TOPO_MESH || k != ROUTING_DOR ? VCRULE_ANY : VCRULE_DATELINE;
}

int routing_classes(routing_kind k, const route_params *rp)
{
    return rp->topo == TOPO_TORUS ? table[k].torus_classes : table[k].classes;
}

/* Why kind k needs its classes: what routing_check says of too few VCs. */
static const char *classes_reason(routing_kind k, const route_params *rp)
{
    if (rp->topo != TOPO_TORUS || k == ROUTING_DOR2) return "one for each of its VC classes";
    if (k == ROUTING_VALIANT) return "its two phases, each in two dateline classes [R-RF-11]";
    return "the escape's two dateline classes, VCs 0 and 1, and an adaptive VC [R-RF-12]";
}

int routing_check(routing_kind k, const route_params *rp, route_vc_rule rule, int vcs, char *err, size_t errlen)
{
    const routing_info *r = &table[k];
    if (!(r->topologies & (1u << rp->topo)))
        return snprintf(err, errlen, "routing %s: only on a mesh (on a torus its routes would need dateline "
                                     "classes it does not have)", r->name), -1;
    const int K = routing_classes(k, rp);
    if (vcs < K)
        return snprintf(err, errlen, "routing %s: needs at least %d VCs %s(%s), the network has %d", r->name, K,
                        rp->topo == TOPO_TORUS && K > r->classes ? "on a torus " : "", classes_reason(k, rp), vcs),
               -1;
    (void)rule; /* both rules keep each class deadlock-free [R-RF-3], [R-RF-11], [R-RF-12] */
    return 0;
}

/* A draw in [0, n) from 32 random bits (multiply-shift: no division, a bias
 * below n / 2^32). */
static int draw(uint32_t bits, int n) { return (int)((uint64_t)bits * (uint64_t)n >> 32); }

/* A node inside the minimal quadrant of src and dest: along each dimension
 * an offset from src's coordinate between 0 and the route's offset, both
 * ends included, each with equal odds. */
static int32_t quadrant_node(const route_params *rp, int src, int dest, uint64_t bits)
{
    int w = route_width(rp), h = route_height(rp), dx, dy;
    route_grid_offsets(rp, src, dest, &dx, &dy);
    int ox = draw((uint32_t)bits, (dx < 0 ? -dx : dx) + 1), oy = draw((uint32_t)(bits >> 32), (dy < 0 ? -dy : dy) + 1);
    int x = src % w + (dx < 0 ? -ox : ox), y = src / w + (dy < 0 ? -oy : oy);
    return (int32_t)(((y + h) % h) * w + (x + w) % w);
}

routing_plan routing_plan_make(routing_kind k, const route_params *rp, int src, int dest, uint64_t bits)
{
    routing_plan pl = { .mid = -1, .yx = 0 };
    switch (k) {
    case ROUTING_O1TURN: pl.yx = (uint8_t)(bits >> 63); break;
    case ROUTING_VALIANT: pl.mid = draw((uint32_t)(bits >> 32), route_width(rp) * route_height(rp)); break;
    case ROUTING_ROMM: pl.mid = quadrant_node(rp, src, dest, bits); break;
    default: break;
    }
    return pl;
}

int routing_hops(const route_params *rp, const routing_plan *pl, int src, int dest)
{
    if (pl->mid < 0) return route_hops(rp, src, dest);
    return route_hops(rp, src, pl->mid) + route_hops(rp, pl->mid, dest);
}

void routing_legs(routing_kind k, const route_params *rp, int src, int dest, double w, routing_leg_fn fn, void *ctx)
{
    const int wd = route_width(rp), hd = route_height(rp), nodes = wd * hd;
    switch (k) {
    case ROUTING_YX: fn(ctx, src, dest, 1, w); return;
    case ROUTING_O1TURN:
        fn(ctx, src, dest, 0, w / 2);
        fn(ctx, src, dest, 1, w / 2);
        return;
    case ROUTING_VALIANT:
        for (int m = 0; m < nodes; m++) {
            fn(ctx, src, m, 0, w / nodes);
            fn(ctx, m, dest, 0, w / nodes);
        }
        return;
    case ROUTING_ROMM: {
        int dx, dy;
        route_grid_offsets(rp, src, dest, &dx, &dy);
        const int ax = dx < 0 ? -dx : dx, ay = dy < 0 ? -dy : dy, sx = dx < 0 ? -1 : 1, sy = dy < 0 ? -1 : 1;
        const double p = w / ((ax + 1) * (ay + 1));
        for (int oy = 0; oy <= ay; oy++)
            for (int ox = 0; ox <= ax; ox++) {
                int x = src % wd + sx * ox, y = src / wd + sy * oy;
                int m = ((y + hd) % hd) * wd + (x + wd) % wd;
                fn(ctx, src, m, 0, p);
                fn(ctx, m, dest, 0, p);
            }
        return;
    }
    default: fn(ctx, src, dest, 0, w); return;
    }
}

double routing_mean_hops_any(const route_params *rp, int a)
{
    const int wd = route_width(rp), hd = route_height(rp);
    double sx = 0, sy = 0;
    for (int x = 0; x < wd; x++) sx += route_hops(rp, a % wd, x);
    for (int y = 0; y < hd; y++) sy += route_hops(rp, (a / wd) * wd, y * wd);
    return sx / wd + sy / hd;
}

double routing_mean_hops(routing_kind k, const route_params *rp, int src, int dest)
{
    /* Valiant's two legs are a uniform node's distance from src and to dest
     * (hops are symmetric); every other function's routes are minimal. */
    if (k == ROUTING_VALIANT) return routing_mean_hops_any(rp, src) + routing_mean_hops_any(rp, dest);
    return route_hops(rp, src, dest);
}

int routing_class_first(routing_kind k, const route_params *rp, int c, int V)
{
    const int K = routing_classes(k, rp);
    if (c <= 0) return 0;
    if (c >= K) return V;
    if (k == ROUTING_DOR2) return (V + 1) / 2; /* the extra VC to class 0: most legs do not wrap */
    return table[k].escape ? c : c * V / K;    /* escape classes: one VC each */
}

int routing_class_of(routing_kind k, const route_params *rp, int vc, int V)
{
    int c = 0;
    while (c + 1 < routing_classes(k, rp) && vc >= routing_class_first(k, rp, c + 1, V)) c++;
    return c;
}

int routing_first_class(routing_kind k, const route_params *rp, const routing_plan *pl)
{
    if (k == ROUTING_O1TURN) return pl->yx;
    return table[k].escape ? routing_classes(k, rp) - 1 : 0;
}

unsigned routing_inject_vcs(routing_kind k, const route_params *rp, const routing_plan *pl, int V)
{
    if (table[k].escape) return (1u << V) - 1; /* min-adaptive: any VC, as BookSim2's min_adapt */
    const int c = routing_first_class(k, rp, pl);
    return ((1u << routing_class_first(k, rp, c + 1, V)) - 1) & ~((1u << routing_class_first(k, rp, c, V)) - 1);
}

/* dor2 [R-RF-7]: the dimension-order port; a header entering a ring (from P,
 * or turning from X to Y) takes class 1 when its leg in that ring takes the
 * ring's wrap link, class 0 when it does not, and keeps the class it
 * arrived in along the ring (as BookSim2's dim_order_torus; its half-ring
 * ties are a coin flip, ours --tie's). */
static int dor2_next(const route_params *rp, int node, int dest, int in_port, int cls, int *out_cls)
{
    const int d = route_grid_port(rp, node, dest), w = route_width(rp);
    const int xd_dim = d == PORT_E || d == PORT_W, in_dim = in_port == PORT_E || in_port == PORT_W;
    if (d == PORT_P) {
        *out_cls = cls;
        return d;
    }
    if (in_port != PORT_P && xd_dim == in_dim) {
        *out_cls = cls;
        return d;
    }
    const int here = xd_dim ? node % w : node / w, there = xd_dim ? dest % w : dest / w;
    *out_cls = d == PORT_E || d == PORT_N ? there < here : there > here;
    return d;
}

/* Valiant on a torus [R-RF-11]: class 2 x phase + dor2's class of the
 * ring (phase 0 to the intermediate node, phase 1 from it on), so each
 * phase is a dor2 routing in classes of its own.  At the intermediate node
 * the header starts its second leg as if injected there: it enters a ring
 * whichever way it arrived. */
static int valiant_torus_next(const route_params *rp, const routing_plan *pl, int node, int dest, int in_port, int cls,
                              int *out_cls)
{
    int ring, d;
    if (cls < 2 && node != pl->mid) {
        d = dor2_next(rp, node, pl->mid, in_port, cls, &ring);
        *out_cls = ring;
        return d;
    }
    d = dor2_next(rp, node, dest, cls < 2 ? PORT_P : in_port, cls < 2 ? 0 : cls - 2, &ring);
    *out_cls = 2 + ring;
    return d;
}

/* The minimal ports for offsets dx, dy (to the destination): E or W, N or
 * S, a bit each. */
static unsigned minimal_ports(int dx, int dy)
{
    unsigned m = 0;
    if (dx) m |= 1u << (dx > 0 ? PORT_E : PORT_W);
    if (dy) m |= 1u << (dy > 0 ? PORT_N : PORT_S);
    return m;
}

/* Chiu's odd-even rule at column xc (source column xs, destination column
 * xd, offsets dx, dy): in an even column no turn from E to N or S, in an odd
 * column none from N or S to W; what remains of the minimal ports (the
 * source's column may turn, a packet one column short of an even
 * destination column must turn now). */
static unsigned odd_even_ports(int dx, int dy, int xc, int xs, int xd)
{
    const unsigned all = minimal_ports(dx, dy), ns = all & (1u << PORT_N | 1u << PORT_S);
    if (dx == 0 || dy == 0) return all;
    if (dx > 0) {
        unsigned m = 0;
        if (xc % 2 == 1 || xc == xs) m |= ns;
        if (xd % 2 == 1 || dx != 1) m |= 1u << PORT_E;
        return m;
    }
    return 1u << PORT_W | (xc % 2 == 0 ? ns : 0);
}

/* An adaptive function's ports short of the destination, from coordinates
 * alone (min-adaptive: its adaptive ports): what routing_admissible and
 * routing_spread_adaptive both ask. */
static unsigned adaptive_ports(routing_kind k, int dx, int dy, int xc, int xs, int xd)
{
    const unsigned all = minimal_ports(dx, dy);
    const unsigned W = 1u << PORT_W, S = 1u << PORT_S, N = 1u << PORT_N;
    switch (k) {
    case ROUTING_WEST_FIRST: return dx < 0 ? W : all;
    case ROUTING_NORTH_LAST: return all == N ? N : all & ~N;
    case ROUTING_NEGATIVE_FIRST: return all & (W | S) ? all & (W | S) : all;
    case ROUTING_ODD_EVEN: return odd_even_ports(dx, dy, xc, xs, xd);
    default: return all;
    }
}

/* An oblivious function's one port for a header of a packet planned pl,
 * bound for dest, at `node`, that arrived through in_port on a VC of class
 * cls; *out_cls is the output VC's class.  PORT_P when it has arrived. */
static int oblivious_next(routing_kind k, const route_params *rp, const routing_plan *pl, int node, int dest,
                          int in_port, int cls, int *out_cls)
{
    switch (k) {
    case ROUTING_DOR2: return dor2_next(rp, node, dest, in_port, cls, out_cls);
    case ROUTING_YX:
        *out_cls = 0;
        return route_grid_port_yx(rp, node, dest);
    case ROUTING_O1TURN:
        *out_cls = pl->yx;
        return pl->yx ? route_grid_port_yx(rp, node, dest) : route_grid_port(rp, node, dest);
    case ROUTING_VALIANT:
    case ROUTING_ROMM:
        if (rp->topo == TOPO_TORUS) /* Valiant alone: ROMM is refused there */
            return valiant_torus_next(rp, pl, node, dest, in_port, cls, out_cls);
        /* Class 0 until the intermediate node, class 1 from it on: the
         * class a header arrived in says which leg it is on. */
        if (cls == 0 && node != pl->mid) {
            *out_cls = 0;
            return route_grid_port(rp, node, pl->mid);
        }
        *out_cls = 1;
        return route_grid_port(rp, node, dest);
    default:
        *out_cls = 0;
        return route_grid_port(rp, node, dest);
    }
}

routing_options routing_admissible(routing_kind k, const route_params *rp, const routing_plan *pl, int node, int src,
                                   int dest, int in_port, int cls)
{
    routing_options o = { .ports = 1u << PORT_P, .cls = cls, .esc = -1, .esc_cls = 0 };
    if (!table[k].adaptive) {
        o.ports = 1u << oblivious_next(k, rp, pl, node, dest, in_port, cls, &o.cls);
        return o;
    }
    if (node == dest) return o;
    const int w = route_width(rp);
    int dx, dy;
    route_grid_offsets(rp, node, dest, &dx, &dy);
    if (k != ROUTING_MIN_ADAPTIVE) {
        o.ports = adaptive_ports(k, dx, dy, node % w, src % w, dest % w);
        o.cls = 0;
        return o;
    }
    /* Min-adaptive: a header in an escape VC stays in the escape network
     * (as BookSim2's); one injected or in an adaptive VC may take any
     * minimal port in the adaptive class (the last), or its escape.  On a
     * torus the escape is dor2 in VCs 0 and 1: its class is chosen where
     * the header enters a ring of the escape, entering the escape counting
     * as entering its ring [R-RF-12]. */
    const int torus = rp->topo == TOPO_TORUS, adaptive = torus ? 2 : 1;
    const int dor = route_grid_port(rp, node, dest);
    if (cls < adaptive && in_port != PORT_P) {
        o.ports = 1u << (torus ? dor2_next(rp, node, dest, in_port, cls, &o.cls) : dor);
        if (!torus) o.cls = 0;
        return o;
    }
    o.ports = minimal_ports(dx, dy);
    o.cls = adaptive;
    o.esc = dor;
    if (torus) (void)dor2_next(rp, node, dest, PORT_P, 0, &o.esc_cls);
    return o;
}

int routing_turn_allowed(routing_kind k, const route_params *rp, int node, int moving, int out)
{
    if (out == route_opposite(moving)) return k == ROUTING_VALIANT; /* only at its intermediate node */
    const int nw = moving == PORT_N && out == PORT_W, sw = moving == PORT_S && out == PORT_W;
    switch (k) {
    case ROUTING_WEST_FIRST: return !(nw || sw);
    case ROUTING_NORTH_LAST: return moving != PORT_N || out == PORT_N;
    case ROUTING_NEGATIVE_FIRST: return !(nw || (moving == PORT_E && out == PORT_S));
    case ROUTING_ODD_EVEN:
        if (node % route_width(rp) % 2 == 0) return !(moving == PORT_E && (out == PORT_N || out == PORT_S));
        return !(nw || sw);
    default: return 1;
    }
}

void routing_spread_adaptive(routing_kind k, const route_params *rp, int src, int dest, double w, routing_link_fn fn,
                             void *ctx, double *cells)
{
    /* The routes are minimal, so a router's mass comes only from routers
     * nearer the source: the quadrant's cells in order of their distance
     * from it, offsets (i, j) from src towards dest. */
    /* On a torus the quadrant may wrap: its offsets are the route's, under
     * the tie rule, and its coordinates go round. */
    const int wd = route_width(rp), hd = route_height(rp), xs = src % wd, ys = src / wd, xd = dest % wd;
    int dx, dy;
    route_grid_offsets(rp, src, dest, &dx, &dy);
    const int ax = dx < 0 ? -dx : dx, ay = dy < 0 ? -dy : dy, sx = dx < 0 ? -1 : 1, sy = dy < 0 ? -1 : 1;
    for (int c = 0; c < (ax + 1) * (ay + 1); c++) cells[c] = 0;
    cells[0] = w;
    for (int s = 0; s < ax + ay; s++)
        for (int i = s < ay ? 0 : s - ay; i <= ax && i <= s; i++) {
            const int j = s - i;
            const double m = cells[j * (ax + 1) + i];
            if (m == 0) continue;
            const int x = (xs + sx * i + wd) % wd, y = (ys + sy * j + hd) % hd, node = y * wd + x;
            const unsigned ports = adaptive_ports(k, sx * (ax - i), sy * (ay - j), x, xs, xd);
            const double share = m / __builtin_popcount(ports);
            for (unsigned b = ports; b; b &= b - 1) {
                const int d = __builtin_ctz(b);
                fn(ctx, node, d, share);
                if (d == PORT_E || d == PORT_W) cells[j * (ax + 1) + i + 1] += share;
                else cells[(j + 1) * (ax + 1) + i] += share;
            }
        }
}

/* Node `node` passes on what reached it: to each minimal port of
 * min-adaptive on a torus with equal odds (routing_spread_adaptive_to). */
static void pass_torus(routing_kind k, const route_params *rp, int node, int dest, double *m0, routing_link_fn fn,
                       void *ctx)
{
    const double mass = m0[node];
    if (mass == 0) return;
    m0[node] = 0;
    int dx, dy;
    route_grid_offsets(rp, node, dest, &dx, &dy);
    const unsigned ports = adaptive_ports(k, dx, dy, 0, 0, 0);
    const double share = mass / __builtin_popcount(ports);
    for (unsigned b = ports; b; b &= b - 1) {
        const int d = __builtin_ctz(b);
        fn(ctx, node, d, share);
        m0[route_grid_neighbour(rp, node, d)] += share;
    }
}

/* routing_spread_adaptive_to on a torus (min-adaptive only: no source
 * column to keep apart, m1 unused): the routers in order of their hops to
 * dest, a ring distance a along X and b along Y, each at x = xd +- a and
 * y = yd +- b (one of each when it is 0 or half the ring).  O(nodes). */
static void spread_to_torus(routing_kind k, const route_params *rp, int dest, double *m0, routing_link_fn fn,
                            void *ctx)
{
    const int wd = route_width(rp), hd = route_height(rp), xd = dest % wd, yd = dest / wd;
    for (int dist = wd / 2 + hd / 2; dist > 0; dist--)
        for (int a = 0; a <= wd / 2 && a <= dist; a++) {
            const int b = dist - a;
            if (b > hd / 2) continue;
            for (int sx = 0; sx < (a == 0 || 2 * a == wd ? 1 : 2); sx++)
                for (int sy = 0; sy < (b == 0 || 2 * b == hd ? 1 : 2); sy++) {
                    const int x = (xd + (sx ? wd - a : a)) % wd, y = (yd + (sy ? hd - b : b)) % hd;
                    pass_torus(k, rp, y * wd + x, dest, m0, fn, ctx);
                }
        }
    m0[dest] = 0;
}

void routing_spread_adaptive_to(routing_kind k, const route_params *rp, int dest, double *m0, double *m1,
                                routing_link_fn fn, void *ctx)
{
    if (rp->topo == TOPO_TORUS) {
        spread_to_torus(k, rp, dest, m0, fn, ctx);
        return;
    }
    const int wd = route_width(rp), hd = route_height(rp), xd = dest % wd, yd = dest / wd;
    const int far = (xd > wd - 1 - xd ? xd : wd - 1 - xd) + (yd > hd - 1 - yd ? yd : hd - 1 - yd);
    for (int dist = far; dist > 0; dist--)
        for (int x = 0; x < wd; x++) {
            const int left = dist - (x > xd ? x - xd : xd - x);
            if (left < 0) continue;
            for (int side = 0; side < (left ? 2 : 1); side++) {
                const int y = side ? yd + left : yd - left;
                if (y < 0 || y >= hd) continue;
                const int node = y * wd + x;
                for (int layer = 0; layer < 2; layer++) {
                    double *m = layer ? m1 : m0;
                    const double mass = m[node];
                    if (mass == 0) continue;
                    m[node] = 0;
                    /* Still in the source's column: the source column is
                     * this one; past it: any other (-1). */
                    const unsigned ports = adaptive_ports(k, xd - x, yd - y, x, layer ? -1 : x, xd);
                    const double share = mass / __builtin_popcount(ports);
                    for (unsigned b = ports; b; b &= b - 1) {
                        const int d = __builtin_ctz(b);
                        fn(ctx, node, d, share);
                        if (d == PORT_E) m1[node + 1] += share;
                        else if (d == PORT_W) m1[node - 1] += share;
                        else m[d == PORT_N ? node + wd : node - wd] += share;
                    }
                }
            }
        }
    m0[dest] = m1[dest] = 0;
}

static const char *const selection_names[SELECT_COUNT] = { "credits", "random", "first" };

const char *routing_selection_name(routing_selection s) { return selection_names[s]; }

int routing_selection_parse(const char *name)
{
    for (int s = 0; s < SELECT_COUNT; s++)
        if (!strcmp(name, selection_names[s])) return s;
    return -1;
}

int routing_select(routing_selection sel, unsigned ports, const int *free, uint64_t hash)
{
    static const int order[4] = { PORT_E, PORT_W, PORT_N, PORT_S };
    if (!(ports & (ports - 1))) return __builtin_ctz(ports);
    int best = -1;
    if (sel == SELECT_RANDOM) {
        int nth = (int)((hash >> 32) * (uint64_t)__builtin_popcount(ports) >> 32);
        for (int j = 0; j < 4; j++)
            if (ports >> order[j] & 1 && nth-- == 0) return order[j];
    }
    for (int j = 0; j < 4; j++) {
        const int d = order[j];
        if (!(ports >> d & 1)) continue;
        if (sel == SELECT_FIRST) return d;
        if (best < 0 || free[d] > free[best]) best = d;
    }
    return best;
}

uint64_t routing_hash(uint64_t seed, int32_t id, int node)
{
    uint64_t s = seed ^ ((uint64_t)(uint32_t)id << 32 | (uint32_t)node);
    return rng_splitmix64(&s);
}

