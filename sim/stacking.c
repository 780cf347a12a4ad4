/* Simple stacking on the evaluation pool (see stacking.h). */
#include "sim/stacking.h"

#include <stdlib.h>
#include <string.h>

#include "router/arbiter.h"
#include "sim/interval.h"

int sim_stacking_sweep(sim_pool *pl, int nodes, int vcs, const int *schemes, int nschemes, uint32_t lo,
                       uint32_t hi, uint32_t *best_v, int64_t *best_d, int64_t *durations, int64_t *sims)
{
    if (hi < lo) hi = lo;
    size_t width = (size_t)(hi - lo) + 1;
    sim_config *c = sim_config_new(nodes, vcs, 0, lo);
    sim_metrics *all = durations ? calloc(width, sizeof *all) : NULL;
    int rc = (c && (all || !durations)) ? 0 : -1;
    for (int s = 0; rc == 0 && s < nschemes; s++) {
        sim_metrics m;
        memset(c->scheme, schemes[s], (size_t)nodes * NPORTS);
        if (sim_interval_search(pl, c, lo, hi, &best_v[s], &m, all, sims)) {
            rc = -1;
            break;
        }
        best_d[s] = m.status == SIM_OK ? m.duration : -1;
        for (size_t j = 0; durations && j < width; j++)
            durations[(size_t)s * width + j] = all[j].status == SIM_OK ? all[j].duration : -1;
    }
    free(all);
    sim_config_free(c);
    return rc;
}

int sim_stacking_optima(sim_pool *pl, int nodes, int vcs, int slices, int flits, const int *schemes, int nschemes,
                        uint32_t lo, uint32_t hi, uint32_t *best_v, int64_t *best_d, int64_t *sims)
{
    sim_config *c = sim_config_new(nodes, vcs, 0, lo);
    if (!c) return -1;
    int rc = 0;
    for (int s = 0; rc == 0 && s < nschemes; s++) {
        sim_metrics m;
        memset(c->scheme, schemes[s], (size_t)nodes * NPORTS);
        rc = sim_interval_search_bounded(pl, c, lo, hi, slices, flits, &best_v[s], &m, sims);
        best_d[s] = rc == 0 && m.status == SIM_OK ? m.duration : -1;
    }
    sim_config_free(c);
    return rc;
}

int sim_stacking_best(const int64_t *best_d, int n)
{
    int best = 0;
    for (int s = 0; s < n; s++)
        if (best_d[s] >= 0 && (best_d[best] < 0 || best_d[s] < best_d[best])) best = s;
    return best;
}
