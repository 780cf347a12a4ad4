/* Torus geometry and dimension-order routing with datelines (see route.h). */
#include "router/route.h"

#include <stdlib.h>

char route_port_name(int port) { return "NESWP"[port]; }

int route_port_parse(char c)
{
    switch (c) {
    case 'N': return PORT_N;
    case 'E': return PORT_E;
    case 'S': return PORT_S;
    case 'W': return PORT_W;
    case 'P': return PORT_P;
    default:  return -1;
    }
}

int route_neighbour(int n, int i, int d)
{
    int x = i % n, y = i / n;
    switch (d) {
    case PORT_N: y = (y + 1) % n; break;
    case PORT_E: x = (x + 1) % n; break;
    case PORT_S: y = (y + n - 1) % n; break;
    default:     x = (x + n - 1) % n; break;
    }
    return y * n + x;
}

/* Signed offset from a to b on a ring of n nodes under the tie rule. */
static int ring_offset(int n, route_tie tie, int a, int b)
{
    int d = b - a;
    if (d > n / 2) d -= n;
    else if (d < -n / 2) d += n;
    /* d == +-n/2 here is the tie; the code above already leaves it pointing
     * the way that avoids the wrap link. */
    if (d == n / 2 || d == -n / 2) {
        if (tie == TIE_PLUS) d = n / 2;
        else if (tie == TIE_MINUS) d = -n / 2;
    }
    return d;
}

int route_offset(const route_params *rp, int a, int b) { return ring_offset(rp->n, rp->tie, a, b); }

/* Offset along one dimension of k nodes of rp's grid. */
static int dim_offset(const route_params *rp, int k, int a, int b)
{
    return rp->topo == TOPO_MESH ? b - a : ring_offset(k, rp->tie, a, b);
}

/* A dateline sits on the wrap link (between n-1 and 0) and on the link between
 * n/2-1 and n/2, in both directions. */
static int crosses(int n, int c, int step)
{
    int next = (c + step + n) % n;
    int lo = step > 0 ? c : next; /* the lower end of the link, going + */
    return lo == n - 1 || lo == n / 2 - 1;
}

int route_is_dateline(int n, int i, int d)
{
    int x = i % n, y = i / n;
    switch (d) {
    case PORT_N: return crosses(n, y, +1);
    case PORT_E: return crosses(n, x, +1);
    case PORT_S: return crosses(n, y, -1);
    case PORT_W: return crosses(n, x, -1);
    default:     return 0;
    }
}

int route_grid_port(const route_params *rp, int node, int dest)
{
    int w = route_width(rp), h = route_height(rp);
    int dx = dim_offset(rp, w, node % w, dest % w);
    if (dx != 0) return dx > 0 ? PORT_E : PORT_W;
    int dy = dim_offset(rp, h, node / w, dest / w);
    if (dy != 0) return dy > 0 ? PORT_N : PORT_S;
    return PORT_P;
}

int route_grid_port_yx(const route_params *rp, int node, int dest)
{
    int w = route_width(rp), h = route_height(rp);
    int dy = dim_offset(rp, h, node / w, dest / w);
    if (dy != 0) return dy > 0 ? PORT_N : PORT_S;
    int dx = dim_offset(rp, w, node % w, dest % w);
    if (dx != 0) return dx > 0 ? PORT_E : PORT_W;
    return PORT_P;
}

void route_grid_offsets(const route_params *rp, int a, int b, int *dx, int *dy)
{
    int w = route_width(rp), h = route_height(rp);
    *dx = dim_offset(rp, w, a % w, b % w);
    *dy = dim_offset(rp, h, a / w, b / w);
}

int route_grid_neighbour(const route_params *rp, int i, int d)
{
    int w = route_width(rp), h = route_height(rp), x = i % w, y = i / w;
    switch (d) {
    case PORT_N: y++; break;
    case PORT_E: x++; break;
    case PORT_S: y--; break;
    default:     x--; break;
    }
    if (rp->topo == TOPO_MESH && (x < 0 || x >= w || y < 0 || y >= h)) return -1;
    return ((y + h) % h) * w + (x + w) % w;
}

int route_grid_dateline(const route_params *rp, int i, int d)
{
    if (rp->topo == TOPO_MESH) return 0;
    int w = route_width(rp), h = route_height(rp);
    switch (d) {
    case PORT_N: return crosses(h, i / w, +1);
    case PORT_E: return crosses(w, i % w, +1);
    case PORT_S: return crosses(h, i / w, -1);
    case PORT_W: return crosses(w, i % w, -1);
    default:     return 0;
    }
}

int route_next(const route_params *rp, int node, int in_port, int vc, int dest, int *out_vc)
{
    int d = route_grid_port(rp, node, dest);
    int up;
    if (rp->dateline == DATELINE_ON_LINK) {
        up = d != PORT_P && route_grid_dateline(rp, node, d);
    } else {
        /* The link the packet arrived on leaves the upstream node through the
         * port opposite to the input port. */
        up = in_port != PORT_P &&
             route_grid_dateline(rp, route_grid_neighbour(rp, node, in_port), route_opposite(in_port));
    }
    *out_vc = vc + up;
    return d;
}

uint8_t route_grid_dateline_bits(const route_params *rp, int i)
{
    uint8_t dl = 0;
    for (int d = 0; d < PORT_P; d++) {
        if (route_grid_dateline(rp, i, d)) dl |= (uint8_t)(1u << d);
        int nb = route_grid_neighbour(rp, i, d);
        if (nb >= 0 && route_grid_dateline(rp, nb, route_opposite(d))) dl |= (uint8_t)(16u << d);
    }
    return dl;
}

void route_local_tables(int vcs, uint8_t *port, uint8_t *vc, uint8_t *down)
{
    for (int k = 0; k < NPORTS * vcs; k++) {
        port[k] = (uint8_t)(k / vcs);
        vc[k] = (uint8_t)(k % vcs);
        down[k] = (uint8_t)(route_opposite(k / vcs) * vcs + k % vcs);
    }
}

int route_hops(const route_params *rp, int src, int dst)
{
    int w = route_width(rp), h = route_height(rp);
    return abs(dim_offset(rp, w, src % w, dst % w)) + abs(dim_offset(rp, h, src / w, dst / w));
}
