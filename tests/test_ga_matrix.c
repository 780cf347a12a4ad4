/* The GA's modes together: for every supported combination of algorithm,
 * watchdog or lifetime, children and perturbation, a run on one thread, the
 * same run on two threads and the same run stopped in the middle and
 * resumed must leave the same best, signature, synonyms, generation rows
 * and records; where children can be proven to repeat their parent (local,
 * one child, no perturbation), the run without proofs (the reference engine
 * records no decisions) must leave them too, with the proven children
 * simulated and counted instead.  Which checkpoint a resume starts from
 * depends on the clock; with perturbation a run is also resumed from
 * checkpoints forced at chosen generations (ga_flush), each of which must
 * end as the run that was never stopped.
 *
 * What a run leaves is written out as text (fingerprint) and compared as
 * text, so a failure names the first line that differs.  Each mode alone
 * has its own tests in test_ga.c; this one is for their combinations: a
 * watchdog restart on two threads, say, must void the children speculated
 * from the old parent (deleting that makes results depend on threads). */
#include <check.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ga/ga.h"
#include "store/store.h"
#include "tests/testutil.h"
#include "traffic/traffic.h"

typedef struct {
    char *s;
    size_t len, cap;
} text;

static void put(text *t, const char *fmt, ...)
{
    char line[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    ck_assert(n > 0 && (size_t)n < sizeof line);
    if (t->len + (size_t)n + 1 > t->cap) {
        t->cap = 2 * (t->len + (size_t)n + 1);
        t->s = realloc(t->s, t->cap);
        ck_assert_ptr_nonnull(t->s);
    }
    memcpy(t->s + t->len, line, (size_t)n + 1);
    t->len += (size_t)n;
}

typedef struct {
    text *t;
    int with_evals;
} fp_ctx;

static int gen_row(const store_gen *g, void *arg)
{
    fp_ctx *x = arg;
    put(x->t, "gen %lld best %lld average %.6f", (long long)g->generation, (long long)g->best, g->average);
    if (x->with_evals) put(x->t, " evals %lld", (long long)g->evaluations);
    put(x->t, "\n");
    return 0;
}

static int chrom_row(const store_chrom *c, void *arg)
{
    fp_ctx *x = arg;
    put(x->t, "rec gen %lld crc %08x score %lld d %lld t_d %lld t_e %lld ir %lld or %lld ib %lld ob %lld lb %lld syn %d len %zu\n",
        (long long)c->generation, c->crc, (long long)c->score, (long long)c->duration, (long long)c->t_d,
        (long long)c->t_e, (long long)c->ir, (long long)c->or_, (long long)c->ib, (long long)c->ob, (long long)c->lb,
        (int)c->is_synonym, c->genes_len);
    return 0;
}

/* What run g (recorded as its run in db) left.  with_evals 0: the
 * evaluation counts as the sum of simulated and proven children only (the
 * run without proofs simulates them all). */
static char *fingerprint(ga *g, store *db, int with_evals)
{
    text t = { 0 };
    sim_metrics m;
    uint32_t crc;
    ga_best(g, &m, &crc);
    ga_progress p;
    ga_get_progress(g, &p);
    put(&t, "best %08x d %lld te %lld lb %lld ir %lld or %lld ib %lld ob %lld tail %lld late %lld synonyms %lld\n",
        crc, (long long)m.duration, (long long)m.te, (long long)m.lb, (long long)m.ir, (long long)m.or_,
        (long long)m.ib, (long long)m.ob, (long long)m.tail_profile, (long long)m.late, (long long)ga_synonyms(g));
    put(&t, "generations %lld average %.6f\n", (long long)p.generation, p.average);
    if (with_evals) put(&t, "evals %lld repeats %lld\n", (long long)p.evals, (long long)p.repeats);
    else put(&t, "evals+repeats %lld\n", (long long)(p.evals + p.repeats));
    char err[256];
    fp_ctx x = { &t, with_evals };
    ck_assert_msg(store_gen_list(db, ga_run_id(g), gen_row, &x, err, sizeof err) == STORE_OK, "%s", err);
    store_chrom_query q = { .run = ga_run_id(g) };
    ck_assert_msg(store_chrom_list(db, &q, chrom_row, &x, err, sizeof err) == STORE_OK, "%s", err);
    return t.s;
}

/* The first line where a and b differ, for the failure message. */
static void same_text(const char *a, const char *b, const char *what, const char *an, const char *bn)
{
    if (strcmp(a, b) == 0) return;
    int line = 1;
    const char *pa = a, *pb = b;
    while (*pa && *pa == *pb) {
        if (*pa == '\n') line++;
        pa++, pb++;
    }
    while (pa > a && pa[-1] != '\n') pa--, pb--;
    char la[200], lb[200];
    snprintf(la, sizeof la, "%.*s", (int)strcspn(pa, "\n"), pa);
    snprintf(lb, sizeof lb, "%.*s", (int)strcspn(pb, "\n"), pb);
    ck_abort_msg("%s: %s and %s differ at line %d:\n  %s\n  %s", what, an, bn, line, la, lb);
}

typedef struct {
    ga_algo algo;
    int life;       /* 0 none, 1 watchdog, 2 lifetime */
    int children, perturb;
} combo;

static ga_params combo_params(const combo *c, int threads)
{
    ga_params gp;
    ga_params_default(&gp);
    ga_params_for_algo(&gp, c->algo);
    gp.stack_vmax = 40;
    gp.seed = 5;
    gp.threads = threads;
    gp.children = c->children;
    gp.perturb = c->perturb;
    gp.max_evals = 0;
    if (c->algo == GA_ALGO_LOCAL) {
        /* One lineage (speculation on two threads), aimed moves, sparse records. */
        gp.generations = 240;
        gp.watchdog = c->life == 1 ? 15 : 0;
        gp.lifetime = c->life == 2 ? 3 : 0;
    } else {
        gp.pop = 6;
        gp.generations = 24;
        gp.train = 4;
        gp.crossover_interval = 4;
        gp.watchdog = c->life == 1 ? 4 : 0;
        gp.lifetime = c->life == 2 ? 5 : 0;
    }
    return gp;
}

static char db_path[TESTUTIL_PATH_MAX];

static store *open_temp_db(void)
{
    testutil_temp_db(db_path, "matrix");
    char err[256];
    store *db = store_open(db_path, STORE_CREATE, err, sizeof err);
    ck_assert_msg(db != NULL, "%s", err);
    return db;
}

static void close_temp_db(store *db)
{
    store_close(db);
    testutil_remove_db(db_path);
}

/* A started run of combination c (threads, proofs) in db. */
static ga *start_combo(const combo *c, const traffic *t, store *db, int threads, int proofs)
{
    ga_params gp = combo_params(c, threads);
    sim_params sp;
    sim_params_default(&sp);
    sp.n = 8;
    sp.slices = 2;
    sp.reference_only = !proofs;
    char err[256];
    ga *g = ga_new(&gp, &sp, t->dest, "brev", db, "test", "{}", NULL, err, sizeof err);
    ck_assert_msg(g && ga_start(g, err, sizeof err) == 0, "%s", err);
    return g;
}

/* g stepped stop_at generations (0: to the end); returns ga_step's last. */
static int step_to(ga *g, int stop_at)
{
    char err[256];
    int more = 1;
    for (int k = 0; more > 0 && (!stop_at || k < stop_at); k++) more = ga_step(g, err, sizeof err);
    ck_assert_msg(more >= 0, "%s", err);
    ck_assert_msg(!stop_at || more > 0, "the run ended before generation %d, where it was to stop", stop_at);
    return more;
}

/* g freed as if killed, its run resumed from its last checkpoint on threads
 * and run to the end. */
static ga *resume_to_end(ga *g, store *db, int threads)
{
    char err[256];
    int64_t run = ga_run_id(g);
    ga_free(g);
    g = ga_resume(db, run, threads, NULL, err, sizeof err);
    ck_assert_msg(g != NULL, "%s", err);
    int more;
    while ((more = ga_step(g, err, sizeof err)) > 0) {}
    ck_assert_msg(more == 0, "%s", err);
    return g;
}

/* A run of combination c (threads, proofs) in db: to the end, or stopped
 * after stop_at generations and resumed on resume_threads. */
static char *run_combo(const combo *c, const traffic *t, store *db, int threads, int proofs, int stop_at,
                       int resume_threads, int with_evals)
{
    ga *g = start_combo(c, t, db, threads, proofs);
    step_to(g, stop_at);
    if (stop_at) g = resume_to_end(g, db, resume_threads);
    char *fp = fingerprint(g, db, with_evals);
    ga_free(g);
    return fp;
}

static const char *const life_names[] = { "none", "watchdog", "lifetime" };

static void check_combo(const combo *c)
{
    char what[128];
    snprintf(what, sizeof what, "algo %s, %s, children %d, perturb %d", ga_algo_names[c->algo], life_names[c->life],
             c->children, c->perturb);
    char err[128];
    traffic *t = traffic_new("brev", 8, 1, err, sizeof err);
    ck_assert_msg(t != NULL, "%s", err);
    store *db = open_temp_db();
    int half = c->algo == GA_ALGO_LOCAL ? 120 : 12;
    char *one = run_combo(c, t, db, 1, 1, 0, 0, 1);
    char *two = run_combo(c, t, db, 2, 1, 0, 0, 1);
    same_text(one, two, what, "1 thread", "2 threads");
    char *res = run_combo(c, t, db, 2, 1, half, 1, 1);
    same_text(one, res, what, "1 thread", "2 threads stopped and resumed on 1");
    free(res);
    res = run_combo(c, t, db, 1, 1, half, 2, 1);
    same_text(one, res, what, "1 thread", "1 thread stopped and resumed on 2");
    free(res);
    if (c->algo == GA_ALGO_LOCAL && c->children == 1 && c->perturb == 0) {
        /* Proofs happen in this combination: some children must be proven,
         * or the comparison below would compare nothing. */
        ck_assert_msg(strstr(one, "repeats 0\n") == NULL, "%s: no child proven to repeat its parent", what);
        char *on = run_combo(c, t, db, 1, 1, 0, 0, 0);
        for (int threads = 1; threads <= 2; threads++) {
            char *off = run_combo(c, t, db, threads, 0, 0, 0, 0);
            snprintf(what + strlen(what), sizeof what - strlen(what), threads == 1 ? ", no proofs" : ", 2 threads");
            same_text(on, off, what, "with proofs", "without proofs");
            ck_assert_msg(strstr(off, "evals+repeats") != NULL, "%s", what);
            free(off);
        }
        free(on);
    }
    free(one);
    free(two);
    close_temp_db(db);
    traffic_free(t);
}

static const combo combos[] = {
    { GA_ALGO_LOCAL, 0, 1, 0 }, { GA_ALGO_LOCAL, 1, 1, 0 }, { GA_ALGO_LOCAL, 2, 1, 0 },
    { GA_ALGO_LOCAL, 0, 2, 0 }, { GA_ALGO_LOCAL, 1, 2, 0 }, { GA_ALGO_LOCAL, 2, 2, 0 },
    { GA_ALGO_LOCAL, 0, 1, 1 }, { GA_ALGO_LOCAL, 1, 1, 1 }, { GA_ALGO_LOCAL, 2, 1, 1 },
    { GA_ALGO_PAPER, 0, 1, 0 }, { GA_ALGO_PAPER, 1, 1, 0 }, { GA_ALGO_PAPER, 2, 1, 0 },
    { GA_ALGO_PAPER, 0, 2, 0 }, { GA_ALGO_PAPER, 1, 2, 0 }, { GA_ALGO_PAPER, 2, 2, 0 },
    { GA_ALGO_PAPER, 0, 1, 1 }, { GA_ALGO_PAPER, 1, 1, 1 }, { GA_ALGO_PAPER, 2, 1, 1 },
};

START_TEST(every_combination_same_result)
{
    check_combo(&combos[_i]);
}
END_TEST

/* A run stopped after stop_at generations with its checkpoint written
 * there (ga_flush), freed as if killed and resumed: exactly the resume from a
 * checkpoint of that generation, whatever the clock did.  Its fingerprint. */
static char *run_resumed_at(const combo *c, const traffic *t, store *db, int stop_at)
{
    char err[256];
    ga *g = start_combo(c, t, db, 1, 1);
    step_to(g, stop_at);
    ck_assert_msg(ga_flush(g, err, sizeof err) == 0, "%s", err);
    int64_t generation;
    uint8_t *blob = NULL;
    size_t len = 0;
    ck_assert_msg(store_checkpoint_get(db, ga_run_id(g), &generation, &blob, &len, err, sizeof err) == STORE_OK, "%s", err);
    free(blob);
    ck_assert_msg(generation == stop_at, "the last checkpoint is of generation %lld, not %d", (long long)generation, stop_at);
    g = resume_to_end(g, db, 1);
    char *fp = fingerprint(g, db, 1);
    ga_free(g);
    return fp;
}

/* Which checkpoint a resume starts from depends on the clock (one a
 * second), so a resume from a checkpoint of any generation must end as the
 * run that was never stopped: here from the first generation, early ones,
 * the middle and near the end, for every combination with perturbation
 * (the local search's perturbed children keep no tails: a resumed run must
 * not aim its moves with tails its parent's run never gave). */
static const combo perturbed[] = {
    { GA_ALGO_LOCAL, 0, 1, 1 }, { GA_ALGO_LOCAL, 1, 1, 1 }, { GA_ALGO_LOCAL, 2, 1, 1 },
    { GA_ALGO_PAPER, 0, 1, 1 }, { GA_ALGO_PAPER, 1, 1, 1 }, { GA_ALGO_PAPER, 2, 1, 1 },
};

START_TEST(perturbed_resume_from_any_generation)
{
    const combo *c = &perturbed[_i];
    static const int local_at[] = { 1, 2, 5, 17, 60, 120, 239 }, paper_at[] = { 1, 2, 5, 12, 23 };
    const int *at = c->algo == GA_ALGO_LOCAL ? local_at : paper_at;
    int nat = c->algo == GA_ALGO_LOCAL ? (int)(sizeof local_at / sizeof *local_at) : (int)(sizeof paper_at / sizeof *paper_at);
    char what[128], where[32], err[128];
    traffic *t = traffic_new("brev", 8, 1, err, sizeof err);
    ck_assert_msg(t != NULL, "%s", err);
    store *db = open_temp_db();
    char *one = run_combo(c, t, db, 1, 1, 0, 0, 1);
    for (int i = 0; i < nat; i++) {
        char *res = run_resumed_at(c, t, db, at[i]);
        snprintf(what, sizeof what, "algo %s, %s, children %d, perturb %d", ga_algo_names[c->algo],
                 life_names[c->life], c->children, c->perturb);
        snprintf(where, sizeof where, "resumed at generation %d", at[i]);
        same_text(one, res, what, "uninterrupted", where);
        free(res);
    }
    free(one);
    close_temp_db(db);
    traffic_free(t);
}
END_TEST

/* The matrix compares runs with each other; that the watchdog and the
 * lifetime restart lineages at all in these runs (so that the combinations
 * above are what they say) is checked here: with either, a run leaves
 * another record than without. */
START_TEST(restarts_happen)
{
    char err[128];
    traffic *t = traffic_new("brev", 8, 1, err, sizeof err);
    ck_assert_msg(t != NULL, "%s", err);
    store *db = open_temp_db();
    for (int algo = 0; algo < 2; algo++) {
        combo c = { (ga_algo)algo, 0, 1, 0 };
        char *plain = run_combo(&c, t, db, 1, 1, 0, 0, 1);
        for (c.life = 1; c.life <= 2; c.life++) {
            char *fp = run_combo(&c, t, db, 1, 1, 0, 0, 1);
            ck_assert_msg(strcmp(plain, fp) != 0, "algo %s: %s changed nothing", ga_algo_names[algo], life_names[c.life]);
            free(fp);
        }
        free(plain);
    }
    close_temp_db(db);
    traffic_free(t);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("ga_matrix");
    TCase *tc = tcase_create("matrix");
    tcase_set_timeout(tc, 600);
    tcase_add_loop_test(tc, every_combination_same_result, 0, (int)(sizeof combos / sizeof combos[0]));
    tcase_add_loop_test(tc, perturbed_resume_from_any_generation, 0, (int)(sizeof perturbed / sizeof perturbed[0]));
    tcase_add_test(tc, restarts_happen);
    suite_add_tcase(s, tc);
    return testutil_run(s);
}
