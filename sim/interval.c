/* Interval search on the evaluation pool (see interval.h). */
#include "sim/interval.h"

#include <stdlib.h>

/* sim_interval_search with every run stopped once its duration is certain
 * to exceed cutoff (0: none). */
static int search_block(sim_pool *pl, const sim_config *c, uint32_t lo, uint32_t hi, int64_t cutoff,
                        uint32_t *best_v, sim_metrics *best_m, sim_metrics *all, int64_t *sims)
{
    if (hi < lo) hi = lo;
    int width = (int)(hi - lo + 1);
    sim_config **cfg = calloc((size_t)width, sizeof *cfg);
    sim_job *jobs = calloc((size_t)width, sizeof *jobs);
    int rc = (cfg && jobs) ? 0 : -1;
    for (int k = 0; rc == 0 && k < width; k++) {
        if (!(cfg[k] = sim_config_new(c->nodes, c->vcs, 0, 0))) { rc = -1; break; }
        sim_config_copy(cfg[k], c);
        cfg[k]->interval = lo + (uint32_t)k;
        jobs[k] = (sim_job){ .cfg = cfg[k], .cutoff = cutoff };
    }
    if (rc == 0) {
        sim_pool_run(pl, jobs, width);
        *sims += width;
        int best = -1;
        for (int k = 0; all && k < width; k++) all[k] = jobs[k].m;
        for (int k = 0; k < width; k++)
            if (jobs[k].m.status == SIM_OK && (best < 0 || jobs[k].m.duration < jobs[best].m.duration)) best = k;
        if (best < 0) best = 0; /* nothing finished: report the first, its status says why */
        *best_v = lo + (uint32_t)best;
        *best_m = jobs[best].m;
    }
    for (int k = 0; cfg && k < width; k++) sim_config_free(cfg[k]);
    free(cfg);
    free(jobs);
    return rc;
}

int sim_interval_search(sim_pool *pl, const sim_config *c, uint32_t lo, uint32_t hi,
                       uint32_t *best_v, sim_metrics *best_m, sim_metrics *all, int64_t *sims)
{
    return search_block(pl, c, lo, hi, 0, best_v, best_m, all, sims);
}

int sim_interval_search_bounded(sim_pool *pl, const sim_config *c, uint32_t lo, uint32_t hi, int slices, int flits,
                                uint32_t *best_v, sim_metrics *best_m, int64_t *sims)
{
    if (hi < lo) hi = lo;
    int have = 0;
    for (uint32_t v = lo; v <= hi;) {
        /* Every V from here on is provably worse than the best. */
        if (have && best_m->status == SIM_OK && (int64_t)(slices - 1) * v + flits > best_m->duration) break;
        uint32_t end = hi - v < SIM_INTERVAL_BLOCK - 1 ? hi : v + SIM_INTERVAL_BLOCK - 1;
        /* A later block's V wins only if shorter than the best, so its runs
         * stop once they cannot be (a cutoff of 0 would mean none). */
        const int64_t cutoff = have && best_m->status == SIM_OK && best_m->duration > 1 ? best_m->duration - 1 : 0;
        uint32_t bv;
        sim_metrics m;
        if (search_block(pl, c, v, end, cutoff, &bv, &m, NULL, sims)) return -1;
        /* Earlier blocks hold smaller V: a later block wins only if shorter. */
        if (!have || (m.status == SIM_OK && (best_m->status != SIM_OK || m.duration < best_m->duration))) {
            *best_v = bv;
            *best_m = m;
            have = 1;
        }
        if (end == hi) break;
        v = end + 1;
    }
    return 0;
}
