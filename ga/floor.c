/* The floor of a collective communication (see floor.h).
 *
 * A flit crosses the k-th link of its route in cycle >= k (its packet enters
 * the P FIFO in cycle 0 at the earliest and moves one hop a cycle), a link
 * carries one flit a cycle, and a flit that crosses its link in cycle t with
 * r links still to go ejects in cycle >= t + r + 1; the duration is the last
 * ejection cycle plus one.  So a link with F flits, first reachable at hop a
 * and left last with at least b links to go, gives F + a + b + 1. */
#include "ga/floor.h"

#include <stdlib.h>

#include "router/route.h"

int64_t ga_floor(const sim_params *p, const int32_t *dest)
{
    int nodes = sim_nodes(p);
    size_t nlinks = (size_t)nodes * 4;   /* node * 4 + d, d = N,E,S,W */
    int64_t *count = calloc(nlinks, sizeof *count);
    int32_t *first = malloc(nlinks * sizeof *first), *after = malloc(nlinks * sizeof *after);
    int32_t *path = malloc(sizeof *path * (size_t)(p->n + sim_height(p) + 2));
    if (!count || !first || !after || !path) {
        free(count); free(first); free(after); free(path);
        return -1;
    }
    int64_t msg = (int64_t)p->slices * p->flits, floor = 0;
    route_params rp = sim_route_params(p);
    /* Another routing function than dor's routes (dor2 takes dor's) spreads
     * the links' loads otherwise: only the sources' own bound holds, with
     * the fewest hops any route takes [R-RF-10]. */
    const int links = p->routing == ROUTING_DOR || p->routing == ROUTING_DOR2;
    for (int s = 0; s < nodes; s++) {
        if (dest[s] == s && p->self == SELF_SKIP) continue;
        if (!links) {
            const int64_t own = msg + route_hops(&rp, s, dest[s]) + 1;
            if (own > floor) floor = own;
            continue;
        }
        int node = s, in = PORT_P, vc = 0, hops = 0;
        for (;;) {
            int ovc, d = route_next(&rp, node, in, vc, dest[s], &ovc);
            if (d == PORT_P) break;
            path[hops++] = node * 4 + d;
            node = route_grid_neighbour(&rp, node, d);
            in = route_opposite(d);
            vc = ovc;
        }
        if (msg + hops + 1 > floor) floor = msg + hops + 1;   /* the source's own flits */
        for (int k = 0; k < hops; k++) {
            int32_t l = path[k];
            if (count[l] == 0 || k + 1 < first[l]) first[l] = k + 1;
            if (count[l] == 0 || hops - k - 1 < after[l]) after[l] = hops - k - 1;
            count[l] += msg;
        }
    }
    for (size_t l = 0; l < nlinks; l++)
        if (count[l] > 0 && count[l] + first[l] + after[l] + 1 > floor) floor = count[l] + first[l] + after[l] + 1;
    free(count); free(first); free(after); free(path);
    return floor;
}
