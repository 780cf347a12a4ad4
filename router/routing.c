/* The routing functions' table and the functions (see routing.h). */
#include "router/routing.h"

#include <stdio.h>
#include <string.h>

#define MESH (1u << TOPO_MESH)
#define TORUS (1u << TOPO_TORUS)

static const routing_info table[ROUTING_COUNT] = {
    [ROUTING_DOR] = { "dor", "dor", 1, MESH | TORUS, 0,
                      "dimension order, X then Y (a torus: its datelines)" },
    [ROUTING_YX] = { "yx", NULL, 1, MESH, 0, "dimension order, Y then X" },
    [ROUTING_O1TURN] = { "o1turn", "xy_yx", 2, MESH, 1,
                         "XY or YX with equal odds a packet, each order in its own VC class" },
    [ROUTING_VALIANT] = { "valiant", "valiant", 2, MESH, 1,
                          "XY to a random node, then XY to the destination, a VC class each" },
    [ROUTING_ROMM] = { "romm", "romm", 2, MESH, 1,
                       "as valiant with the node drawn inside the minimal quadrant" },
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

int routing_check(routing_kind k, const route_params *rp, route_vc_rule rule, int vcs, char *err, size_t errlen)
{
    const routing_info *r = &table[k];
    if (!(r->topologies & (1u << rp->topo)))
        return snprintf(err, errlen, "routing %s: only on a mesh (on a torus its routes would need dateline "
                                     "classes it does not have yet)", r->name), -1;
    if (vcs < r->classes)
        return snprintf(err, errlen, "routing %s: needs at least %d VCs (one for each of its %d VC classes), "
                                     "the network has %d", r->name, r->classes, r->classes, vcs), -1;
    (void)rule; /* both rules keep each class deadlock-free on a mesh */
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

int routing_class_of(int vc, int K, int V)
{
    int c = 0;
    while (c + 1 < K && vc >= routing_class_first(c + 1, K, V)) c++;
    return c;
}

int routing_first_class(routing_kind k, const routing_plan *pl) { return k == ROUTING_O1TURN ? pl->yx : 0; }

int routing_next(routing_kind k, const route_params *rp, const routing_plan *pl, int node, int dest, int cls,
                 int *out_cls)
{
    switch (k) {
    case ROUTING_YX:
        *out_cls = 0;
        return route_grid_port_yx(rp, node, dest);
    case ROUTING_O1TURN:
        *out_cls = pl->yx;
        return pl->yx ? route_grid_port_yx(rp, node, dest) : route_grid_port(rp, node, dest);
    case ROUTING_VALIANT:
    case ROUTING_ROMM:
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
