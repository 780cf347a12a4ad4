/* The search driver; see search.h.  A run that does not reach zero conflicts
 * within the budget at S steps moves on to S+1, as in paper 002 ("if it does
 * not do so in a reasonable time, the prescribed number of steps must be
 * increased"). */
#include "cc/search.h"

#include "cc/ring.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

cc_search_params cc_search_defaults(void)
{
    return (cc_search_params){ .algo = &cc_algo_sa, .budget = CC_DEFAULT_BUDGET, .pop = CC_DEFAULT_POP, .pmut = 0.9, .threads = 1,
                               .neighbour_first = true, .ring = true, .seed = CC_DEFAULT_SEED };
}

static double now(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0) return 0.0;
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

double cc_search_now(void)
{
    return now();
}

void cc_search_result_clear(cc_search_result *res)
{
    cc_schedule_free(res->sched);
    memset(res, 0, sizeof *res);
}

/* Bytes one target's search holds at most: the population's chromosomes
 * (two per member for the copies algorithms keep) and the encoding's
 * per-step tables. */
static double search_bytes(const cc_problem *pb, const cc_search_params *sp, int S)
{
    double nvar = (double)pb->nmsg * (pb->broadcast ? 3 : 2);
    double members = 2.0 * (sp->pop > 2 ? sp->pop : 2) + 4;
    double n = pb->t->n;
    return sizeof(int) * (nvar * members + (double)S * (pb->t->nch + 2 * n) + 3 * n * n);
}

/* A schedule the search believes valid: decode, verify, keep. */
static int accept(cc_enc *e, int *x, const cc_problem *pb, bool hop1, rng *rng, cc_search_result *res, char *err, size_t errlen)
{
    cc_schedule *s = cc_schedule_new();
    cc_enc_eval(e, x, rng);   /* re-derive the repaired tree for decoding */
    if (!s || cc_enc_decode(e, x, s) != CC_OK || cc_verify(pb, s, &res->vr) != CC_OK) {
        cc_schedule_free(s);
        return cc_fail(CC_ENOMEM, err, errlen, "out of memory decoding the schedule");
    }
    cc_schedule_sort(s);
    if (!res->vr.ok) {
        cc_schedule_free(s);
        return cc_fail(CC_EINTERNAL, err, errlen, "internal error: verifier rejects the schedule: %.180s", res->vr.first);
    }
    res->sched = s;
    res->found = true;
    res->neighbour_only = hop1;
    res->steps = res->vr.steps;   /* may be fewer than the target */
    return CC_OK;
}

/* The constructed ring (owned by the call): verified like any schedule. */
static int accept_ring(const cc_problem *pb, cc_schedule *s, cc_search_result *res, char *err, size_t errlen)
{
    if (cc_verify(pb, s, &res->vr) != CC_OK) { cc_schedule_free(s); return cc_fail(CC_ENOMEM, err, errlen, "out of memory verifying"); }
    if (!res->vr.ok) {
        cc_schedule_free(s);
        return cc_fail(CC_EINTERNAL, err, errlen, "internal error: verifier rejects the ring schedule: %.180s", res->vr.first);
    }
    cc_schedule_sort(s);
    res->sched = s;
    res->found = true;
    res->ring = true;
    res->steps = res->vr.steps;
    res->evals_to_best = res->evals;
    return CC_OK;
}

typedef struct { const cc_search_params *sp; int S; long before; volatile int stop; } progress_hop;

static void on_progress(void *ctx, long evals)
{
    progress_hop *h = ctx;
    if (h->sp->deadline > 0 && now() >= h->sp->deadline) h->stop = 1;
    if (h->sp->progress) h->sp->progress(h->sp->progress_ctx, h->sp->seed, h->S, evals, h->before + evals);
}

/* One target S in one phase; res->found when a verified schedule was found. */
static int run_target(const cc_problem *pb, const cc_paths *paths, const cc_search_params *sp, int S, bool hop1,
                      rng *rng, cc_search_result *res, char *err, size_t errlen)
{
    cc_algo_params ap = { sp->budget, sp->pop, sp->pmut, sp->threads, NULL };
    cc_enc *e;
    int rc = cc_enc_new(pb, paths, S, hop1, &e, err, errlen);
    if (rc != CC_OK) return rc;
    int *x = malloc((size_t)(cc_enc_nvar(e) + 1) * sizeof *x);
    cc_algo_out out = { .x = x };
    progress_hop hop = { sp, S, res->evals, 0 };
    ap.stop = &hop.stop;
    if (sp->progress || sp->deadline > 0) cc_enc_set_progress(e, on_progress, &hop);
    if (!x || sp->algo->run(e, &ap, rng, &out) != CC_OK) {
        free(x);
        cc_enc_free(e);
        return cc_fail(CC_ENOMEM, err, errlen, "out of memory in the search");
    }
    res->steps = S;
    res->evals_to_best = res->evals + out.evals_to_best;
    res->evals += out.evals;
    if (hop.stop) res->timed_out = true;
    if (out.best == 0) rc = accept(e, x, pb, hop1, rng, res, err, errlen);
    free(x);
    cc_enc_free(e);
    return rc;
}

int cc_search(const cc_problem *pb, const cc_paths *paths, const cc_search_params *sp,
              cc_search_result *res, char *err, size_t errlen)
{
    memset(res, 0, sizeof *res);
    double t0 = now();
    rng rng;
    rng_seed(&rng, sp->seed);
    int S = sp->steps > 0 ? sp->steps : (sp->start_steps > 0 ? sp->start_steps : 1);
    int last = sp->steps > 0 ? sp->steps : sp->max_steps > 0 ? sp->max_steps : 4 * S + 8;
    if (search_bytes(pb, sp, last) > (double)CC_MAX_BYTES)
        return cc_fail(CC_EINPUT, err, errlen, "the search of %d messages over %d steps would need %.0f MB, limit %zu MB",
                       pb->nmsg, last, search_bytes(pb, sp, last) / 1048576.0, CC_MAX_BYTES >> 20);
    /* Neighbour-only deliveries reach receiver d of origin o no earlier than
     * step dist(o, d), so that phase is worth trying only from there on. */
    int far = 0;
    if (pb->broadcast && pb->sw == CC_WH && sp->neighbour_first)
        for (int m = 0; m < pb->nmsg; m++) {
            int d = paths->dist[pb->msrc[m] * paths->n + pb->mdst[m]];
            if (d > far) far = d;
        }
    int members = 0;
    for (int v = 0; v < pb->t->n; v++) members += pb->receiver[v];
    bool ring_tried = !sp->ring || !pb->broadcast;
    for (; S <= last && !res->found && !res->timed_out; S++) {
        if (sp->deadline > 0 && now() >= sp->deadline) {
            res->timed_out = true;
            break;
        }
        if (!ring_tried && S >= members - 1) {   /* looked for only when a target needs it */
            ring_tried = true;
            cc_schedule *ring = NULL;
            int rc = cc_ring_schedule(pb, paths, CC_RING_EXPANSIONS, &ring, err, errlen);
            if (rc == CC_OK && ring) rc = accept_ring(pb, ring, res, err, errlen);
            if (rc != CC_OK) { cc_search_result_clear(res); return rc; }
            if (res->found) break;
        }
        for (int phase = 0; phase < 2 && !res->found && !res->timed_out; phase++) {
            bool hop1 = phase == 0;
            if (hop1 && (far == 0 || S < far)) continue;
            int rc = run_target(pb, paths, sp, S, hop1, &rng, res, err, errlen);
            if (rc != CC_OK) { cc_search_result_clear(res); return rc; }
        }
    }
    res->seconds = now() - t0;
    return CC_OK;
}

int cc_search_series(const cc_problem *pb, const cc_paths *paths, const cc_search_params *sp, int runs, int bound,
                     cc_run_cb cb, void *ctx, cc_series *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    out->best_run = -1;
    cc_search_params p = *sp;
    for (int run = 0; run < runs; run++) {
        if (sp->deadline > 0 && run > 0 && now() >= sp->deadline) {
            out->timed_out = true;
            break;
        }
        cc_search_result res;
        p.seed = sp->seed + (uint64_t)run;
        int rc = cc_search(pb, paths, &p, &res, err, errlen);
        if (rc != CC_OK) { cc_search_result_clear(&out->best); return rc; }
        out->runs++;
        out->timed_out |= res.timed_out;
        if (res.found) {
            out->found++;
            out->reached += res.steps <= bound;
            out->sum_steps += res.steps;
        }
        out->sum_seconds += res.seconds;
        out->sum_evals_to_best += (double)res.evals_to_best;
        if (cb) cb(ctx, run, p.seed, &res);
        if (res.found && (!out->best.found || res.steps < out->best.steps)) {
            cc_search_result_clear(&out->best);
            out->best = res;
            out->best_run = run;
        } else cc_search_result_clear(&res);
    }
    return CC_OK;
}
