/* Tests of the flit-level schedule replay (ccsim/replay.h) against timings
 * worked out by hand from its rules: a packet of m flits over H channels
 * started at cycle c is done at c + H + m - 1 when nothing blocks it; a
 * blocked header waits until the holder's tail has crossed the channel. */
#include <check.h>

#include <string.h>

#include "tests/testutil.h"

#include "cc/problem.h"
#include "cc/schedule.h"
#include "ccsim/replay.h"

typedef struct {
    cc_topo *t;
    cc_problem *pb;
    cc_schedule *s;
} fixture;

static fixture fx_new(const char *spec, cc_kind kind, int ports)
{
    char err[CC_ERRLEN];
    fixture f = { 0 };
    ck_assert_int_eq(cc_topo_new(spec, &f.t, err, sizeof err), CC_OK);
    cc_problem_def def = { .kind = kind, .sw = CC_WH, .ports = ports };
    ck_assert_int_eq(cc_problem_new(f.t, &def, &f.pb, err, sizeof err), CC_OK);
    f.s = cc_schedule_new();
    ck_assert_ptr_nonnull(f.s);
    return f;
}

static void fx_free(fixture *f)
{
    cc_schedule_free(f->s);
    cc_problem_free(f->pb);
    cc_topo_free(f->t);
}

/* Add a transfer of origin path[0] (nodes of a ring are numbered as named). */
static void add(fixture *f, int step, int nn, const int *nodes)
{
    ck_assert_int_eq(cc_schedule_add(f->s, step, nodes[0], nn, nodes), CC_OK);
}

static int64_t cycles(fixture *f, int m, ccsim_mode mode, int64_t *stalls)
{
    char err[CC_ERRLEN];
    ccsim_result r;
    int rc = ccsim_replay(f->pb, f->s, m, mode, &r, err, sizeof err);
    ck_assert_msg(rc == CC_OK, "%s", err);
    if (stalls) *stalls = r.stalls;
    return r.cycles;
}

START_TEST(isolated_transfer)
{
    /* H + m - 1: 3 hops and 4 flits, 6 cycles; one hop one flit, 1 cycle. */
    fixture f = fx_new("ring:8", CC_AAS, 0);
    add(&f, 0, 4, (int[]){ 0, 1, 2, 3 });
    for (int mode = 0; mode < 2; mode++) ck_assert_int_eq(cycles(&f, 4, mode, NULL), 6);
    ck_assert_int_eq(cycles(&f, 1, CCSIM_STEPS, NULL), 3);
    ccsim_result r;
    char err[CC_ERRLEN];
    ck_assert_int_eq(ccsim_replay(f.pb, f.s, 4, CCSIM_STEPS, &r, err, sizeof err), CC_OK);
    ck_assert_int_eq(r.max_hops, 3);
    ck_assert_int_eq(r.steps, 1);
    ck_assert_int_eq(r.stalls, 0);
    fx_free(&f);

    fixture g = fx_new("ring:8", CC_AAS, 0);
    add(&g, 0, 2, (int[]){ 5, 6 });
    ck_assert_int_eq(cycles(&g, 1, CCSIM_STEPS, NULL), 1);
    fx_free(&g);
}
END_TEST

START_TEST(header_blocks_on_busy_link)
{
    /* A = 0-1-2 and B = 1-2 in one step, m = 4.  Cycle 0: A's header crosses
     * 0->1, B's crosses 1->2.  B's tail crosses 1->2 in cycle 3 (B done at 4);
     * A waits in cycles 1..3 (3 stalls), crosses 1->2 in cycles 4..7: done 8 = 2m. */
    fixture f = fx_new("ring:4", CC_AAS, 0);
    add(&f, 0, 3, (int[]){ 0, 1, 2 });
    add(&f, 0, 2, (int[]){ 1, 2 });
    int64_t stalls;
    ck_assert_int_eq(cycles(&f, 4, CCSIM_STEPS, &stalls), 8);
    ck_assert_int_eq(stalls, 3);
    fx_free(&f);

    /* Both want 0->1 in cycle 0: the first in the schedule wins (A = 0-1-2,
     * done at 2 + 4 - 1 = 5); its tail crosses 0->1 in cycle 3, so B = 0-1
     * crosses it in cycles 4..7 and is done at 8, after 4 stalls. */
    fixture g = fx_new("ring:4", CC_AAS, 0);
    add(&g, 0, 3, (int[]){ 0, 1, 2 });
    add(&g, 0, 2, (int[]){ 0, 1 });
    ck_assert_int_eq(cycles(&g, 4, CCSIM_STEPS, &stalls), 8);
    ck_assert_int_eq(stalls, 4);
    fx_free(&g);
}
END_TEST

START_TEST(steps_one_after_another)
{
    /* Step 1: 0-1-2 (done 5); step 2: 0-1 starts at 5, done 9.  Overlapped,
     * 0-1 needs channel 0->1, free from cycle 4 (A's tail crossed it in
     * cycle 3): done 8. */
    fixture f = fx_new("ring:4", CC_AAS, 0);
    add(&f, 0, 3, (int[]){ 0, 1, 2 });
    add(&f, 1, 2, (int[]){ 0, 1 });
    ck_assert_int_eq(cycles(&f, 4, CCSIM_STEPS, NULL), 9);
    ck_assert_int_eq(cycles(&f, 4, CCSIM_OVERLAP, NULL), 8);
    fx_free(&f);

    /* An empty step costs nothing: steps 1 and 3 used, 4 + 4 cycles. */
    fixture g = fx_new("ring:4", CC_AAS, 0);
    add(&g, 0, 2, (int[]){ 0, 1 });
    add(&g, 2, 2, (int[]){ 2, 3 });
    ck_assert_int_eq(cycles(&g, 4, CCSIM_STEPS, NULL), 8);
    ck_assert_int_eq(cycles(&g, 4, CCSIM_OVERLAP, NULL), 4);
    fx_free(&g);
}
END_TEST

START_TEST(overlap_waits_for_the_message)
{
    /* OAB from 0 on ring:4: step 1 0-1; step 2 1-2 and 0-3.  1-2 cannot start
     * before 0-1 is done (cycle 4): done 8 in both modes.  (Without the data
     * rule it would be 4.) */
    fixture f = fx_new("ring:4", CC_OAB, 0);
    add(&f, 0, 2, (int[]){ 0, 1 });
    ck_assert_int_eq(cc_schedule_add(f.s, 1, 0, 2, (int[]){ 1, 2 }), CC_OK);
    add(&f, 1, 2, (int[]){ 0, 3 });
    ck_assert_int_eq(cycles(&f, 4, CCSIM_STEPS, NULL), 8);
    ck_assert_int_eq(cycles(&f, 4, CCSIM_OVERLAP, NULL), 8);
    fx_free(&f);

    /* A sender that never gets the message is refused. */
    fixture g = fx_new("ring:4", CC_OAB, 0);
    ck_assert_int_eq(cc_schedule_add(g.s, 0, 0, 2, (int[]){ 2, 3 }), CC_OK);
    char err[CC_ERRLEN];
    ccsim_result r;
    ck_assert_int_eq(ccsim_replay(g.pb, g.s, 4, CCSIM_OVERLAP, &r, err, sizeof err), CC_EINPUT);
    ck_assert_ptr_nonnull(strstr(err, "never has the message"));
    fx_free(&g);
}
END_TEST

START_TEST(overlap_keeps_each_channels_order)
{
    /* ring:4, m = 4.  Step 1: A = 0-1-2 (done 5; 1->2 free from 5) and
     * B = 3-0 (3->0 free from 4); step 2: W = 1-2-3; step 3: Y = 2-3-0.
     * Steps: 5, then W 5..10, Y 10..15.  Overlapped, Y may not take 2->3
     * before W (an earlier step) has started: W starts at 5 (done 10, its tail
     * crosses 2->3 in cycle 9), Y at 10, done 15.  (A greedy start would let Y
     * claim 2->3 at cycle 4 and hold W back to 8: 13.) */
    fixture f = fx_new("ring:4", CC_AAS, 0);
    add(&f, 0, 3, (int[]){ 0, 1, 2 });
    add(&f, 0, 2, (int[]){ 3, 0 });
    add(&f, 1, 3, (int[]){ 1, 2, 3 });
    add(&f, 2, 3, (int[]){ 2, 3, 0 });
    ck_assert_int_eq(cycles(&f, 4, CCSIM_STEPS, NULL), 15);
    ck_assert_int_eq(cycles(&f, 4, CCSIM_OVERLAP, NULL), 15);
    fx_free(&f);
}
END_TEST

START_TEST(overlap_respects_ports)
{
    /* One-port OAS from 0 on ring:4, m = 4: 0-1, 0-3, 0-1-2 in steps 1..3.
     * Steps: 4 + 4 + 5 = 13.  Overlapped with one send port: 0-1 [0,4),
     * 0-3 from 4 (the tail left 0 in cycle 3) done 8, 0-1-2 from 8 done 13.
     * All-port would give 0-1 and 0-3 at 0, 0-1-2 at 4: done 9. */
    fixture f = fx_new("ring:4", CC_OAS, 1);
    add(&f, 0, 2, (int[]){ 0, 1 });
    add(&f, 1, 2, (int[]){ 0, 3 });
    add(&f, 2, 3, (int[]){ 0, 1, 2 });
    ck_assert_int_eq(cycles(&f, 4, CCSIM_STEPS, NULL), 13);
    ck_assert_int_eq(cycles(&f, 4, CCSIM_OVERLAP, NULL), 13);
    f.pb->ports = 0;
    ck_assert_int_eq(cycles(&f, 4, CCSIM_OVERLAP, NULL), 9);
    fx_free(&f);
}
END_TEST

START_TEST(bad_input_refused)
{
    char err[CC_ERRLEN];
    ccsim_result r;
    fixture f = fx_new("ring:4", CC_AAS, 0);
    add(&f, 0, 3, (int[]){ 0, 2, 3 });       /* 0 and 2 are not neighbours */
    ck_assert_int_eq(ccsim_replay(f.pb, f.s, 4, CCSIM_STEPS, &r, err, sizeof err), CC_EINPUT);
    ck_assert_ptr_nonnull(strstr(err, "no channel 0->2"));
    fx_free(&f);

    fixture g = fx_new("ring:4", CC_AAS, 0);
    add(&g, 0, 2, (int[]){ 0, 1 });
    ck_assert_int_eq(ccsim_replay(g.pb, g.s, 0, CCSIM_STEPS, &r, err, sizeof err), CC_EINPUT);
    ck_assert_int_eq(ccsim_replay(g.pb, g.s, CCSIM_MAX_FLITS + 1, CCSIM_STEPS, &r, err, sizeof err), CC_EINPUT);
    g.pb->sw = CC_SF;
    ck_assert_int_eq(ccsim_replay(g.pb, g.s, 4, CCSIM_STEPS, &r, err, sizeof err), CC_EINPUT);
    fx_free(&g);

    /* Two packets in one step that wait for each other for ever:
     * 0-1-2-3 and 2-3-0-1 on ring:4 with m = 3 hold 0->1 and 2->3 and want
     * each other's: refused in steps mode, fine overlapped (whole-path claim). */
    fixture h = fx_new("ring:4", CC_AAS, 0);
    add(&h, 0, 4, (int[]){ 0, 1, 2, 3 });
    add(&h, 0, 4, (int[]){ 2, 3, 0, 1 });
    ck_assert_int_eq(ccsim_replay(h.pb, h.s, 3, CCSIM_STEPS, &r, err, sizeof err), CC_EINPUT);
    ck_assert_ptr_nonnull(strstr(err, "block each other"));
    /* Overlapped: 0-1-2-3 claims 0->1, 1->2, 2->3 at cycle 0 (done 3 + 3 - 1 = 5);
     * 2->3 is freed when its tail crosses it (cycle 4), so 2-3-0-1 starts at 5, done 10. */
    ck_assert_int_eq(cycles(&h, 3, CCSIM_OVERLAP, NULL), 10);
    fx_free(&h);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("ccsim");
    TCase *tc = tcase_create("replay");
    tcase_add_test(tc, isolated_transfer);
    tcase_add_test(tc, header_blocks_on_busy_link);
    tcase_add_test(tc, steps_one_after_another);
    tcase_add_test(tc, overlap_waits_for_the_message);
    tcase_add_test(tc, overlap_keeps_each_channels_order);
    tcase_add_test(tc, overlap_respects_ports);
    tcase_add_test(tc, bad_input_refused);
    suite_add_tcase(s, tc);
    return testutil_run(s);
}
