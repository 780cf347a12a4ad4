/* Tests of the evaluation pool (sim/pool.c): whatever the thread count,
 * every job's metrics are those of one plain simulator running the same
 * configuration; a job without a configuration keeps its metrics; batches of
 * one job and of none come back done; a cutoff is each job's own. */
#include <check.h>

#include "tests/testutil.h"
#include <stdlib.h>
#include <string.h>

#include "router/arbiter.h"
#include "sim/pool.h"
#include "traffic/traffic.h"

enum { NCFG = 24, NODES = 16 };

/* Configurations of every scheme at intervals 8 .. 31. */
static void make_configs(const sim_params *p, sim_config **cfg)
{
    for (int k = 0; k < NCFG; k++) {
        cfg[k] = sim_config_new(NODES, p->vcs, k % VCSEL_NSCHEMES, (uint32_t)(8 + k));
        ck_assert_ptr_nonnull(cfg[k]);
    }
}

/* A 4x4 bit-reversal, its configurations and their durations. */
typedef struct {
    sim_params p;
    traffic *t;
    sim_config *cfg[NCFG];
    int64_t want[NCFG];
} fixture;

static void plain_durations(const sim_params *p, const int32_t *dest, sim_config **cfg, int64_t *dur);

/* Every test's, made afresh for each (Check's checked fixture). */
static fixture F;

static void fixture_init(void)
{
    fixture *f = &F;
    char err[256];
    f->p = testutil_params(4, 8, 2);
    f->t = traffic_new("brev", f->p.n, 1, err, sizeof err);
    ck_assert_msg(f->t != NULL, "%s", err);
    make_configs(&f->p, f->cfg);
    plain_durations(&f->p, f->t->dest, f->cfg, f->want);
}

static void fixture_free(void)
{
    fixture *f = &F;
    for (int k = 0; k < NCFG; k++) sim_config_free(f->cfg[k]);
    traffic_free(f->t);
}

/* Each configuration's duration by one simulator, the oracle. */
static void plain_durations(const sim_params *p, const int32_t *dest, sim_config **cfg, int64_t *dur)
{
    char err[256];
    sim *s = sim_new(p, dest, NULL, err, sizeof err);
    ck_assert_msg(s != NULL, "%s", err);
    for (int k = 0; k < NCFG; k++) {
        sim_metrics m;
        ck_assert_int_eq(sim_run(s, cfg[k], &m), SIM_OK);
        dur[k] = m.duration;
    }
    sim_free(s);
}

/* Batches of 0, 1, 2, 3 and 5 jobs, a job without a configuration among
 * them, one after another on one pool. */
START_TEST(batches_equal_one_simulator)
{
    char err[256];
    const int sizes[] = { 0, 1, 2, 3, 5, 2, 1 };
    for (int threads = 1; threads <= 3; threads++) {
        sim_pool *pl = sim_pool_new(&F.p, F.t->dest, threads, NULL, err, sizeof err);
        ck_assert_msg(pl != NULL, "%s", err);
        int next = 0;
        for (int round = 0; round < 6; round++)
            for (size_t b = 0; b < sizeof sizes / sizeof *sizes; b++) {
                sim_job jobs[5];
                int idx[5];
                memset(jobs, 0, sizeof jobs);
                for (int j = 0; j < sizes[b]; j++) {
                    idx[j] = next++ % NCFG;
                    /* Every seventh job has no configuration: its
                     * metrics stay as the caller left them. */
                    jobs[j].cfg = (next % 7 == 0) ? NULL : F.cfg[idx[j]];
                    jobs[j].m.duration = -7;
                }
                sim_pool_run(pl, jobs, sizes[b]);
                for (int j = 0; j < sizes[b]; j++) {
                    if (!jobs[j].cfg) {
                        ck_assert_int_eq(jobs[j].m.duration, -7);
                        continue;
                    }
                    ck_assert_int_eq(jobs[j].m.status, SIM_OK);
                    ck_assert_msg(jobs[j].m.duration == F.want[idx[j]],
                                  "threads %d: job %d of %d gave %lld, one simulator %lld", threads, j, sizes[b],
                                  (long long)jobs[j].m.duration, (long long)F.want[idx[j]]);
                }
            }
        sim_pool_free(pl);
    }
}
END_TEST

/* A job with a cutoff below its duration stops there (SIM_CUTOFF) on any
 * thread, and one with the cutoff at its duration finishes: the cutoff's
 * boundary is the job's, not the pool's. */
START_TEST(cutoff_is_each_jobs_own)
{
    char err[256];
    sim_pool *pl = sim_pool_new(&F.p, F.t->dest, 2, NULL, err, sizeof err);
    ck_assert_msg(pl != NULL, "%s", err);
    for (int k = 0; k + 1 < NCFG; k += 2) {
        sim_job jobs[2];
        memset(jobs, 0, sizeof jobs);
        jobs[0].cfg = F.cfg[k];
        jobs[0].cutoff = F.want[k];
        jobs[1].cfg = F.cfg[k + 1];
        jobs[1].cutoff = F.want[k + 1] - 1;
        sim_pool_run(pl, jobs, 2);
        ck_assert_int_eq(jobs[0].m.status, SIM_OK);
        ck_assert_int_eq(jobs[0].m.duration, F.want[k]);
        ck_assert_int_eq(jobs[1].m.status, SIM_CUTOFF);
    }
    sim_pool_free(pl);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("pool");
    TCase *tc = tcase_create("pool");
    tcase_set_timeout(tc, 300);
    tcase_add_checked_fixture(tc, fixture_init, fixture_free);
    tcase_add_test(tc, batches_equal_one_simulator);
    tcase_add_test(tc, cutoff_is_each_jobs_own);
    suite_add_tcase(s, tc);
    return testutil_run(s);
}
