/* Interval search on the evaluation pool (see interval.h). */
#include "sim/interval.h"

#include <stdlib.h>

int sim_interval_search(sim_pool *pl, const sim_config *c, uint32_t lo, uint32_t hi,
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
        jobs[k] = (sim_job){ .cfg = cfg[k], .cutoff = 0 };
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
