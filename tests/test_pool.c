/* Tests of the evaluation pool (sim/pool.c): whatever the thread count and
 * however long a waiting thread polls before it sleeps, every job's metrics
 * are those of one plain simulator running the same configuration; a job
 * without a configuration keeps its metrics; batches of one job (run by the
 * caller alone) and of none come back done; submitted jobs, waited for in
 * order or cancelled, give the same results; the stop flag ends a run at its
 * next check. */
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
 * them; repeated so that the workers wait between batches both ways (they
 * poll, or they sleep). */
START_TEST(batches_equal_one_simulator)
{
    char err[256];
    const int64_t spins[] = { 0, SIM_POOL_SPIN_NS, 50 * 1000 * 1000 };
    const int sizes[] = { 0, 1, 2, 3, 5, 2, 1 };
    for (int threads = 1; threads <= 3; threads++)
        for (size_t si = 0; si < sizeof spins / sizeof *spins; si++) {
            sim_pool *pl = sim_pool_new(&F.p, F.t->dest, threads, NULL, err, sizeof err);
            ck_assert_msg(pl != NULL, "%s", err);
            sim_pool_set_spin(pl, spins[si]);
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
                                      "threads %d spin %lld: job %d of %d gave %lld, one simulator %lld", threads,
                                      (long long)spins[si], j, sizes[b], (long long)jobs[j].m.duration,
                                      (long long)F.want[idx[j]]);
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

/* Submitted jobs waited for in order give one simulator's results, with
 * jobs without a configuration among them and the caller running what no
 * worker took; after a cancel (queued jobs dropped, running ones stopped)
 * the pool goes on as before, batches included. */
START_TEST(submitted_jobs_equal_one_simulator)
{
    char err[256];
    for (int threads = 1; threads <= 3; threads++) {
        sim_pool *pl = sim_pool_new(&F.p, F.t->dest, threads, NULL, err, sizeof err);
        ck_assert_msg(pl != NULL, "%s", err);
        for (int round = 0; round < 4; round++) {
            sim_job jobs[NCFG];
            memset(jobs, 0, sizeof jobs);
            for (int k = 0; k < NCFG; k++) {
                jobs[k].cfg = k % 5 == 3 ? NULL : F.cfg[k];
                jobs[k].m.duration = -7;
                ck_assert_int_eq(sim_pool_submit(pl, &jobs[k]), 0);
            }
            /* Round 1 and 3 cancel after half: the rest are dropped. */
            const int upto = round % 2 ? NCFG / 2 : NCFG;
            for (int k = 0; k < upto; k++) {
                sim_pool_wait(pl, &jobs[k]);
                ck_assert_int_eq(jobs[k].m.duration, jobs[k].cfg ? F.want[k] : -7);
            }
            if (upto < NCFG) sim_pool_cancel(pl);
            /* A batch between rounds: no submitted job is outstanding. */
            sim_job b[2] = { { .cfg = F.cfg[0] }, { .cfg = F.cfg[1] } };
            sim_pool_run(pl, b, 2);
            ck_assert_int_eq(b[0].m.duration, F.want[0]);
            ck_assert_int_eq(b[1].m.duration, F.want[1]);
        }
        /* More than SIM_POOL_ASYNC_MAX outstanding is refused, nothing queued. */
        sim_job many[SIM_POOL_ASYNC_MAX + 1];
        memset(many, 0, sizeof many);
        for (int k = 0; k < SIM_POOL_ASYNC_MAX; k++) {
            many[k].cfg = F.cfg[k % NCFG];
            ck_assert_int_eq(sim_pool_submit(pl, &many[k]), 0);
        }
        many[SIM_POOL_ASYNC_MAX].cfg = F.cfg[0];
        ck_assert_int_eq(sim_pool_submit(pl, &many[SIM_POOL_ASYNC_MAX]), -1);
        sim_pool_free(pl); /* cancels what is outstanding */
    }
}
END_TEST

/* The stop flag is read at cycles 0, 64, 128, ...: set before a run, the
 * run ends at cycle 0 (SIM_CUTOFF); cleared, the same simulator gives the
 * plain duration. */
START_TEST(stop_flag_ends_a_run_at_its_next_check)
{
    char err[256];
    sim *s = sim_new(&F.p, F.t->dest, NULL, err, sizeof err);
    ck_assert_msg(s != NULL, "%s", err);
    atomic_int stop;
    atomic_init(&stop, 1);
    sim_set_stop(s, &stop);
    sim_metrics m;
    ck_assert_int_eq(sim_run(s, F.cfg[0], &m), SIM_CUTOFF);
    ck_assert_int_eq(m.stop_cycle, 0);
    atomic_store(&stop, 0);
    ck_assert_int_eq(sim_run(s, F.cfg[0], &m), SIM_OK);
    ck_assert_int_eq(m.duration, F.want[0]);
    ck_assert(sim_ran_fast(s));
    sim_free(s);
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
    tcase_add_test(tc, submitted_jobs_equal_one_simulator);
    tcase_add_test(tc, stop_flag_ends_a_run_at_its_next_check);
    suite_add_tcase(s, tc);
    return testutil_run(s);
}
