/* Islands: what one island gives and takes, and the MPI ring that connects
 * them (see island.h). */
#include "ga/island.h"
#include "ga/chrom.h"
#include "ga/ga_internal.h"

#include <stdlib.h>
#include <string.h>

size_t ga_island_size(const ga *g) { return chrom_grid_size(g->n, sim_height(&g->sp), g->sp.vcs); }

void ga_island_emigrant(const ga *g, uint8_t *buf) { chrom_encode(g->best, g->n, buf); }

int ga_island_immigrant(ga *g, const uint8_t *buf, size_t len, char *err, size_t errlen)
{
    int n, h, vcs;
    if (len != ga_island_size(g) || chrom_peek(buf, len, &n, &h, &vcs) || n != g->n || h != sim_height(&g->sp) ||
        vcs != g->sp.vcs) {
        snprintf(err, errlen, "a migrant of %zu bytes is no chromosome of this %dx%d network", len, g->n,
                 sim_height(&g->sp));
        return -FAULT_INTERNAL;   /* the islands run one program on one network */
    }
    /* The last child slot is free between generations. */
    sim_config *c = g->child[g->gp.pop - 1];
    if (chrom_decode(c, buf, len, err, errlen)) return -FAULT_INTERNAL;
    int64_t *tails = g->tl.ctails ? g->tl.ctails[g->gp.pop - 1] : NULL;
    g->jobs[0] = (sim_job){ .cfg = c, .cutoff = 0, .tails = tails, .dec = g->rp.cdec ? g->rp.cdec[g->gp.pop - 1] : NULL };
    sim_pool_run(g->pool, g->jobs, 1);
    g->evals++;
    sim_metrics m = g->jobs[0].m;
    int64_t sc = ga_score(&g->gp, &m);
    ga_consider(g, c, &m, sc);
    int worst = 0;
    for (int k = 1; k < g->gp.pop; k++)
        if (g->score[k] > g->score[worst]) worst = k;
    int better = g->gp.algo == GA_ALGO_PAPER ? sc < g->score[worst] : sc <= g->score[worst];
    if (!better) return 0;
    sim_config_copy(g->pop[worst], c);
    ga_spec_void(g); /* a new parent: no speculated child of the old one */
    g->score[worst] = sc;
    g->pop_m[worst] = m;
    g->age[worst] = 0;
    if (tails) {
        memcpy(g->tl.tails[worst], tails, sizeof *tails * (size_t)g->tl.npk);
        g->tl.ok[worst] = m.status == SIM_OK;
    }
    /* The new parent's decisions, or its children would be checked against
     * the old one's. */
    if (g->rp.dec) {
        sim_decisions *d = g->rp.dec[worst]; g->rp.dec[worst] = g->rp.cdec[g->gp.pop - 1]; g->rp.cdec[g->gp.pop - 1] = d;
    }
    ga_parent_runs_replaced(g, worst);   /* its delta record is the old chromosome's */
    return 1;
}

#ifdef NOCSIM_MPI
#include <mpi.h>

int ga_island_run(ga *g, int every, int (*stop)(void), void (*progress)(const ga *g, void *ctx),
                  void *ctx, char *err, size_t errlen)
{
    int rank, K;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &K);
    size_t len = ga_island_size(g);
    uint8_t *out = malloc(len), *in = malloc(len);
    int rc = 0;
    if (!out || !in) { snprintf(err, errlen, "out of memory"); rc = -FAULT_RESOURCE; }
    for (int go = rc == 0; go;) {
        int more = ga_step(g, err, errlen);
        /* Everyone stops when one island is done, failed or interrupted. */
        int mine = more < 0 ? -1 : (stop && stop()) ? 0 : more, all;
        MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
        if (more < 0) rc = more;
        if (rank == 0 && progress) progress(g, ctx);
        go = all > 0;
        if (go && K > 1 && every > 0 && g->generation % every == 0) {
            ga_island_emigrant(g, out);
            MPI_Sendrecv(out, (int)len, MPI_BYTE, (rank + 1) % K, 7, in, (int)len, MPI_BYTE, (rank + K - 1) % K, 7,
                         MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            int took = ga_island_immigrant(g, in, len, err, errlen);
            if (took < 0) rc = took;
        }
        if (rc) go = 0;
    }
    /* Every island's best to rank 0, so that the recorded run holds the best of all. */
    if (K > 1 && out && in) {
        ga_island_emigrant(g, out);
        uint8_t *all = rank == 0 ? malloc(len * (size_t)K) : NULL;
        MPI_Gather(out, (int)len, MPI_BYTE, all, (int)len, MPI_BYTE, 0, MPI_COMM_WORLD);
        for (int r = 1; rank == 0 && all && r < K && rc == 0; r++) {
            int took = ga_island_immigrant(g, all + (size_t)r * len, len, err, errlen);
            if (took < 0) rc = took;
        }
        free(all);
    }
    if (rc == 0) rc = ga_flush(g, err, errlen);
    free(out);
    free(in);
    if (rc == 0 && stop && stop()) rc = 1;
    return rc;
}
#endif
