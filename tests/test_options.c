/* The open-loop option rows (sim/ol_options.c) against the library they
 * describe: each numeric row's range is what ol_params_check accepts (its
 * ends accepted, a step past them refused by both), each row's default is
 * the constant of sim/openloop.h written here by hand, and each row sets the
 * field it names.  Then experiment files: util/keyfile.c's syntax and
 * sim/ol_config.c's BookSim2 keys, with values worked out by hand. */
#include <check.h>

#include "tests/testutil.h"
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "sim/ol_config.h"
#include "sim/ol_options.h"
#include "util/keyfile.h"

static const opt_row *row(const char *name)
{
    const opt_row *r = opt_find(ol_net_options, name);
    if (!r) r = opt_find(ol_packet_options, name);
    if (!r) r = opt_find(ol_measure_options, name);
    ck_assert_msg(r != NULL, "no row %s", name);
    return r;
}

/* p accepted by the library: the field checks and the network's. */
static int library_ok(const ol_params *p)
{
    char err[256];
    return ol_params_check(p, err, sizeof err) == 0 && ol_net_check(p, err, sizeof err) == 0;
}

static int set(ol_params *p, const char *name, const char *value)
{
    char err[256];
    return opt_set(row(name), p, value, err, sizeof err);
}

static const char *shown(const ol_params *p, const char *name)
{
    static char buf[128];
    opt_show(row(name), p, buf, sizeof buf);
    return buf;
}

/* Rows checked by ol_params_check: the ends of the row's range pass both,
 * a value just past them fails both (written into the field directly for
 * the library). */
START_TEST(ranges_match_the_library)
{
    static const struct { const char *name; const char *lo, *hi, *below, *above; } r[] = {
        { "batch", "10", "1000000", "9", "1000001" },
        { "window", "2", "10000", "1", "10001" },
        { "drain-cap", "0", "100000000", "-1", "100000001" },
        { "warmup-tolerance", "0", "1", "-0.001", "1.001" },
        { "accept-tolerance", "0", "0.999", "-0.001", "1" },
        { "latency-limit", "1", "1e9", "0.999", "1.001e9" },
    };
    for (size_t k = 0; k < sizeof r / sizeof r[0]; k++) {
        ol_params p, q;
        ol_params_default(&p);
        ck_assert_msg(set(&p, r[k].name, r[k].lo) == 0 && library_ok(&p), "%s %s", r[k].name, r[k].lo);
        ck_assert_msg(set(&p, r[k].name, r[k].hi) == 0 && library_ok(&p), "%s %s", r[k].name, r[k].hi);
        q = p;
        ck_assert_msg(set(&p, r[k].name, r[k].below) == -FAULT_INPUT, "%s %s", r[k].name, r[k].below);
        ck_assert_msg(set(&p, r[k].name, r[k].above) == -FAULT_INPUT, "%s %s", r[k].name, r[k].above);
        ck_assert_msg(memcmp(&p, &q, sizeof p) == 0, "%s: a refused value changed the field", r[k].name);
    }
    /* The library refuses what the rows refuse. */
    ol_params p;
    ol_params_default(&p);
    p.batch = 9;
    ck_assert(!library_ok(&p));
    ol_params_default(&p);
    p.accept_tol = 1;
    ck_assert(!library_ok(&p));
    ol_params_default(&p);
    p.warmup_tol = 1.001;
    ck_assert(!library_ok(&p));
    ol_params_default(&p);
    p.latency_limit = 1.001e9;
    ck_assert(!library_ok(&p));
    ol_params_default(&p);
    p.warmup_min = 0;
    ck_assert(!library_ok(&p));
    ck_assert_int_eq(set(&p, "warmup", "0:3"), -FAULT_INPUT);
    ck_assert_int_eq(set(&p, "warmup", "5:4"), -FAULT_INPUT);
    ck_assert_int_eq(set(&p, "warmup", "1:10000"), 0);
    ck_assert(library_ok(&p));
    ck_assert_int_eq(set(&p, "warmup", "1:10001"), -FAULT_INPUT);
}
END_TEST

START_TEST(defaults_are_the_constants)
{
    ol_params p;
    ol_params_default(&p);
    /* sim/openloop.h and sim/sim.h, by hand */
    static const char *const want[][2] = {
        { "topology", "mesh" }, { "size", "8" }, { "vcs", "3" }, { "buffer", "4" }, { "vc-rule", "any" },
        { "arb", "C00" }, { "tie", "nowrap" }, { "packet", "8" }, { "process", "bernoulli" }, { "batch", "1000" },
        { "warmup", "3:20" }, { "warmup-tolerance", "0.05" }, { "window", "10" }, { "drain-cap", "20000" },
        { "accept-tolerance", "0.02" }, { "latency-limit", "500" }, { "per-flow", "" },
    };
    for (size_t k = 0; k < sizeof want / sizeof want[0]; k++)
        ck_assert_msg(!strcmp(shown(&p, want[k][0]), want[k][1]), "%s: %s, want %s", want[k][0], shown(&p, want[k][0]),
                      want[k][1]);
}
END_TEST

/* Each row sets its own field and no other. */
START_TEST(rows_set_their_fields)
{
    ol_params d, p;
    ol_params_default(&d);
    p = d;
    ck_assert_int_eq(set(&p, "size", "6x4"), 0);
    ck_assert(p.net.rp.w == 6 && p.net.rp.h == 4 && p.net.rp.n == 6);
    ck_assert_int_eq(set(&p, "topology", "torus"), 0);
    ck_assert_int_eq(p.net.rp.topo, TOPO_TORUS);
    ck_assert_int_eq(set(&p, "vcs", "5"), 0);
    ck_assert_int_eq(p.net.vcs, 5);
    ck_assert_int_eq(set(&p, "buffer", "255"), 0);
    ck_assert_int_eq(p.net.buffer, 255);
    ck_assert_int_eq(set(&p, "buffer", "256"), -FAULT_INPUT);
    ck_assert_int_eq(set(&p, "arb", "C07"), 0);
    ck_assert_int_eq(p.net.scheme, 7);
    ck_assert_int_eq(set(&p, "arb", "C10"), -FAULT_INPUT);
    ck_assert_int_eq(set(&p, "tie", "minus"), 0);
    ck_assert_int_eq(p.net.rp.tie, TIE_MINUS);
    ck_assert_int_eq(set(&p, "process", "periodic"), 0);
    ck_assert_int_eq(p.process, OL_PERIODIC);
    ck_assert_int_eq(set(&p, "packet", "1:0.25,8:0.75"), 0);
    ck_assert(p.nlen == 2 && p.len[1] == 8 && p.prob[0] == 0.25);
    ck_assert_str_eq(shown(&p, "packet"), "1:0.25,8:0.75");
    ck_assert_int_eq(set(&p, "per-flow", NULL), 0);
    ck_assert_int_eq(p.per_flow, 1);
    /* the torus's own rule, not the fields' ranges */
    ck_assert(!library_ok(&p)); /* any-VC rule on a torus */
    ol_default_vc_rule(&p);
    ck_assert_int_eq(p.net.vc_rule, VCRULE_DATELINE);
    ck_assert(library_ok(&p));
    ck_assert_int_eq(set(&p, "vcs", "2"), 0);
    ck_assert(!library_ok(&p));
}
END_TEST

START_TEST(keyfile_syntax)
{
    keyfile kf;
    char err[256];
    ck_assert_int_eq(keyfile_parse("// c\n# c\n a = 1; b=two ;; \nc = {1, 8} // x\n\n", "f", &kf, err, sizeof err), 0);
    ck_assert_int_eq(kf.n, 3);
    ck_assert_str_eq(kf.items[0].key, "a");
    ck_assert_str_eq(kf.items[1].value, "two");
    ck_assert_int_eq((int)kf.items[1].line, 3);
    ck_assert_str_eq(kf.items[2].value, "{1, 8}");
    ck_assert_int_eq((int)kf.items[2].line, 4);
    keyfile_free(&kf);
    static const char *const bad[] = { "a 1", "= 1", "a =", "a = {1", "a = 1}", "9a = 1", "a b = 1" };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        ck_assert_msg(keyfile_parse(bad[k], "f", &kf, err, sizeof err) == -FAULT_INPUT, "'%s' taken", bad[k]);
        ck_assert_msg(strstr(err, "f, line 1:") != NULL, "%s", err);
        keyfile_free(&kf);
    }
}
END_TEST

static const char *value(const ol_config *c, const char *name)
{
    const char *v = NULL;
    for (int i = 0; i < c->n; i++)
        if (!strcmp(c->set[i].name, name)) v = c->set[i].value;
    return v;
}

START_TEST(booksim_keys)
{
    ol_config c;
    char err[512];
    ck_assert_int_eq(ol_config_parse("k = 4; num_vcs = 2; vc_buf_size = 6; traffic = transpose\n"
                                     "packet_size = {1,8}; packet_size_rate = {3,1}\n"
                                     "injection_rate = 0.02; sample_period = 500; max_samples = 4\n"
                                     "warmup_periods = 25; routing_function = dim_order; vcs = 7\n",
                                     "f", &c, err, sizeof err), 0);
    ck_assert_str_eq(value(&c, "size"), "4");
    ck_assert_str_eq(value(&c, "vcs"), "7"); /* the later setting comes later */
    ck_assert_str_eq(c.set[1].key, "num_vcs");
    ck_assert_str_eq(value(&c, "buffer"), "6");
    ck_assert_str_eq(value(&c, "self"), "send"); /* BookSim2's patterns */
    ck_assert_str_eq(value(&c, "packet"), "1:0.75,8:0.25");
    /* packets per cycle (BookSim2's default): 0.02 x (0.75 + 2) flits */
    ck_assert_str_eq(value(&c, "rate"), "0.055");
    ck_assert_str_eq(value(&c, "batch"), "500");
    ck_assert_str_eq(value(&c, "window"), "4");
    ck_assert_str_eq(value(&c, "warmup"), "25:25");
    ck_assert_str_eq(value(&c, "routing"), "dim_order"); /* the routing row takes BookSim2's names */
    ck_assert(strstr(c.approx, "warmup_periods") && strstr(c.approx, "max_samples"));
    ol_config_free(&c);
    ck_assert_int_eq(ol_config_parse("injection_rate_uses_flits = 1; injection_rate = 0.3; warmup_periods = 3",
                                     "f", &c, err, sizeof err), 0);
    ck_assert_str_eq(value(&c, "rate"), "0.3");
    ck_assert_str_eq(value(&c, "warmup"), "3:20");
    ol_config_free(&c);
    /* our own names alone: nocsim's meaning (no self) */
    ck_assert_int_eq(ol_config_parse("traffic = {uniform,transpose}; seed = 3", "f", &c, err, sizeof err), 0);
    ck_assert_str_eq(value(&c, "traffic"), "uniform,transpose");
    ck_assert_ptr_null(value(&c, "self"));
    ol_config_free(&c);
    /* BookSim2's pipeline as router timing [R-TM-5], its VC allocator as
     * --vc-alloc rotate [R-VC-6]: D = 0 + 2 + 1 - 1 = 2, S = 1, L = 1, C = 0 + 1. */
    ck_assert_int_eq(ol_config_parse("routing_delay = 0; vc_alloc_delay = 2", "f", &c, err, sizeof err), 0);
    ck_assert_str_eq(value(&c, "router-delay"), "2");
    ck_assert_str_eq(value(&c, "switch-delay"), "1");
    ck_assert_str_eq(value(&c, "link-delay"), "1");
    ck_assert_str_eq(value(&c, "credit-delay"), "1");
    ck_assert_str_eq(value(&c, "vc-alloc"), "rotate");
    ol_config_free(&c);
    /* what nocsim models only at one value */
    static const char *const refused[][2] = {
        { "\nn = 3", "line 2: n = 3: nocsim's networks are two-dimensional" },
        { "sw_alloc_delay = 2", "matches BookSim2's pipeline with sw_alloc_delay 1" },
        { "injection_process = on_off", "periodic" },
        { "num_vcs = {2,2}", "one class" },
        { "sim_type = throughput", "no counterpart" },
        { "packet_size_rate = {1}", "needs packet_size" },
        { "packet_size = {1,8}; packet_size_rate = {1}", "one weight per packet_size" },
    };
    for (size_t k = 0; k < sizeof refused / sizeof refused[0]; k++) {
        ck_assert_msg(ol_config_parse(refused[k][0], "f", &c, err, sizeof err) == -FAULT_INPUT, "%s", refused[k][0]);
        ck_assert_msg(strstr(err, refused[k][1]) != NULL, "%s: %s", refused[k][0], err);
        ol_config_free(&c);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("options");
    TCase *tc = tcase_create("options");
    tcase_add_test(tc, ranges_match_the_library);
    tcase_add_test(tc, defaults_are_the_constants);
    tcase_add_test(tc, rows_set_their_fields);
    tcase_add_test(tc, keyfile_syntax);
    tcase_add_test(tc, booksim_keys);
    suite_add_tcase(s, tc);
    return testutil_run(s);
}
