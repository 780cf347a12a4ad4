/* Unit tests of cc's parts one by one: the chromosome encodings (evaluation
 * by hand-counted conflicts, restoration, acceleration, decoding, the
 * mutation's domain), the SAT formula of --exact (small cases decided both
 * ways), schedule files and the merging of flags, the topology parser's
 * limits and names, the routing model, HGSA, and the issue-14 searches. */
#include <check.h>

#include "tests/testutil.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cc/exact.h"
#include "cc/instance.h"
#include "cc/schedfile.h"
#include "cc/search.h"

/* An instance from a description in a few words. */
static cc_instance *inst_sw(const char *topo, cc_kind kind, const char *root, int ports, int extra, int sw)
{
    cc_desc d = cc_desc_empty();
    d.topology = topo;
    d.kind = kind;
    d.root = root;
    d.ports = ports;
    d.extra = extra;
    d.sw = sw;
    cc_instance *in;
    char err[CC_ERRLEN];
    int rc = cc_instance_new(&d, 128, &in, err, sizeof err);
    ck_assert_msg(rc == CC_OK, "%s", err);
    return in;
}

static cc_instance *inst(const char *topo, cc_kind kind, const char *root, int ports, int extra)
{
    return inst_sw(topo, kind, root, ports, extra, CC_UNSET);
}

static cc_enc *enc(const cc_instance *in, int S, bool hop1)
{
    cc_enc *e;
    char err[CC_ERRLEN];
    ck_assert_msg(cc_enc_new(in->pb, in->paths, S, hop1, &e, err, sizeof err) == CC_OK, "%s", err);
    return e;
}

/* The message index of (s, d) by node names. */
static int msg_of(const cc_instance *in, const char *s, const char *d)
{
    int a = cc_topo_node(in->t, s), b = cc_topo_node(in->t, d);
    for (int m = 0; m < in->pb->nmsg; m++)
        if (in->pb->msrc[m] == a && in->pb->mdst[m] == b) return m;
    ck_abort_msg("no message %s->%s", s, d);
    return -1;
}

/* ---- encoding -------------------------------------------------------- */

START_TEST(enc_shape)
{
    cc_instance *in = inst("octagon", CC_OAS, "0", 0, 0);
    cc_enc *e = enc(in, 3, false);
    ck_assert_int_eq(cc_enc_nvar(e), 14);           /* 7 messages x (path, step) */
    ck_assert_int_eq(cc_enc_gene_width(e), 2);
    ck_assert_int_eq(cc_enc_steps(e), 3);
    const int *card = cc_enc_card(e);
    int m2 = msg_of(in, "0", "2"), m3 = msg_of(in, "0", "3");
    ck_assert_int_eq(card[2 * m2], 1);              /* 0-1-2 only */
    ck_assert_int_eq(card[2 * m3], 2);              /* 0-4-3 and 0-7-3 (7 is opposite 3) */
    ck_assert_int_eq(card[2 * m3 + 1], 3);
    cc_enc_free(e);
    cc_instance_free(in);
    in = inst("hypercube:3", CC_AAB, NULL, 0, 0);
    e = enc(in, 3, false);
    ck_assert_int_eq(cc_enc_nvar(e), 56 * 3);       /* 8 x 7 deliveries x (source, path, step) */
    ck_assert_int_eq(cc_enc_gene_width(e), 3);
    ck_assert_int_eq(cc_enc_card(e)[0], 8);         /* any node as the source */
    ck_assert_int_eq(cc_enc_card(e)[1], 6);         /* most routes of a pair: 3! */
    cc_enc_free(e);
    cc_instance_free(in);
}
END_TEST

/* Octagon OAS from 0: put every message on path 0 at step 0 and count the
 * shared channels by hand. */
START_TEST(enc_scatter_conflicts_by_hand)
{
    cc_instance *in = inst("octagon", CC_OAS, "0", 0, 0);
    cc_enc *e = enc(in, 3, false);
    int x[14];
    for (int m = 0; m < 7; m++) { x[2 * m] = 0; x[2 * m + 1] = 0; }
    rng r;
    rng_seed(&r, 1);
    /* Routes (path 0 of each): 0-1, 0-1-2, 0-4-3 (or 0-1-2-3? dist(0,3) = 2
     * via 4), 0-4, 0-7-6 or 0-4-5, 0-7-6, 0-7.  The root's three channels
     * 0->1, 0->4, 0->7 carry all seven messages in step 0, so at least
     * 7 - 3 = 4 conflicts; the second hops add none (all distinct). */
    long c = cc_enc_eval(e, x, &r);
    ck_assert_int_ge(c, 4);
    /* One message per step on the channel 0->1 and so on: spread by steps. */
    int m1 = msg_of(in, "0", "1"), m2 = msg_of(in, "0", "2"), m7 = msg_of(in, "0", "7"), m6 = msg_of(in, "0", "6");
    int m4 = msg_of(in, "0", "4"), m5 = msg_of(in, "0", "5"), m3 = msg_of(in, "0", "3");
    int step[7];
    step[m1] = 0; step[m2] = 1; step[m7] = 0; step[m6] = 1; step[m4] = 0; step[m5] = 1; step[m3] = 2;
    for (int m = 0; m < 7; m++) x[2 * m + 1] = step[m];
    /* 0->5 has two routes, 0-4-5 and 0-1-5; in step 1 beside 0-1-2 and
     * 0-7-6 only 0-4-5 is free */
    const cc_paths *P = in->paths;
    int a = cc_topo_node(in->t, "0"), five = cc_topo_node(in->t, "5"), four = cc_topo_node(in->t, "4");
    ck_assert_int_eq(cc_paths_count(P, a, five), 2);
    x[2 * m5] = in->t->ch_to[cc_paths_ch(P, cc_paths_id(P, a, five, 0))[0]] == four ? 0 : 1;
    c = cc_enc_eval(e, x, &r);
    ck_assert_int_eq(c, 0);
    cc_schedule *s = cc_schedule_new();
    ck_assert(cc_enc_decode(e, x, s) == CC_OK);
    ck_assert_int_eq(s->nt, 7);
    cc_verify_result vr;
    ck_assert(cc_verify(in->pb, s, &vr) == CC_OK);
    ck_assert_msg(vr.ok, "%s", vr.first);
    ck_assert_int_eq(vr.steps, 3);
    cc_schedule_free(s);
    /* moving 0->2 into step 0 makes exactly one conflict: 0->1 with 0->1 */
    x[2 * m5] = 1 - x[2 * m5];
    ck_assert_int_eq(cc_enc_eval(e, x, &r), 1);    /* 0-1-5 beside 0-1-2 */
    x[2 * m5] = 1 - x[2 * m5];
    x[2 * m2 + 1] = 0;
    ck_assert_int_eq(cc_enc_eval(e, x, &r), 1);
    cc_enc_free(e);
    cc_instance_free(in);
}
END_TEST

/* Restoration: a delivery whose gene names an uninformed source gets an
 * informed one when evaluated (Lamarckian repair). */
START_TEST(enc_broadcast_restoration)
{
    cc_instance *in = inst("hypercube:3", CC_OAB, "0", 0, 0);
    cc_enc *e = enc(in, 3, false);
    int nv = cc_enc_nvar(e), *x = malloc((size_t)nv * sizeof *x);
    rng r;
    rng_seed(&r, 7);
    for (int g = 0; g < in->pb->nmsg; g++) {
        x[3 * g] = 7;       /* node 7 is informed last at best: a bad source for step 0 */
        x[3 * g + 1] = 0;
        x[3 * g + 2] = 0;
    }
    long c = cc_enc_eval(e, x, &r);
    /* every delivery that happened in step 0 came from the root, the only
     * node informed before step 0 */
    for (int g = 0; g < in->pb->nmsg; g++)
        if (x[3 * g + 2] == 0) ck_assert_int_eq(x[3 * g], 0);
    ck_assert_int_ge(c, 0);
    /* restoration postpones what step 0 cannot carry; decoding gives a
     * schedule in which no sender is uninformed */
    cc_schedule *s = cc_schedule_new();
    ck_assert(cc_enc_decode(e, x, s) == CC_OK);
    cc_verify_result vr;
    ck_assert(cc_verify(in->pb, s, &vr) == CC_OK);
    ck_assert_int_eq(vr.count[CC_VERR_UNINFORMED], 0);
    cc_schedule_free(s);
    free(x);
    cc_enc_free(e);
    cc_instance_free(in);
}
END_TEST

/* Acceleration: one-port OAS with every message in step 0 is spread so the
 * root sends one message per step. */
START_TEST(enc_acceleration)
{
    cc_instance *in = inst("hypercube:3", CC_OAS, "0", 1, 0);
    cc_enc *e = enc(in, 7, false);
    int x[14];
    for (int m = 0; m < 7; m++) { x[2 * m] = 0; x[2 * m + 1] = 0; }
    rng r;
    rng_seed(&r, 3);
    cc_enc_eval(e, x, &r);
    int load[7] = { 0 };
    for (int m = 0; m < 7; m++) load[x[2 * m + 1]]++;
    for (int st = 0; st < 7; st++) ck_assert_int_eq(load[st], 1);
    cc_enc_free(e);
    cc_instance_free(in);
}
END_TEST

/* For random chromosomes: the conflict count is 0 exactly when the decoded
 * schedule passes the independent verifier in S steps; mutation keeps every
 * variable in its domain. */
static void eval_matches_verify(const char *topo, cc_kind kind, int ports, int S, bool hop1, uint64_t seed)
{
    cc_instance *in = inst(topo, kind, NULL, ports, 0);
    cc_enc *e = enc(in, S, hop1);
    int nv = cc_enc_nvar(e), *x = malloc((size_t)nv * sizeof *x);
    const int *card = cc_enc_card(e);
    rng r;
    rng_seed(&r, seed);
    int zeros = 0;
    cc_enc_random(e, x, &r);
    for (int it = 0; it < 1000; it++) {
        cc_enc_mutate_n(e, x, &r, 1);
        for (int i = 0; i < nv; i++) ck_assert_msg(x[i] >= 0 && x[i] < card[i], "variable %d = %d outside [0, %d)", i, x[i], card[i]);
        long c = cc_enc_eval(e, x, &r);
        if (c != 0 && it % 50) continue;
        cc_schedule *s = cc_schedule_new();
        ck_assert(cc_enc_decode(e, x, s) == CC_OK);
        cc_verify_result vr;
        ck_assert(cc_verify(in->pb, s, &vr) == CC_OK);
        bool valid = vr.ok && vr.steps <= S;
        ck_assert_msg(valid == (c == 0), "%s: eval %ld, verify %s (%s)", topo, c, vr.ok ? "ok" : "invalid", vr.first);
        zeros += c == 0;
        cc_schedule_free(s);
        if (c == 0) cc_enc_random(e, x, &r);
    }
    free(x);
    cc_enc_free(e);
    cc_instance_free(in);
    (void)zeros;
}

START_TEST(enc_eval_agrees_with_verify)
{
    eval_matches_verify("octagon", CC_AAS, 0, 4, false, 1);
    eval_matches_verify("hypercube:3", CC_AAB, 0, 3, true, 2);
    eval_matches_verify("hypercube:3", CC_AAB, 0, 3, false, 3);
    eval_matches_verify("mesh:3x3", CC_AAS, 1, 9, false, 4);
    eval_matches_verify("mesh:3x3", CC_AAB, 1, 8, false, 5);
}
END_TEST

START_TEST(enc_clone_evaluates_alike)
{
    cc_instance *in = inst("mesh:3x3", CC_AAS, NULL, 1, 0);
    cc_enc *e = enc(in, 9, false), *f;
    ck_assert(cc_enc_clone(e, &f, NULL, 0) == CC_OK);
    int nv = cc_enc_nvar(e), *x = malloc((size_t)nv * sizeof *x), *y = malloc((size_t)nv * sizeof *y);
    rng r, r1, r2;
    rng_seed(&r, 11);
    for (int k = 0; k < 20; k++) {
        cc_enc_random(e, x, &r);
        memcpy(y, x, (size_t)nv * sizeof *y);
        rng_seed(&r1, (uint64_t)k);
        rng_seed(&r2, (uint64_t)k);
        ck_assert_int_eq(cc_enc_eval(e, x, &r1), cc_enc_eval(f, y, &r2));
        ck_assert_int_eq(memcmp(x, y, (size_t)nv * sizeof *x), 0);   /* the same repairs */
    }
    free(x); free(y);
    cc_enc_free(f);
    cc_enc_free(e);
    cc_instance_free(in);
}
END_TEST

START_TEST(enc_no_route_is_input_error)
{
    /* a digraph where a scatter message has no route cannot be built: the
     * topology check refuses it first (not strongly connected) */
    char err[CC_ERRLEN];
    cc_desc d = cc_desc_empty();
    d.topology = "kautz:2,2";
    d.kind = CC_AAS;
    d.nfail_link = 1;
    d.fail_a[0] = "01";
    d.fail_b[0] = "10";
    d.faults_given = true;
    cc_instance *in;
    int rc = cc_instance_new(&d, 128, &in, err, sizeof err);
    if (rc == CC_OK) cc_instance_free(in);
    else ck_assert_int_eq(rc, CC_EINPUT);
}
END_TEST

/* ---- exact (SAT) ---------------------------------------------------- */

/* Solve in for S steps; a found schedule must verify.  Frees in. */
static int decide_in(cc_instance *in, int S)
{
    int sat;
    cc_schedule *s;
    long v, c;
    char err[CC_ERRLEN];
    int rc = cc_exact_solve(in->pb, in->paths, S, false, 60, &sat, &s, &v, &c, err, sizeof err);
    ck_assert_msg(rc == CC_OK, "%s", err);
    if (sat == 1) {
        cc_verify_result vr;
        ck_assert(cc_verify(in->pb, s, &vr) == CC_OK);
        ck_assert_msg(vr.ok && vr.steps <= S, "%s", vr.first);
        cc_schedule_free(s);
    }
    cc_instance_free(in);
    return sat;
}

static int decide(const char *topo, cc_kind kind, const char *root, int ports, int extra, int S)
{
    return decide_in(inst(topo, kind, root, ports, extra), S);
}

START_TEST(exact_decides_published_cases)
{
    /* issue 14: hypercube-3 AAS 4, octagon AAS 4, mesh 4x4 OAS from an edge
     * node 6 with shortest paths: one step fewer is impossible, and the
     * solver's own schedule at the optimum verifies */
    ck_assert_int_eq(decide("hypercube:3", CC_AAS, NULL, 0, 0, 3), 0);
    ck_assert_int_eq(decide("hypercube:3", CC_AAS, NULL, 0, 0, 4), 1);
    ck_assert_int_eq(decide("octagon", CC_AAS, NULL, 0, 0, 3), 0);
    ck_assert_int_eq(decide("octagon", CC_AAS, NULL, 0, 0, 4), 1);
    ck_assert_int_eq(decide("mesh:4x4", CC_OAS, "01", 0, 0, 5), 0);
    ck_assert_int_eq(decide("mesh:4x4", CC_OAS, "01", 0, 0, 6), 1);
    /* paths two hops longer make 5 possible */
    ck_assert_int_eq(decide("mesh:4x4", CC_OAS, "01", 0, 2, 5), 1);
}
END_TEST

START_TEST(exact_broadcast_and_ports)
{
    /* OAB on the 3-cube: 2 steps all-port (0 -> 1,2,4, then the rest), 3
     * steps one-port (doubling) */
    ck_assert_int_eq(decide("hypercube:3", CC_OAB, "0", 0, 0, 1), 0);
    ck_assert_int_eq(decide("hypercube:3", CC_OAB, "0", 0, 0, 2), 1);
    ck_assert_int_eq(decide("hypercube:3", CC_OAB, "0", 1, 0, 2), 0);
    ck_assert_int_eq(decide("hypercube:3", CC_OAB, "0", 1, 0, 3), 1);
    /* AAB on the octagon: 7 messages to receive over 3 input channels: 3 */
    ck_assert_int_eq(decide("octagon", CC_AAB, NULL, 0, 0, 2), 0);
    ck_assert_int_eq(decide("octagon", CC_AAB, NULL, 0, 0, 3), 1);
    /* one-port OAS of the 3-cube: the root sends one per step, 7 messages */
    ck_assert_int_eq(decide("hypercube:3", CC_OAS, "0", 1, 0, 6), 0);
    ck_assert_int_eq(decide("hypercube:3", CC_OAS, "0", 1, 0, 7), 1);
}
END_TEST

START_TEST(exact_improves_a_search_result)
{
    cc_instance *in = inst("hypercube:3", CC_AAS, NULL, 0, 0);
    cc_search_params sp = cc_search_defaults();
    sp.steps = 6;                       /* a poor start: 6 steps */
    cc_search_result res;
    char err[CC_ERRLEN];
    ck_assert(cc_search(in->pb, in->paths, &sp, &res, err, sizeof err) == CC_OK);
    ck_assert(res.found);
    ck_assert_int_ge(res.steps, 4);
    cc_exact_params ep = { .seconds = 60, .bound = in->bounds.best };
    cc_exact_result ex;
    ck_assert(cc_exact_improve(in->pb, in->paths, &ep, &res, &ex, err, sizeof err) == CC_OK);
    ck_assert_int_eq(ex.status, CC_EXACT_OPTIMAL);
    ck_assert(ex.sat_proof);
    ck_assert_int_eq(res.steps, 4);
    ck_assert_int_eq(ex.steps, 4);
    ck_assert_ptr_nonnull(strstr(ex.why, "proved 3 steps impossible"));
    cc_verify_result vr;
    ck_assert(cc_verify(in->pb, res.sched, &vr) == CC_OK);
    ck_assert(vr.ok);
    cc_search_result_clear(&res);
    /* no schedule at all to start from: upwards from the bound */
    memset(&res, 0, sizeof res);
    ck_assert(cc_exact_improve(in->pb, in->paths, &ep, &res, &ex, err, sizeof err) == CC_OK);
    ck_assert(res.found);
    ck_assert_int_eq(res.steps, 4);
    cc_search_result_clear(&res);
    cc_instance_free(in);
}
END_TEST


/* SF all-to-all at the bounds tests/test_cc_io.c works out by hand: ring:4
 * AAS all-port 2; one-port 4 (the hop-sends bound; 3 impossible);
 * the 2x4 ladder's AAB 4 (paper 001 Table 1) and AAS 8; 3-cube AAS 4, and
 * one-port 12 (the hop-sends bound; the default SA search finds only 18). */
static void sf_decide(const char *topo, cc_kind kind, int ports, int S, int want)
{
    int sat = decide_in(inst_sw(topo, kind, NULL, ports, 0, CC_SF), S);
    ck_assert_msg(sat == want, "%s %s %d-port SF in %d steps: %d, want %d", topo, cc_kind_names[kind], ports, S, sat, want);
}

/* Store-and-forward and the one-hop formula: ring:6 OAS from 0 in SF needs
 * 3 steps (the message to 3 leaves at step 0 and arrives at step 2, the
 * messages to 2 and 1 follow it on 0->1), and the octagon's AAB in 3 steps
 * exists with one-hop deliveries only. */
START_TEST(exact_sf_all_to_all)
{
    sf_decide("ring:4", CC_AAS, 0, 2, 1);
    sf_decide("ring:4", CC_AAS, 0, 1, 0);
    sf_decide("ring:4", CC_AAS, 1, 4, 1);
    sf_decide("ring:4", CC_AAS, 1, 3, 0);
    sf_decide("mesh:2x4", CC_AAB, 0, 4, 1);
    sf_decide("mesh:2x4", CC_AAS, 0, 8, 1);
    sf_decide("hypercube:3", CC_AAS, 0, 4, 1);
    sf_decide("hypercube:3", CC_AAS, 1, 12, 1);
}
END_TEST

START_TEST(exact_sf_and_one_hop)
{
    cc_instance *in = inst_sw("ring:6", CC_OAS, "0", 0, 0, CC_SF);
    char err[CC_ERRLEN];
    int sat;
    cc_schedule *s;
    long v, c;
    ck_assert(cc_exact_solve(in->pb, in->paths, 2, false, 60, &sat, &s, &v, &c, err, sizeof err) == CC_OK);
    ck_assert_int_eq(sat, 0);
    ck_assert(cc_exact_solve(in->pb, in->paths, 3, false, 60, &sat, &s, &v, &c, err, sizeof err) == CC_OK);
    ck_assert_int_eq(sat, 1);
    cc_verify_result vr;
    ck_assert(cc_verify(in->pb, s, &vr) == CC_OK);
    ck_assert_msg(vr.ok && vr.steps == 3, "%s", vr.first);
    cc_schedule_free(s);
    cc_instance_free(in);
    in = inst("octagon", CC_AAB, NULL, 0, 0);
    ck_assert(cc_exact_solve(in->pb, in->paths, 3, true, 60, &sat, &s, &v, &c, err, sizeof err) == CC_OK);
    ck_assert_int_eq(sat, 1);
    for (int i = 0; i < s->nt; i++) ck_assert_int_eq(s->tr[i].nnodes, 2);
    ck_assert_int_eq(s->nt, 56);          /* one delivery per (origin, receiver) */
    ck_assert(cc_verify(in->pb, s, &vr) == CC_OK);
    ck_assert(vr.ok);
    cc_schedule_free(s);
    /* a 1-step AAB is impossible even with every route */
    ck_assert(cc_exact_solve(in->pb, in->paths, 1, false, 60, &sat, &s, &v, &c, err, sizeof err) == CC_OK);
    ck_assert_int_eq(sat, 0);
    ck_assert_int_gt(v, 0);
    ck_assert_int_gt(c, 0);
    cc_instance_free(in);
}
END_TEST

/* ---- schedule files and flags ---------------------------------------- */

static char *write_temp(const char *text)
{
    static char path[64];
    strcpy(path, "/tmp/nocsim_cc_partsXXXXXX");
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    FILE *f = fdopen(fd, "w");
    fputs(text, f);
    fclose(f);
    return path;
}

START_TEST(schedfile_carries_the_problem)
{
    cc_desc d = cc_desc_empty();
    d.topology = "mesh:3x3";
    d.kind = CC_OAS;
    d.root = "11";
    d.ports = 2;
    d.extra = 2;
    d.fail_a[0] = "00-01";
    d.nfail_link = 1;
    d.faults_given = true;
    cc_instance *in;
    char err[CC_ERRLEN];
    ck_assert_msg(cc_instance_new(&d, 128, &in, err, sizeof err) == CC_OK, "%s", err);
    cc_search_params sp = cc_search_defaults();
    sp.start_steps = in->bounds.best;
    cc_search_result res;
    ck_assert(cc_search(in->pb, in->paths, &sp, &res, err, sizeof err) == CC_OK);
    ck_assert(res.found);
    char *text = NULL;
    size_t len = 0;
    FILE *mf = open_memstream(&text, &len);
    ck_assert_int_eq(cc_schedule_write_json(mf, res.sched, in->pb), 0);
    fclose(mf);
    char *path = write_temp(text);
    free(text);
    cc_schedfile *f;
    ck_assert_msg(cc_schedfile_read(path, &f, err, sizeof err) == CC_OK, "%s", err);
    const cc_desc *fd = cc_schedfile_desc(f);
    ck_assert_str_eq(fd->topology, "mesh:3x3");
    ck_assert_int_eq(fd->kind, CC_OAS);
    ck_assert_str_eq(fd->root, "11");
    ck_assert_int_eq(fd->ports, 2);
    ck_assert_int_eq(fd->extra, 2);
    ck_assert_int_eq(fd->sw, CC_WH);
    ck_assert(fd->faults_given);
    ck_assert_int_eq(fd->nfail_link, 1);
    ck_assert_str_eq(fd->fail_a[0], "00");
    ck_assert_str_eq(fd->fail_b[0], "01");
    /* the file alone rebuilds the problem, and the schedule verifies in it */
    cc_instance *in2;
    ck_assert_msg(cc_instance_new(fd, 128, &in2, err, sizeof err) == CC_OK, "%s", err);
    ck_assert_int_eq(in2->t->nch, in->t->nch);
    cc_schedule *s;
    ck_assert(cc_schedfile_schedule(f, in2->t, &s, err, sizeof err) == CC_OK);
    cc_verify_result vr;
    ck_assert(cc_verify(in2->pb, s, &vr) == CC_OK);
    ck_assert_msg(vr.ok, "%s", vr.first);
    ck_assert_int_eq(vr.steps, res.steps);
    cc_schedule_free(s);
    cc_instance_free(in2);
    /* flags may agree ... */
    cc_desc merged = *fd, flags = cc_desc_empty();
    flags.root = "11";
    flags.fail_a[0] = "01-00";
    flags.nfail_link = 1;
    flags.faults_given = true;
    ck_assert_msg(cc_desc_merge(&merged, &flags, err, sizeof err) == CC_OK, "%s", err);
    /* ... but not differ */
    flags = cc_desc_empty();
    flags.root = "00";
    merged = *fd;
    ck_assert_int_eq(cc_desc_merge(&merged, &flags, err, sizeof err), CC_EINPUT);
    ck_assert_ptr_nonnull(strstr(err, "root '00' disagrees with the schedule file's '11'"));
    flags = cc_desc_empty();
    flags.ports = 0;
    merged = *fd;
    ck_assert_int_eq(cc_desc_merge(&merged, &flags, err, sizeof err), CC_EINPUT);
    flags = cc_desc_empty();
    flags.faults_given = true;       /* "no faults" against the file's one */
    merged = *fd;
    ck_assert_int_eq(cc_desc_merge(&merged, &flags, err, sizeof err), CC_EINPUT);
    flags = cc_desc_empty();
    flags.kind = CC_AAS;
    merged = *fd;
    ck_assert_int_eq(cc_desc_merge(&merged, &flags, err, sizeof err), CC_EINPUT);
    ck_assert_ptr_nonnull(strstr(err, "kind aas"));
    cc_schedfile_free(f);
    remove(path);
    cc_search_result_clear(&res);
    cc_instance_free(in);
}
END_TEST

START_TEST(schedfile_fills_from_flags_and_rejects_bad_fields)
{
    char err[CC_ERRLEN];
    cc_schedfile *f;
    /* a hand-made file with transfers only: flags supply the problem */
    char *path = write_temp("{\"schedule\": [{\"step\": 0, \"transfers\": [{\"path\": [\"0\", \"1\"]}]}]}\n");
    ck_assert(cc_schedfile_read(path, &f, err, sizeof err) == CC_OK);
    cc_desc d = *cc_schedfile_desc(f), flags = cc_desc_empty();
    ck_assert_ptr_null(d.topology);
    ck_assert(!d.faults_given);
    flags.topology = "ring:4";
    flags.kind = CC_OAS;
    flags.faults_given = true;
    flags.fail_node[0] = "3";
    flags.nfail_node = 1;
    ck_assert(cc_desc_merge(&d, &flags, err, sizeof err) == CC_OK);
    ck_assert_str_eq(d.topology, "ring:4");
    ck_assert_int_eq(d.nfail_node, 1);
    cc_schedfile_free(f);
    remove(path);
    static const char *const bad[] = {
        "{\"ports\": 0, \"schedule\": []}",
        "{\"ports\": \"some\", \"schedule\": []}",
        "{\"cc\": \"xyz\", \"schedule\": []}",
        "{\"switching\": 1, \"schedule\": []}",
        "{\"nonminimal\": 9, \"schedule\": []}",
        "{\"faults\": {\"links\": [[\"a\"]]}, \"schedule\": []}",
        "{\"senders\": [], \"schedule\": []}",
        "{\"topology\": \"ring:4\"}",
        "[1, 2]",
    };
    /* Each error names the field it is about. */
    static const char *const where[] = { "ports", "ports", "cc", "switching", "nonminimal", "faults.links[0]",
                                         "senders", "\"schedule\" array", "\"schedule\" array" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        path = write_temp(bad[i]);
        ck_assert_msg(cc_schedfile_read(path, &f, err, sizeof err) == CC_EINPUT, "accepted: %s", bad[i]);
        ck_assert_msg(strstr(err, where[i]) != NULL, "%s: '%s' lacks '%s'", bad[i], err, where[i]);
        remove(path);
    }
}
END_TEST

/* ---- topology: limits, names, lines --------------------------------- */

START_TEST(topo_limits_and_names)
{
    char err[CC_ERRLEN];
    cc_topo *t;
    ck_assert_int_eq(cc_topo_new("mesh:100x100", &t, err, sizeof err), CC_EINPUT);
    ck_assert_ptr_nonnull(strstr(err, "10000 nodes, limit 4096"));
    ck_assert_ptr_null(t);
    ck_assert_int_eq(cc_topo_new("hypercube:13", &t, err, sizeof err), CC_EINPUT);
    ck_assert_int_eq(cc_topo_new("ring:+5", &t, err, sizeof err), CC_EINPUT);
    ck_assert_int_eq(cc_topo_new("torus:4x 4", &t, err, sizeof err), CC_EINPUT);
    ck_assert_ptr_nonnull(strstr(err, "file:PATH"));      /* the whole list of forms */
    ck_assert_int_eq(cc_topo_new("hypercube:12", &t, err, sizeof err), CC_OK);   /* 4096: the limit itself */
    ck_assert_int_eq(t->n, 4096);
    ck_assert_int_eq(t->nch, 4096 * 12);
    cc_topo_free(t);
    /* '-' inside names: the one split that names two nodes */
    static const char text[] = "a-1 b\nb c-2\nc-2 a-1\n";
    cc_topo_builder *b;
    ck_assert(cc_topo_parse_text("t", text, sizeof text - 1, &b, err, sizeof err) == CC_OK);
    ck_assert_int_eq(cc_topo_fail_link(b, "a-1-b", err, sizeof err), CC_OK);
    ck_assert_int_eq(cc_topo_fail_link(b, "b-c-2", err, sizeof err), CC_OK);
    ck_assert_int_eq(cc_topo_fail_link(b, "a-1-b", err, sizeof err), CC_EINPUT);  /* failed already */
    ck_assert_int_eq(cc_topo_build(b, &t, err, sizeof err), CC_EINPUT);          /* b is cut off */
    cc_topo_builder_free(b);
    static const char amb[] = "a b-c\na-b c\nb-c c\n";
    ck_assert(cc_topo_parse_text("t", amb, sizeof amb - 1, &b, err, sizeof err) == CC_OK);
    ck_assert_int_eq(cc_topo_fail_link(b, "a-b-c", err, sizeof err), CC_EINPUT);
    ck_assert_ptr_nonnull(strstr(err, "ambiguous"));
    cc_topo_builder_free(b);
}
END_TEST

START_TEST(topo_lines_without_limit)
{
    char err[CC_ERRLEN];
    cc_topo_builder *b;
    cc_topo *t;
    /* a 5000-byte comment ending in what looks like a link */
    size_t n = 5000;
    char *text = malloc(n + 64);
    text[0] = '#';
    memset(text + 1, 'x', n - 1);
    strcpy(text + n, " p q\na b\nb c\nc a\n");
    ck_assert(cc_topo_parse_text("long", text, strlen(text), &b, err, sizeof err) == CC_OK);
    ck_assert(cc_topo_build(b, &t, err, sizeof err) == CC_OK);
    ck_assert_int_eq(t->n, 3);
    cc_topo_free(t);
    cc_topo_builder_free(b);
    /* a 300-byte name is refused, not cut */
    memset(text, 'n', 300);
    strcpy(text + 300, " m\n");
    ck_assert_int_eq(cc_topo_parse_text("long", text, strlen(text), &b, err, sizeof err), CC_EINPUT);
    ck_assert_ptr_nonnull(strstr(err, "long:1:"));
    free(text);
    /* NUL inside a line: refused with the line */
    static const char nul[] = "a b\nb\0c\nc a\n";
    ck_assert_int_eq(cc_topo_parse_text("nul", nul, sizeof nul - 1, &b, err, sizeof err), CC_EINPUT);
    ck_assert_ptr_nonnull(strstr(err, "nul:2: NUL"));
    /* control bytes in a name are refused (messages quote names) */
    static const char ctl[] = "a b\x01\n";
    ck_assert_int_eq(cc_topo_parse_text("ctl", ctl, sizeof ctl - 1, &b, err, sizeof err), CC_EINPUT);
    /* directive after a link */
    static const char late[] = "a b\ndirected\n";
    ck_assert_int_eq(cc_topo_parse_text("late", late, sizeof late - 1, &b, err, sizeof err), CC_EINPUT);
    ck_assert_ptr_nonnull(strstr(err, "late:2:"));
}
END_TEST

/* ---- routes: --nonminimal K ---------------------------------------- */

START_TEST(paths_up_to_k_longer)
{
    char err[CC_ERRLEN];
    cc_topo *t;
    ck_assert(cc_topo_new("mesh:4x4", &t, err, sizeof err) == CC_OK);
    int a = cc_topo_node(t, "00"), b = cc_topo_node(t, "01"), z = cc_topo_node(t, "11");
    cc_paths *p0, *p1, *p2;
    ck_assert(cc_paths_new(t, 0, 128, &p0, err, sizeof err) == CC_OK);
    ck_assert(cc_paths_new(t, 1, 128, &p1, err, sizeof err) == CC_OK);
    ck_assert(cc_paths_new(t, 2, 128, &p2, err, sizeof err) == CC_OK);
    /* 00 -> 01: the link; no path of 2 hops (bipartite); one of 3: 00-10-11-01 */
    ck_assert_int_eq(cc_paths_count(p0, a, b), 1);
    ck_assert_int_eq(cc_paths_count(p1, a, b), 1);
    ck_assert_int_eq(cc_paths_count(p2, a, b), 2);
    ck_assert_int_eq(cc_paths_len(p2, cc_paths_id(p2, a, b, 1)), 3);
    /* 00 -> 11: two of 2 hops; of 4 hops: 00-01-02-12-11, 00-10-20-21-11 */
    ck_assert_int_eq(cc_paths_count(p0, a, z), 2);
    ck_assert_int_eq(cc_paths_count(p2, a, z), 4);
    /* shortest first: the first paths of a pair are the minimal ones */
    ck_assert_int_eq(cc_paths_len(p2, cc_paths_id(p2, a, z, 0)), 2);
    ck_assert_int_eq(cc_paths_len(p2, cc_paths_id(p2, a, z, 1)), 2);
    /* every stored path is simple */
    for (int id = 0; id < p2->npaths; id++) {
        char seen[16] = { 0 };
        const int *ch = cc_paths_ch(p2, id);
        seen[t->ch_from[ch[0]]] = 1;
        for (int h = 0; h < cc_paths_len(p2, id); h++) {
            ck_assert(!seen[t->ch_to[ch[h]]]);
            seen[t->ch_to[ch[h]]] = 1;
        }
    }
    cc_paths *bad;
    ck_assert_int_eq(cc_paths_new(t, CC_PATHS_MAX_EXTRA + 1, 128, &bad, err, sizeof err), CC_EINPUT);
    cc_paths_free(p0); cc_paths_free(p1); cc_paths_free(p2);
    cc_topo_free(t);
    /* a table over the byte limit is refused before it is built */
    ck_assert(cc_topo_new("ring:3000", &t, err, sizeof err) == CC_OK);
    ck_assert_int_eq(cc_paths_new(t, 0, 1, &bad, err, sizeof err), CC_EINPUT);
    ck_assert_ptr_nonnull(strstr(err, "limit 1024 MB"));
    cc_topo_free(t);
}
END_TEST

/* ---- verifier: the routing model and simple paths ------------------- */

START_TEST(verify_routes)
{
    cc_instance *in = inst("mesh:3x3", CC_OAS, "00", 0, 0);
    const cc_topo *t = in->t;
    int n00 = cc_topo_node(t, "00"), n01 = cc_topo_node(t, "01"), n10 = cc_topo_node(t, "10"), n11 = cc_topo_node(t, "11");
    cc_schedule *s = cc_schedule_new();
    int loop[] = { n00, n01, n11, n10, n00, n01 };   /* revisits 00 and 01 */
    int longer[] = { n00, n10, n11, n01 };           /* 3 hops for a 1-hop pair */
    ck_assert(cc_schedule_add(s, 0, n00, 6, loop) == CC_OK);
    ck_assert(cc_schedule_add(s, 1, n00, 4, longer) == CC_OK);
    cc_verify_result vr;
    ck_assert(cc_verify(in->pb, s, &vr) == CC_OK);
    ck_assert(!vr.ok);
    ck_assert_int_eq(vr.count[CC_VERR_NOT_SIMPLE], 1);
    ck_assert_int_eq(vr.count[CC_VERR_TOO_LONG], 1);
    cc_instance_free(in);
    /* with two extra hops allowed, the 3-hop route is within the model */
    in = inst("mesh:3x3", CC_OAS, "00", 0, 2);
    ck_assert(cc_verify(in->pb, s, &vr) == CC_OK);
    ck_assert_int_eq(vr.count[CC_VERR_TOO_LONG], 0);
    ck_assert_int_eq(vr.count[CC_VERR_NOT_SIMPLE], 1);
    cc_schedule_free(s);
    cc_instance_free(in);
}
END_TEST

/* ---- searches of issue 14 ---------------------------------------------- */

static int search(cc_instance *in, const cc_algo *algo, int steps, uint64_t seed, int threads)
{
    cc_search_params sp = cc_search_defaults();
    sp.algo = algo;
    sp.steps = steps;
    sp.seed = seed;
    sp.threads = threads;
    sp.start_steps = in->bounds.best;
    cc_search_result res;
    char err[CC_ERRLEN];
    ck_assert_msg(cc_search(in->pb, in->paths, &sp, &res, err, sizeof err) == CC_OK, "%s", err);
    int got = res.found ? res.steps : -1;
    if (res.found) ck_assert(res.vr.ok);
    cc_search_result_clear(&res);
    return got;
}

START_TEST(search_one_port_mesh_aas)
{
    /* issue 14: published 17 (paper 000), reached; the K-port moves reach
     * the bound 16 too (seeds 1-3 from the bound up, ~0.5 s each at -O2,
     * data/cc_published.md), left out here for the ASan run's time */
    cc_instance *in = inst("mesh:4x4", CC_AAS, NULL, 1, 0);
    ck_assert_int_eq(in->bounds.best, 16);
    ck_assert_int_eq(search(in, &cc_algo_sa, 17, 1, 1), 17);
    cc_instance_free(in);
}
END_TEST

START_TEST(search_failed_link_aas_16)
{
    /* issue 14: mesh 4x4 with link 00-01 failed, AAS 16 for seeds 1-3 at the
     * default budget, from the bound up */
    cc_desc d = cc_desc_empty();
    d.topology = "mesh:4x4";
    d.kind = CC_AAS;
    d.fail_a[0] = "00-01";
    d.nfail_link = 1;
    d.faults_given = true;
    cc_instance *in;
    char err[CC_ERRLEN];
    ck_assert(cc_instance_new(&d, 128, &in, err, sizeof err) == CC_OK);
    ck_assert_int_eq(in->bounds.best, 16);
    for (uint64_t seed = 1; seed <= 3; seed++) ck_assert_int_eq(search(in, &cc_algo_sa, 0, seed, 1), 16);
    cc_instance_free(in);
}
END_TEST

START_TEST(search_nonminimal_oas)
{
    /* issue 14: OAS from an edge node of the 4x4 mesh: 6 with shortest
     * paths, 5 with paths up to two hops longer */
    cc_instance *in = inst("mesh:4x4", CC_OAS, "01", 0, 2);
    ck_assert_int_eq(in->bounds.best, 5);
    ck_assert_int_eq(search(in, &cc_algo_sa, 0, 1, 1), 5);
    cc_instance_free(in);
    in = inst("mesh:4x4", CC_OAS, "01", 0, 1);
    ck_assert_int_eq(in->bounds.best, 6);   /* +1 hop adds no path on a bipartite mesh */
    cc_instance_free(in);
}
END_TEST

START_TEST(search_hgsa)
{
    cc_instance *in = inst("hypercube:3", CC_AAS, NULL, 0, 0);
    ck_assert_int_eq(search(in, &cc_algo_hgsa, 4, 1, 1), 4);
    cc_instance_free(in);
    in = inst("octagon", CC_AAB, NULL, 0, 0);
    ck_assert_int_eq(search(in, &cc_algo_hgsa, 3, 2, 1), 3);
    cc_instance_free(in);
    /* threads change the speed, not the result: the same evaluations */
    in = inst("mesh:4x4", CC_AAS, NULL, 0, 0);
    cc_search_params sp = cc_search_defaults();
    sp.algo = &cc_algo_hgsa;
    sp.steps = 16;
    sp.budget = 20000;
    cc_search_result a, b;
    char err[CC_ERRLEN];
    sp.threads = 1;
    ck_assert(cc_search(in->pb, in->paths, &sp, &a, err, sizeof err) == CC_OK);
    sp.threads = 3;
    ck_assert(cc_search(in->pb, in->paths, &sp, &b, err, sizeof err) == CC_OK);
    ck_assert_int_eq(a.evals, b.evals);
    ck_assert_int_eq(a.evals_to_best, b.evals_to_best);
    ck_assert_int_eq(a.found, b.found);
    cc_search_result_clear(&a);
    cc_search_result_clear(&b);
    cc_instance_free(in);
}
END_TEST

static void count_run(void *ctx, int run, uint64_t seed, const cc_search_result *res)
{
    int *calls = ctx;
    ck_assert_int_eq((uint64_t)run + 5, seed);
    ck_assert(res->found);
    (*calls)++;
}

START_TEST(search_series_statistics)
{
    cc_instance *in = inst("octagon", CC_OAS, "0", 0, 0);
    cc_search_params sp = cc_search_defaults();
    sp.seed = 5;
    sp.start_steps = in->bounds.best;
    cc_series se;
    int calls = 0;
    char err[CC_ERRLEN];
    ck_assert(cc_search_series(in->pb, in->paths, &sp, 4, in->bounds.best, count_run, &calls, &se, err, sizeof err) == CC_OK);
    ck_assert_int_eq(calls, 4);
    ck_assert_int_eq(se.runs, 4);
    ck_assert_int_eq(se.found, 4);
    ck_assert_int_eq(se.reached, 4);
    ck_assert_int_eq((int)se.sum_steps, 12);     /* 3 steps each */
    ck_assert(se.best.found);
    ck_assert_int_eq(se.best_run, 0);            /* the first of equals */
    cc_search_result_clear(&se.best);
    cc_instance_free(in);
}
END_TEST

START_TEST(search_defaults_and_limits)
{
    cc_search_params sp = cc_search_defaults();
    ck_assert_ptr_eq(sp.algo, &cc_algo_sa);
    ck_assert_int_eq(sp.budget, 100000);
    ck_assert_int_eq(sp.pop, 60);
    ck_assert(sp.pmut > 0.89 && sp.pmut < 0.91);
    ck_assert(sp.neighbour_first);
    /* a search whose population would not fit in the byte limit is refused */
    cc_instance *in = inst("hypercube:6", CC_AAB, NULL, 0, 0);
    sp.pop = 100000;
    sp.start_steps = in->bounds.best;
    cc_search_result res;
    char err[CC_ERRLEN];
    ck_assert_int_eq(cc_search(in->pb, in->paths, &sp, &res, err, sizeof err), CC_EINPUT);
    ck_assert_ptr_nonnull(strstr(err, "limit 1024 MB"));
    cc_instance_free(in);
    ck_assert_ptr_eq(cc_algo_find("hgsa"), &cc_algo_hgsa);
    ck_assert_ptr_null(cc_algo_find("mboa"));
}
END_TEST

int main(void)
{
    Suite *s = suite_create("cc_parts");
    TCase *tc = tcase_create("parts");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, enc_shape);
    tcase_add_test(tc, enc_scatter_conflicts_by_hand);
    tcase_add_test(tc, enc_broadcast_restoration);
    tcase_add_test(tc, enc_acceleration);
    tcase_add_test(tc, enc_eval_agrees_with_verify);
    tcase_add_test(tc, enc_clone_evaluates_alike);
    tcase_add_test(tc, enc_no_route_is_input_error);
    tcase_add_test(tc, exact_decides_published_cases);
    tcase_add_test(tc, exact_broadcast_and_ports);
    tcase_add_test(tc, exact_improves_a_search_result);
    tcase_add_test(tc, exact_sf_and_one_hop);
    tcase_add_test(tc, exact_sf_all_to_all);
    tcase_add_test(tc, schedfile_carries_the_problem);
    tcase_add_test(tc, schedfile_fills_from_flags_and_rejects_bad_fields);
    tcase_add_test(tc, topo_limits_and_names);
    tcase_add_test(tc, topo_lines_without_limit);
    tcase_add_test(tc, paths_up_to_k_longer);
    tcase_add_test(tc, verify_routes);
    tcase_add_test(tc, search_one_port_mesh_aas);
    tcase_add_test(tc, search_failed_link_aas_16);
    tcase_add_test(tc, search_nonminimal_oas);
    tcase_add_test(tc, search_hgsa);
    tcase_add_test(tc, search_series_statistics);
    tcase_add_test(tc, search_defaults_and_limits);
    suite_add_tcase(s, tc);
    return testutil_run(s);
}
