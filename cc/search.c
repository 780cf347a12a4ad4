/* The search driver; see search.h.  A run that does not reach zero conflicts
 * within the budget at S steps moves on to S+1, as in paper 002 ("if it does
 * not do so in a reasonable time, the prescribed number of steps must be
 * increased"). */
#include "cc/search.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0) return 0.0;
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void cc_search_result_clear(cc_search_result *res)
{
    cc_schedule_free(res->sched);
    memset(res, 0, sizeof *res);
}

/* One target S in one phase; *done when a verified schedule was found. */
static bool run_target(const cc_problem *pb, const cc_paths *paths, const cc_search_params *sp, int S, bool hop1,
                       cc_rng *rng, cc_search_result *res, bool *done, char err[CC_ERRLEN])
{
    cc_algo_params ap = { sp->budget, sp->pop, sp->pmut };
    cc_enc *e = cc_enc_new(pb, paths, S, hop1, err);
    if (!e) return false;
    int *x = malloc((size_t)(cc_enc_nvar(e) + 1) * sizeof *x);
    cc_algo_out out = { .x = x };
    if (!x || !sp->algo->run(e, &ap, rng, &out)) {
        free(x); cc_enc_free(e);
        snprintf(err, CC_ERRLEN, "out of memory in the search");
        return false;
    }
    res->steps = S;
    res->evals_to_best = res->evals + out.evals_to_best;
    res->evals += out.evals;
    if (out.best == 0) {
        cc_schedule *s = cc_schedule_new();
        cc_enc_eval(e, x, rng);   /* re-derive the repaired tree for decoding */
        if (!s || !cc_enc_decode(e, x, s) || !cc_verify(pb, s, &res->vr)) {
            cc_schedule_free(s); free(x); cc_enc_free(e);
            snprintf(err, CC_ERRLEN, "out of memory decoding the schedule");
            return false;
        }
        free(x);
        cc_enc_free(e);
        cc_schedule_sort(s);
        if (!res->vr.ok) {
            cc_schedule_free(s);
            snprintf(err, CC_ERRLEN, "internal error: verifier rejects the schedule: %.180s", res->vr.first);
            return false;
        }
        res->sched = s;
        res->found = true;
        res->neighbour_only = hop1;
        res->steps = res->vr.steps;   /* may be fewer than the target */
        *done = true;
        return true;
    }
    free(x);
    cc_enc_free(e);
    return true;
}

bool cc_search(const cc_problem *pb, const cc_paths *paths, const cc_search_params *sp,
               cc_search_result *res, char err[CC_ERRLEN])
{
    memset(res, 0, sizeof *res);
    double t0 = now();
    cc_rng rng;
    cc_rng_seed(&rng, sp->seed);
    int S = sp->steps > 0 ? sp->steps : (sp->start_steps > 0 ? sp->start_steps : 1);
    int last = sp->steps > 0 ? sp->steps : sp->max_steps;
    /* Neighbour-only deliveries reach receiver d of origin o no earlier than
     * step dist(o, d), so that phase is worth trying only from there on. */
    int far = 0;
    if (pb->broadcast && pb->sw == CC_WH && sp->neighbour_first)
        for (int m = 0; m < pb->nmsg; m++) {
            int d = paths->dist[pb->msrc[m] * paths->n + pb->mdst[m]];
            if (d > far) far = d;
        }
    for (; S <= last; S++) {
        bool done = false;
        for (int phase = 0; phase < 2 && !done; phase++) {
            bool hop1 = phase == 0;
            if (hop1 && (far == 0 || S < far)) continue;
            if (!run_target(pb, paths, sp, S, hop1, &rng, res, &done, err)) return false;
        }
        if (done) break;
    }
    res->seconds = now() - t0;
    return true;
}
