/* Driver of scripts/ga_bounds.sh: the floor and the per-link bounds
 * (ga/bound.h) of the six patterns on an N x N torus with S slices, one
 * markdown row per pattern: floor, flit bound, packet bound, the bound, the
 * link and VC that give it, whether every packet problem was solved exactly,
 * and the time taken.  Usage: ga_bounds N S. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "ga/bound.h"
#include "traffic/traffic.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char **argv)
{
    if (argc != 3) { fprintf(stderr, "usage: ga_bounds N S\n"); return 2; }
    int n = atoi(argv[1]), slices = atoi(argv[2]);
    const char *pats[] = { "bcmp", "brev", "brot", "shfl", "torn", "trns" };
    for (int k = 0; k < 6; k++) {
        sim_params sp;
        sim_params_default(&sp);
        sp.n = n;
        sp.slices = slices;
        char err[256];
        traffic *t = traffic_new(pats[k], n, 1, err, sizeof err);
        if (!t) { fprintf(stderr, "%s\n", err); return 1; }
        ga_bound_info b;
        double t0 = now();
        if (ga_bound(&sp, t->dest, 0, &b)) { fprintf(stderr, "out of memory\n"); return 1; }
        double dt = now() - t0;
        static const char port[] = "NESW";
        char where[64] = "-";
        if (b.packet > b.floor)
            snprintf(where, sizeof where, "%d,%d %c VC %d", b.packet_link / 4 % n, b.packet_link / 4 / n,
                     port[b.packet_link % 4], b.packet_vc);
        printf("| %dx%d | %d | %s | %lld | %lld | %lld | **%lld** | %s | %s | %.2f s |\n", n, n, slices, pats[k],
               (long long)b.floor, (long long)b.flit, (long long)b.packet, (long long)b.bound, where,
               b.exact ? "yes" : "no", dt);
        traffic_free(t);
    }
    return 0;
}
