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

int route_offset(const route_params *rp, int a, int b)
{
    int n = rp->n, d = b - a;
    if (d > n / 2) d -= n;
    else if (d < -n / 2) d += n;
    /* d == +-n/2 here is the tie; the code above already leaves it pointing
     * the way that avoids the wrap link. */
    if (d == n / 2 || d == -n / 2) {
        if (rp->tie == TIE_PLUS) d = n / 2;
        else if (rp->tie == TIE_MINUS) d = -n / 2;
    }
    return d;
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

int route_next(const route_params *rp, int node, int in_port, int vc, int dest, int *out_vc)
{
    int n = rp->n;
    int dx = route_offset(rp, node % n, dest % n);
    int dy = route_offset(rp, node / n, dest / n);
    int d;
    if (dx != 0) d = dx > 0 ? PORT_E : PORT_W;
    else if (dy != 0) d = dy > 0 ? PORT_N : PORT_S;
    else d = PORT_P;

    int up;
    if (rp->dateline == DATELINE_ON_LINK) {
        up = d != PORT_P && route_is_dateline(n, node, d);
    } else {
        /* The link the packet arrived on leaves the upstream node through the
         * port opposite to the input port. */
        up = in_port != PORT_P &&
             route_is_dateline(n, route_neighbour(n, node, in_port), route_opposite(in_port));
    }
    *out_vc = vc + up;
    return d;
}

int route_hops(const route_params *rp, int src, int dst)
{
    int n = rp->n;
    return abs(route_offset(rp, src % n, dst % n)) + abs(route_offset(rp, src / n, dst / n));
}
