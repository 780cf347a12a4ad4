/* The kind of a failure (util/fault.h) is decided where the fault happens
 * and reaches the caller beside the message: for representative failures of
 * each part, bad input is FAULT_INPUT, memory and threads that run out are
 * FAULT_RESOURCE, a failed read or a damaged file is FAULT_IO.  The CLI maps
 * kinds to exit statuses (tests/exit_codes.sh checks those from outside).
 *
 * Memory and threads are made to run out with a small address-space limit
 * (RLIMIT_AS) in the test's own process (Check forks one per test); not
 * under a sanitizer, whose shadow memory needs the address space. */
#include <check.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "cc/errors.h"
#include "cc/topology.h"
#include "ga/checkpoint.h"
#include "ga/ga.h"
#include "ga/ga_internal.h"
#include "sim/olnet.h"
#include "sim/openloop.h"
#include "sim/pool.h"
#include "sim/sim.h"
#include "store/store.h"
#include "tests/testutil.h"
#include "traffic/synth.h"
#include "traffic/traffic.h"
#include "util/fault.h"
#include "util/invariant.h"
#include "util/lines.h"
#include "util/outfile.h"
#include "viz/viz.h"

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SANITIZED 1
#endif
#endif
#ifndef SANITIZED
#define SANITIZED 0
#endif

static struct rlimit saved_as;

/* Limit the address space to what the process maps now plus spare_mb
 * (plenty_of_memory lifts it again).  Returns 0, or -1 (the test then
 * checks nothing that needs it) under a sanitizer or when the limit cannot
 * be read or set. */
static int little_memory(long spare_mb)
{
    if (SANITIZED || getrlimit(RLIMIT_AS, &saved_as) != 0) return -1;
    FILE *f = fopen("/proc/self/statm", "r");
    long pages = 0;
    if (!f) return -1;
    int got = fscanf(f, "%ld", &pages);
    fclose(f);
    if (got != 1) return -1;
    struct rlimit rl = saved_as;
    rl.rlim_cur = (rlim_t)pages * (rlim_t)sysconf(_SC_PAGESIZE) + (rlim_t)spare_mb * 1024 * 1024;
    return setrlimit(RLIMIT_AS, &rl) == 0 ? 0 : -1;
}

static void plenty_of_memory(void) { ck_assert_int_eq(setrlimit(RLIMIT_AS, &saved_as), 0); }

/* ---- the kinds themselves and the parts' own codes ---------------------- */

START_TEST(kinds_and_codes)
{
    ck_assert_int_eq(fault_of(0), FAULT_NONE);
    ck_assert_int_eq(fault_of(3), FAULT_NONE);
    ck_assert_int_eq(fault_of(-FAULT_INPUT), FAULT_INPUT);
    ck_assert_int_eq(fault_of(-FAULT_IO), FAULT_IO);
    ck_assert_int_eq(fault_of(-99), FAULT_INTERNAL);   /* a failure that did not say */
    ck_assert_int_eq(fault_rc(FAULT_RESOURCE), -FAULT_RESOURCE);
    ck_assert_int_eq(fault_rc(FAULT_NONE), -FAULT_INTERNAL);   /* never success, never bad input */
    fault_set(NULL, FAULT_IO);                                 /* kind may be NULL */
    ck_assert_int_eq(fault_of(CC_EINPUT), FAULT_INPUT);
    ck_assert_int_eq(fault_of(CC_ENOMEM), FAULT_RESOURCE);
    ck_assert_int_eq(VIZ_BADINPUT, FAULT_INPUT);
    ck_assert_int_eq(VIZ_FAIL, FAULT_IO);
    ck_assert_int_eq(OUTFILE_BADINPUT, FAULT_INPUT);
    ck_assert_int_eq(OUTFILE_FAIL, FAULT_IO);
    ck_assert_int_eq(store_fault_kind(STORE_FAULT_NONE), FAULT_NONE);
    ck_assert_int_eq(store_fault_kind(STORE_FAULT_INPUT), FAULT_INPUT);
    ck_assert_int_eq(store_fault_kind(STORE_FAULT_DAMAGED), FAULT_IO);
    ck_assert_int_eq(store_fault_kind(STORE_FAULT_IO), FAULT_IO);
}
END_TEST

/* ---- util: a NUL byte is the input's fault, a read error the file's ---- */

START_TEST(line_reader_kinds)
{
    char path[TESTUTIL_PATH_MAX], err[256], *line;
    testutil_temp_file(path, "faults");
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(fwrite("ok\nn\0l\n", 1, 7, f), 7);
    ck_assert_int_eq(fclose(f), 0);
    line_reader r;
    ck_assert_ptr_nonnull(f = fopen(path, "r"));
    line_reader_init(&r, f, "test");
    ck_assert_int_eq(line_reader_next(&r, &line, err, sizeof err), 1);
    ck_assert_int_eq(line_reader_next(&r, &line, err, sizeof err), -FAULT_INPUT);
    ck_assert_ptr_nonnull(strstr(err, "NUL byte"));
    line_reader_free(&r);
    fclose(f);
    remove(path);
    /* A directory opens for reading, and every read of it fails (EISDIR):
     * the user named it as a text file. */
    ck_assert_ptr_nonnull(f = fopen("/", "r"));
    line_reader_init(&r, f, "dir");
    ck_assert_int_eq(line_reader_next(&r, &line, err, sizeof err), -FAULT_INPUT);
    line_reader_free(&r);
    fclose(f);
    /* A read that fails on the device: our own memory at address 0. */
    ck_assert_ptr_nonnull(f = fopen("/proc/self/mem", "r"));
    line_reader_init(&r, f, "mem");
    ck_assert_int_eq(line_reader_next(&r, &line, err, sizeof err), -FAULT_IO);
    ck_assert_ptr_nonnull(strstr(err, "read error"));
    line_reader_free(&r);
    fclose(f);
}
END_TEST

/* ---- traffic ------------------------------------------------------------ */

START_TEST(traffic_kinds)
{
    char err[256];
    fault_kind kind = FAULT_NONE;
    ck_assert_ptr_null(traffic_new_grid("nosuch", 8, 8, 1, &kind, err, sizeof err));
    ck_assert_int_eq(kind, FAULT_INPUT);
    kind = FAULT_NONE;
    ck_assert_ptr_null(traffic_new_grid("brev", 6, 6, 1, &kind, err, sizeof err));   /* not a power of two */
    ck_assert_int_eq(kind, FAULT_INPUT);
    kind = FAULT_NONE;
    ck_assert_ptr_null(traffic_new_grid("file:/nonexistent/nocsim-traffic", 8, 8, 1, &kind, err, sizeof err));
    ck_assert_int_eq(kind, FAULT_INPUT);   /* the user named a file that is not there */
    kind = FAULT_NONE;
    ck_assert_ptr_null(traffic_new_grid("file:/", 8, 8, 1, &kind, err, sizeof err));
    ck_assert_msg(kind == FAULT_INPUT, "a directory: kind %d (%s)", kind, err);
    kind = FAULT_NONE;
    ck_assert_ptr_null(traffic_new_grid("file:/proc/self/mem", 8, 8, 1, &kind, err, sizeof err));
    ck_assert_msg(kind == FAULT_IO, "a file that cannot be read: kind %d (%s)", kind, err);
    kind = FAULT_NONE;
    ck_assert_ptr_null(synth_new("nosuch", 8, 8, SYNTH_SELF_SKIP, 1, &kind, err, sizeof err));
    ck_assert_int_eq(kind, FAULT_INPUT);
    if (little_memory(16)) return;
    /* 4096 x 4096 nodes: 64 MB of destinations. */
    kind = FAULT_NONE;
    ck_assert_ptr_null(traffic_new_grid("brev", 4096, 4096, 1, &kind, err, sizeof err));
    ck_assert_msg(kind == FAULT_RESOURCE, "kind %d (%s)", kind, err);
    kind = FAULT_NONE;
    ck_assert_ptr_null(synth_new("tornado", 4096, 4096, SYNTH_SELF_SKIP, 1, &kind, err, sizeof err));
    ck_assert_msg(kind == FAULT_RESOURCE, "kind %d (%s)", kind, err);
}
END_TEST

/* ---- sim: refused parameters, memory, threads ----------------------------- */

START_TEST(sim_kinds)
{
    char err[256];
    fault_kind kind = FAULT_NONE;
    sim_params p = testutil_params(4, 4, 2);
    int32_t dest[16];
    for (int i = 0; i < 16; i++) dest[i] = 15 - i;
    p.n = 5;   /* odd: refused */
    ck_assert_ptr_null(sim_new(&p, dest, &kind, err, sizeof err));
    ck_assert_int_eq(kind, FAULT_INPUT);
    p.n = 4;
    dest[3] = 16;   /* outside the network */
    kind = FAULT_NONE;
    ck_assert_ptr_null(sim_new(&p, dest, &kind, err, sizeof err));
    ck_assert_int_eq(kind, FAULT_INPUT);
    kind = FAULT_NONE;
    ck_assert_ptr_null(sim_pool_new(&p, dest, 2, &kind, err, sizeof err));   /* the pool passes it on */
    ck_assert_int_eq(kind, FAULT_INPUT);
    dest[3] = 12;
    sim *s = sim_new(&p, dest, &kind, err, sizeof err);
    ck_assert_msg(s != NULL, "%s", err);
    sim_free(s);
}
END_TEST

START_TEST(sim_out_of_memory)
{
    char err[256];
    sim_params p = testutil_params(1024, 4, 8);
    traffic *t = traffic_new("brev", 1024, 1, err, sizeof err);
    ck_assert_msg(t != NULL, "%s", err);
    if (little_memory(32)) { traffic_free(t); return; }
    fault_kind kind = FAULT_NONE;
    ck_assert_ptr_null(sim_new(&p, t->dest, &kind, err, sizeof err));
    ck_assert_msg(kind == FAULT_RESOURCE, "kind %d (%s)", kind, err);
    ck_assert_ptr_nonnull(strstr(err, "out of memory"));
    traffic_free(t);
}
END_TEST

/* The open-loop network and a point on it: a refused parameter is input
 * (the net's, or ol_params_check's), a network the address space cannot
 * hold is the machine's. */
START_TEST(openloop_kinds)
{
    char err[256];
    fault_kind kind = FAULT_NONE;
    olnet_params op = { .rp = { .w = 7, .h = 8, .topo = TOPO_TORUS }, .vcs = 3, .buffer = 4 };
    ck_assert_ptr_null(olnet_new(&op, NULL, &kind, err, sizeof err));
    ck_assert_int_eq(kind, FAULT_INPUT);
    ol_params p;
    ol_params_default(&p);
    p.window = 1;
    ck_assert_int_eq(ol_params_check(&p, err, sizeof err), -FAULT_INPUT);
    ol_params_default(&p);
    p.net.rp.w = p.net.rp.h = 1024;
    synth *s = synth_new("uniform", 1024, 1024, SYNTH_SELF_SKIP, 1, NULL, err, sizeof err);
    ck_assert_msg(s != NULL, "%s", err);
    if (little_memory(64)) { synth_free(s); return; }
    kind = FAULT_NONE;
    op = p.net;
    ck_assert_ptr_null(olnet_new(&op, NULL, &kind, err, sizeof err));
    ck_assert_msg(kind == FAULT_RESOURCE, "kind %d (%s)", kind, err);
    ol_point pt;
    int rc = ol_run_point(&p, s, 0.1, 1, NULL, &pt, err, sizeof err);
    ck_assert_msg(rc == -FAULT_RESOURCE, "rc %d (%s)", rc, err);
    plenty_of_memory();
    synth_free(s);
}
END_TEST

/* A thread that cannot start fails the pool as the machine's fault (it used
 * to leave a smaller pool): each thread's stack is several MB, and the
 * address space holds the small simulators but not those stacks. */
START_TEST(pool_thread_fails)
{
    char err[256];
    sim_params p = testutil_params(4, 4, 2);
    int32_t dest[16];
    for (int i = 0; i < 16; i++) dest[i] = 15 - i;
    sim_pool *pl = sim_pool_new(&p, dest, 2, NULL, err, sizeof err);   /* the simulators' memory, once */
    ck_assert_msg(pl != NULL, "%s", err);
    sim_pool_free(pl);
    struct rlimit st;
    ck_assert_int_eq(getrlimit(RLIMIT_STACK, &st), 0);
    if (st.rlim_cur != RLIM_INFINITY && st.rlim_cur < 4u * 1024 * 1024) return;   /* stacks too small to tell */
    if (little_memory(2)) return;
    fault_kind kind = FAULT_NONE;
    ck_assert_ptr_null(pl = sim_pool_new(&p, dest, 8, &kind, err, sizeof err));
    ck_assert_msg(kind == FAULT_RESOURCE, "kind %d (%s)", kind, err);
    ck_assert_msg(strstr(err, "cannot start evaluation thread") != NULL, "%s", err);
}
END_TEST

/* ---- ga: parameters, damaged checkpoints, a record lost ------------------ */

static void small_ga(ga_params *gp, sim_params *sp)
{
    ga_params_default(gp);
    gp->pop = 4;
    gp->generations = 3;
    gp->threads = 1;
    gp->stack_vmax = 40;
    *sp = testutil_params(4, 4, 2);
}

START_TEST(ga_kinds)
{
    char err[512];
    ga_params gp;
    sim_params sp;
    small_ga(&gp, &sp);
    traffic *t = traffic_new("brev", 4, 1, err, sizeof err);
    ck_assert_msg(t != NULL, "%s", err);
    fault_kind kind = FAULT_NONE;
    gp.pop = 0;   /* refused */
    ck_assert_ptr_null(ga_new(&gp, &sp, t->dest, "brev", NULL, "test", "{}", &kind, err, sizeof err));
    ck_assert_int_eq(kind, FAULT_INPUT);
    gp.pop = 4;
    /* A checkpoint that is damaged is the file's fault; one of an earlier
     * format is for another version to resume. */
    uint8_t junk[64] = { 200, 0, 0, 0, 0, 0, 0, 0 };
    kind = FAULT_NONE;
    ck_assert_ptr_null(ga_checkpoint_load(junk, sizeof junk, 1, &kind, err, sizeof err));
    ck_assert_int_eq(kind, FAULT_IO);
    ck_assert_ptr_nonnull(strstr(err, "damaged"));
    ga *g = ga_new(&gp, &sp, t->dest, "brev", NULL, "test", "{}", &kind, err, sizeof err);
    ck_assert_msg(g != NULL, "%s", err);
    ck_assert_msg(ga_start(g, err, sizeof err) == 0, "%s", err);
    uint8_t *blob;
    size_t len;
    ck_assert_int_eq(ga_checkpoint_save(g, &blob, &len, err, sizeof err), 0);
    ga *back = ga_checkpoint_load(blob, len, 1, &kind, err, sizeof err);
    ck_assert_msg(back != NULL, "%s", err);
    ga_free(back);
    free(blob);
    /* A record that could not be kept fails the generation as a resource
     * fault rather than vanishing: consider with a record table whose next
     * growth cannot be allocated (2^30 records, over 100 GB, in a small
     * address space), then the generation. */
    sim_config *c = ga_new_config(g);
    ck_assert_ptr_nonnull(c);
    if (little_memory(64)) { sim_config_free(c); ga_free(g); traffic_free(t); return; }
    ck_assert_int_eq(g->rec.n, 0);
    int cap = g->rec.cap;
    g->rec.n = g->rec.cap = 1 << 29;
    sim_config_copy(c, ga_best(g, NULL, NULL));
    c->interval++;   /* another signature */
    sim_metrics m = { .status = SIM_OK, .duration = 1 };
    ga_consider(g, c, &m, 0);   /* better than any real score */
    g->rec.n = 0;
    g->rec.cap = cap;
    plenty_of_memory();
    ck_assert_int_eq(g->rec.lost, 1);
    ck_assert_int_eq(ga_step(g, err, sizeof err), -FAULT_RESOURCE);
    ck_assert_msg(strstr(err, "out of memory") != NULL, "%s", err);
    ck_assert_int_eq(ga_flush(g, err, sizeof err), -FAULT_RESOURCE);   /* and stays failed */
    sim_config_free(c);
    ga_free(g);
    traffic_free(t);
}
END_TEST

/* A run that the user names but that has no checkpoint is bad input; the
 * store's own refusals keep their kind. */
START_TEST(resume_kinds)
{
    char path[TESTUTIL_PATH_MAX], err[512];
    testutil_temp_db(path, "faults");
    store *db = store_open(path, STORE_CREATE, err, sizeof err);
    ck_assert_msg(db != NULL, "%s", err);
    store_run r = store_run_init("ga");
    ck_assert_int_eq(store_run_create(db, &r, err, sizeof err), STORE_OK);
    fault_kind kind = FAULT_NONE;
    ck_assert_ptr_null(ga_resume(db, r.id, 1, &kind, err, sizeof err));
    ck_assert_int_eq(kind, FAULT_INPUT);
    ck_assert_ptr_nonnull(strstr(err, "no checkpoint"));
    store_close(db);
    testutil_remove_db(path);
    store_fault sf = STORE_FAULT_NONE;
    ck_assert_ptr_null(store_open_fault("/", 0, &sf, err, sizeof err));
    ck_assert_int_eq(store_fault_kind(sf), FAULT_INPUT);
}
END_TEST

/* ---- cc ------------------------------------------------------------------- */

START_TEST(cc_kinds)
{
    char err[CC_ERRLEN];
    cc_topo *t;
    ck_assert_int_eq(fault_of(cc_topo_new("nosuch:4", &t, err, sizeof err)), FAULT_INPUT);
    ck_assert_int_eq(fault_of(cc_topo_new("hypercube:13", &t, err, sizeof err)), FAULT_INPUT);   /* over a limit */
}
END_TEST

/* The first run of ga_start sets the search ranges from its T_d and T_e
 * [R-GA-RANGE-1]: one that does not finish is a fault, not ranges.  With a
 * hard stop at cycle 10 (a 4x4 brev message takes over 20 cycles) it times
 * out: FAULT_RESOURCE, the message naming the first run and the cycle, and
 * nothing more evaluated (the first run is the only one counted). */
START_TEST(ga_first_run_unfinished)
{
    char err[512];
    ga_params gp;
    sim_params sp;
    small_ga(&gp, &sp);
    sp.max_cycles = 10;
    traffic *t = traffic_new("brev", 4, 1, err, sizeof err);
    ck_assert_msg(t != NULL, "%s", err);
    ga *g = ga_new(&gp, &sp, t->dest, "brev", NULL, "test", "{}", NULL, err, sizeof err);
    ck_assert_msg(g != NULL, "%s", err);
    ck_assert_int_eq(ga_start(g, err, sizeof err), -FAULT_RESOURCE);
    ck_assert_msg(strstr(err, "first run") && strstr(err, "cycle 10"), "%s", err);
    ga_progress pr;
    ga_get_progress(g, &pr);
    ck_assert_int_eq(pr.evals, 1);
    ga_free(g);
    traffic_free(t);
}
END_TEST

/* NOCSIM_ASSERT (util/invariant.h): on in the checking and sanitizer
 * builds, off in release.  Where the library was built with it on
 * (check-asan, or this test built with -DNOCSIM_CHECK), an invariant of
 * the library fires: ga_first_best asked to choose among no scores prints
 * "nocsim: invariant broken: first_best: ..." and aborts (the test expects
 * SIGABRT).  In release it is not evaluated: the same call returns 0. */
START_TEST(invariant_fires_when_on)
{
    int64_t none[1] = { 0 };
    int best = ga_first_best(none, 0);
    ck_assert_msg(!nocsim_asserts_on(), "the invariant did not fire (returned %d)", best);
    ck_assert_int_eq(best, 0);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("faults");
    TCase *tc = tcase_create("kinds");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, kinds_and_codes);
    tcase_add_test(tc, line_reader_kinds);
    tcase_add_test(tc, traffic_kinds);
    tcase_add_test(tc, sim_kinds);
    tcase_add_test(tc, sim_out_of_memory);
    tcase_add_test(tc, pool_thread_fails);
    tcase_add_test(tc, ga_kinds);
    tcase_add_test(tc, resume_kinds);
    tcase_add_test(tc, cc_kinds);
    tcase_add_test(tc, openloop_kinds);
    tcase_add_test(tc, ga_first_run_unfinished);
    if (nocsim_asserts_on()) tcase_add_test_raise_signal(tc, invariant_fires_when_on, SIGABRT);
    else tcase_add_test(tc, invariant_fires_when_on);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return testutil_run(suite()); }
