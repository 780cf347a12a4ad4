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

bool cc_search(const cc_problem *pb, const cc_paths *paths, const cc_search_params *sp,
               cc_search_result *res, char err[CC_ERRLEN])
{
    memset(res, 0, sizeof *res);
    double t0 = now();
    cc_rng rng;
    cc_rng_seed(&rng, sp->seed);
    int S = sp->steps > 0 ? sp->steps : (sp->start_steps > 0 ? sp->start_steps : 1);
    int last = sp->steps > 0 ? sp->steps : sp->max_steps;
    cc_algo_params ap = { sp->budget, sp->pop, sp->pmut };
    for (; S <= last; S++) {
        cc_enc *e = cc_enc_new(pb, paths, S, err);
        if (!e) return false;
        int *x = malloc((size_t)(cc_enc_nvar(e) + 1) * sizeof *x);
        cc_algo_out out = { .x = x };
        if (!x || !sp->algo->run(e, &ap, &rng, &out)) {
            free(x); cc_enc_free(e);
            snprintf(err, CC_ERRLEN, "out of memory in the search");
            return false;
        }
        res->steps = S;
        res->evals_to_best = res->evals + out.evals_to_best;
        res->evals += out.evals;
        if (out.best == 0) {
            cc_schedule *s = cc_schedule_new();
            cc_enc_eval(e, x, &rng);   /* re-derive the repaired tree for decoding */
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
            res->steps = res->vr.steps;   /* may be fewer than the target */
            break;
        }
        free(x);
        cc_enc_free(e);
    }
    res->seconds = now() - t0;
    return true;
}
