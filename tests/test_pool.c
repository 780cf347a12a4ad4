/* Tests of the evaluation pool (sim/pool.c): whatever the thread count,
 * every job's metrics are those of one plain simulator running the same
 * configuration; a job without a configuration keeps its metrics; batches of
 * one job and of none come back done; a cutoff is each job's own.  Jobs
 * offered one at a time give the same results, and one whose voids_later
 * holds withdraws exactly the jobs offered after it. */
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

/* SIM_POOL_OFFERS jobs offered, awaited in order, on 1 to 3 threads, the
 * pool's tickets all free again after each round (a batch runs). */
START_TEST(offered_jobs_equal_one_simulator)
{
    char err[256];
    for (int threads = 1; threads <= 3; threads++) {
        sim_pool *pl = sim_pool_new(&F.p, F.t->dest, threads, NULL, err, sizeof err);
        ck_assert_msg(pl != NULL, "%s", err);
        for (int round = 0; round < 3; round++) {
            sim_job jobs[SIM_POOL_OFFERS];
            int ticket[SIM_POOL_OFFERS];
            memset(jobs, 0, sizeof jobs);
            for (int j = 0; j < SIM_POOL_OFFERS; j++) {
                jobs[j].cfg = F.cfg[(round * SIM_POOL_OFFERS + j) % NCFG];
                ticket[j] = sim_pool_offer(pl, &jobs[j]);
            }
            for (int j = 0; j < SIM_POOL_OFFERS; j++) {
                ck_assert_int_eq(sim_pool_await(pl, ticket[j]), 1);
                ck_assert_int_eq(jobs[j].m.duration, F.want[(round * SIM_POOL_OFFERS + j) % NCFG]);
            }
            sim_job one = { .cfg = F.cfg[round] };
            sim_pool_run(pl, &one, 1);
            ck_assert_int_eq(one.m.duration, F.want[round]);
        }
        sim_pool_free(pl);
    }
}
END_TEST

/* voids_later of the job it is handed: the third job's says 1. */
static int third_voids(const sim_job *j, const void *ctx) { return j == (const sim_job *)ctx; }

/* Of 6 jobs offered, the third voids the later ones: the first three hold
 * their results, the last three are withdrawn (whether they had started,
 * finished or not), on 1 to 3 threads; then sim_pool_withdraw with jobs
 * outstanding frees every ticket (8 offers fit again). */
START_TEST(voids_later_withdraws_exactly_the_later_jobs)
{
    char err[256];
    for (int threads = 1; threads <= 3; threads++) {
        sim_pool *pl = sim_pool_new(&F.p, F.t->dest, threads, NULL, err, sizeof err);
        ck_assert_msg(pl != NULL, "%s", err);
        sim_job jobs[6];
        int ticket[6];
        memset(jobs, 0, sizeof jobs);
        for (int j = 0; j < 6; j++) {
            jobs[j].cfg = F.cfg[j];
            jobs[j].voids_later = third_voids;
            jobs[j].vctx = &jobs[2];
            ticket[j] = sim_pool_offer(pl, &jobs[j]);
        }
        for (int j = 0; j < 6; j++) {
            ck_assert_msg(sim_pool_await(pl, ticket[j]) == (j <= 2), "threads %d: job %d", threads, j);
            if (j <= 2) ck_assert_int_eq(jobs[j].m.duration, F.want[j]);
        }
        sim_job more[SIM_POOL_OFFERS];
        memset(more, 0, sizeof more);
        for (int j = 0; j < 4; j++) {
            more[j].cfg = F.cfg[j];
            (void)sim_pool_offer(pl, &more[j]);
        }
        sim_pool_withdraw(pl);
        for (int j = 0; j < SIM_POOL_OFFERS; j++) {
            more[j].cfg = F.cfg[j];
            ticket[j % 6] = sim_pool_offer(pl, &more[j]);
        }
        sim_pool_withdraw(pl);
        sim_pool_free(pl);
    }
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
    tcase_add_test(tc, offered_jobs_equal_one_simulator);
    tcase_add_test(tc, voids_later_withdraws_exactly_the_later_jobs);
    suite_add_tcase(s, tc);
    return testutil_run(s);
}
