/* Tests of cc's input and output pieces: the schedule file reader's
 * strictness (types, duplicate keys, NUL, syntax errors with their line, the
 * depth limit), problem definitions (kinds,
 * names, sender and receiver lists), the text and JSON schedule writers, and
 * the bounds of K-port and store-and-forward cases worked out by hand. */
#include <check.h>

#include "tests/testutil.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cc/instance.h"
#include "cc/schedfile.h"
#include "cc/schedule.h"

/* The schedule file text in a temporary file: its path (static buffer). */
static const char *temp_file(const char *text)
{
    static char path[64];
    snprintf(path, sizeof path, "/tmp/nocsim_cc_io_XXXXXX");
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    FILE *f = fdopen(fd, "w");
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(fputs(text, f) >= 0, 1);
    ck_assert_int_eq(fclose(f), 0);
    return path;
}

/* Reads text as a schedule file over ring:4: CC_OK with *out (caller frees),
 * or the error code with err. */
static int read_text(const char *text, cc_schedule **out, char *err, size_t errlen)
{
    const char *path = temp_file(text);
    cc_schedfile *f;
    *out = NULL;
    int rc = cc_schedfile_read(path, &f, err, errlen);
    if (rc == CC_OK) {
        cc_topo *t;
        ck_assert(cc_topo_new("ring:4", &t, err, errlen) == CC_OK);
        rc = cc_schedfile_schedule(f, t, out, err, errlen);
        cc_topo_free(t);
        cc_schedfile_free(f);
    }
    remove(path);
    return rc;
}

/* Issue 26: the reader takes exactly the JSON types it documents. */
START_TEST(schedfile_is_strict)
{
    char err[512];
    cc_schedule *s;
    /* Accepted: names, integer names, escapes ("\u0032" is "2"). */
    ck_assert_msg(read_text("{\"schedule\": [{\"step\": 0, \"transfers\": [{\"path\": [0, \"1\", \"\\u0032\"]}]}]}",
                            &s, err, sizeof err) == CC_OK, "%s", err);
    ck_assert_int_eq(s->nt, 1);
    ck_assert_int_eq(s->tr[0].nnodes, 3);
    const int *nd = cc_schedule_nodes(s, 0);
    ck_assert_int_eq(nd[0], 0);
    ck_assert_int_eq(nd[1], 1);
    ck_assert_int_eq(nd[2], 2);
    cc_schedule_free(s);
    static const struct { const char *text, *want; } bad[] = {
        /* not JSON: hex numbers, a trailing comma, text after the value */
        { "{\"schedule\": [{\"step\": 0x2, \"transfers\": []}]}", "line 1" },
        { "{\"schedule\": [\n{\"step\": 0, \"transfers\": [],}]}", "line 2" },
        { "{\"schedule\": []} x", "line 1" },
        /* the input jansson quotes in its message is escaped: still one line */
        { "{\"}\\\n\n", "line 2, column 0: invalid escape" },
        /* a NUL inside a name is no name "11" */
        { "{\"schedule\": [{\"step\": 0, \"transfers\": [{\"path\": [\"1\\u0000junk\", \"2\"]}]}]}", "NUL" },
        /* float node ids, float and string steps */
        { "{\"schedule\": [{\"step\": 0, \"transfers\": [{\"path\": [0, 1.0]}]}]}", "schedule[0].transfers[0].path[1]" },
        { "{\"schedule\": [{\"step\": 1.0, \"transfers\": []}]}", "schedule[0]" },
        { "{\"schedule\": [{\"step\": \"1\", \"transfers\": []}]}", "\"step\": an integer" },
        /* duplicate keys, at the top and inside a step */
        { "{\"schedule\": [], \"schedule\": []}", "duplicate" },
        { "{\"schedule\": [{\"step\": 0, \"step\": 1, \"transfers\": []}]}", "duplicate" },
        /* problem fields of the wrong type */
        { "{\"ports\": 2.0, \"schedule\": []}", "ports" },
        { "{\"nonminimal\": \"0\", \"schedule\": []}", "nonminimal" },
        { "{\"steps\": 2.5, \"schedule\": []}", "steps" },
        { "{\"topology\": 4, \"schedule\": []}", "topology" },
        { "{\"schedule\": [1]}", "schedule[0]" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err[0] = '\0';
        ck_assert_msg(read_text(bad[i].text, &s, err, sizeof err) == CC_EINPUT, "accepted: %s", bad[i].text);
        ck_assert_msg(strstr(err, bad[i].want) != NULL, "%s: '%s' lacks '%s'", bad[i].text, err, bad[i].want);
        ck_assert_msg(!strchr(err, '\n'), "%s: message of more than one line: '%s'", bad[i].text, err);
    }
    /* deep nesting is refused, not a stack overflow */
    size_t n = 100000;
    char *deep = malloc(n + 1);
    ck_assert_ptr_nonnull(deep);
    memset(deep, '[', n);
    deep[n] = '\0';
    ck_assert_int_eq(read_text(deep, &s, err, sizeof err), CC_EINPUT);
    free(deep);
}
END_TEST

static int problem_rc(const char *topo, cc_kind kind, const char *root, const char *senders, const char *receivers, char *err)
{
    cc_topo *t;
    ck_assert(cc_topo_new(topo, &t, err, CC_ERRLEN) == CC_OK);
    cc_problem_def def = { .kind = kind, .root = root, .senders = senders, .receivers = receivers };
    cc_problem *pb;
    int rc = cc_problem_new(t, &def, &pb, err, CC_ERRLEN);
    if (rc == CC_OK) {
        ck_assert_ptr_nonnull(pb);
        cc_problem_free(pb);
    } else ck_assert_ptr_null(pb);
    cc_topo_free(t);
    return rc;
}

START_TEST(problem_definitions)
{
    char err[CC_ERRLEN];
    cc_topo *t;
    ck_assert(cc_topo_new("ring:5", &t, err, sizeof err) == CC_OK);
    cc_problem_def def = { .kind = CC_MNS, .senders = "0,2", .receivers = "2,3,4" };
    cc_problem *pb;
    ck_assert(cc_problem_new(t, &def, &pb, err, sizeof err) == CC_OK);
    /* 0 -> 2,3,4 and 2 -> 3,4 (not itself) */
    ck_assert_int_eq(pb->nmsg, 5);
    ck_assert(!pb->broadcast);
    ck_assert(pb->sender[0] && pb->sender[2] && !pb->sender[1]);
    ck_assert_int_eq(pb->msrc[0], 0);                /* grouped by source */
    ck_assert_int_eq(pb->msrc[4], 2);
    ck_assert_int_eq(cc_problem_kout(pb, 0), 2);     /* all-port: the degree */
    cc_problem_free(pb);
    def = (cc_problem_def){ .kind = CC_OAB, .ports = 1 };
    ck_assert(cc_problem_new(t, &def, &pb, err, sizeof err) == CC_OK);
    ck_assert_int_eq(pb->root, 0);                   /* the first node by default */
    ck_assert_int_eq(pb->nmsg, 4);
    ck_assert_int_eq(cc_problem_kout(pb, 0), 1);
    ck_assert_int_eq(cc_problem_kin(pb, 3), 1);
    cc_problem_free(pb);
    cc_topo_free(t);
    ck_assert_int_eq(problem_rc("ring:5", CC_OAS, "9", NULL, NULL, err), CC_EINPUT);
    ck_assert_ptr_nonnull(strstr(err, "root: no node named '9'"));
    ck_assert_int_eq(problem_rc("ring:5", CC_AAS, "1", NULL, NULL, err), CC_EINPUT);   /* root without oab/oas */
    ck_assert_int_eq(problem_rc("ring:5", CC_OAS, NULL, "1", NULL, err), CC_EINPUT);   /* senders without mnb/mns */
    ck_assert_int_eq(problem_rc("ring:5", CC_MNB, NULL, "1,", NULL, err), CC_EINPUT);
    ck_assert_ptr_nonnull(strstr(err, "ends with a comma"));
    ck_assert_int_eq(problem_rc("ring:5", CC_MNB, NULL, "1,,2", NULL, err), CC_EINPUT);
    ck_assert_int_eq(problem_rc("ring:5", CC_MNB, NULL, "1", "1", err), CC_EINPUT);
    ck_assert_ptr_nonnull(strstr(err, "no messages"));
    ck_assert_int_eq(problem_rc("ring:5", CC_MNB, NULL, "1", "7", err), CC_EINPUT);
    ck_assert_int_eq(problem_rc("ring:5", CC_MNB, NULL, "1", "1,2", err), CC_OK);
    ck_assert_int_eq(cc_kind_find("mns"), CC_MNS);
    ck_assert_int_eq(cc_kind_find("gather"), -1);
    ck_assert_int_eq(cc_switching_find("sf"), CC_SF);
    ck_assert_int_eq(cc_switching_find("vct"), -1);
}
END_TEST

static cc_instance *inst(const char *topo, cc_kind kind, const char *root, int ports, int sw)
{
    cc_desc d = cc_desc_empty();
    d.topology = topo;
    d.kind = kind;
    d.root = root;
    d.ports = ports;
    d.sw = sw;
    cc_instance *in;
    char err[CC_ERRLEN];
    ck_assert_msg(cc_instance_new(&d, 128, &in, err, sizeof err) == CC_OK, "%s", err);
    return in;
}

static int bound_named(const cc_instance *in, const char *name)
{
    for (int i = 0; i < in->bounds.n; i++)
        if (strcmp(in->bounds.b[i].name, name) == 0) return in->bounds.b[i].value;
    return -1;
}

START_TEST(bounds_by_hand)
{
    /* one-port OAB on 16 nodes: informed nodes at most double per step: 4 */
    cc_instance *in = inst("hypercube:4", CC_OAB, "0", 1, CC_UNSET);
    ck_assert_int_eq(bound_named(in, "inform"), 4);
    cc_instance_free(in);
    /* 2-port OAS of the octagon: 7 messages, 2 per step: 4 */
    in = inst("octagon", CC_OAS, "0", 2, CC_UNSET);
    ck_assert_int_eq(bound_named(in, "inject"), 4);
    ck_assert_int_eq(in->bounds.best, 4);
    cc_instance_free(in);
    /* SF OAS of the 8-ring from 0: node 4 is 4 hops away: eccentricity 4;
     * the 7 messages leave over 2 channels: 4 as well */
    in = inst("ring:8", CC_OAS, "0", 0, CC_SF);
    ck_assert_int_eq(bound_named(in, "eccentricity"), 4);
    ck_assert_int_eq(bound_named(in, "inject"), 4);
    cc_instance_free(in);
    /* AAS of the 6-ring: cut {0,1,2}: 9 messages over 2 channels: 5;
     * distances 6 x (1+1+2+2+3) = 54 over 12 channels: 5 */
    in = inst("ring:6", CC_AAS, NULL, 0, CC_UNSET);
    ck_assert_int_eq(bound_named(in, "cut"), 5);
    ck_assert_int_eq(bound_named(in, "distance"), 5);
    cc_instance_free(in);
    /* the cut bound above the exact-search size uses prefix and ball cuts:
     * the 6x6 mesh's bisection, 18 x 18 messages over 6 channels = 54 */
    in = inst("mesh:6x6", CC_AAS, NULL, 0, CC_UNSET);
    ck_assert_int_eq(bound_named(in, "cut"), 54);
    cc_instance_free(in);
}
END_TEST

/* Store-and-forward AAB and AAS bounds, by hand. */
START_TEST(sf_all_to_all_bounds_by_hand)
{
    /* ring:4 AAS, all-port: distances 4 x (1+2+1) = 16 over 8 channels: 2;
     * node 0's 3 messages over 2 channels: 2; the farthest node 2 hops: 2.
     * No hop-sends bound without a port limit. */
    cc_instance *in = inst("ring:4", CC_AAS, NULL, 0, CC_SF);
    ck_assert_int_eq(bound_named(in, "distance"), 2);
    ck_assert_int_eq(bound_named(in, "eccentricity"), 2);
    ck_assert_int_eq(bound_named(in, "hop-sends"), -1);
    ck_assert_int_eq(in->bounds.best, 2);
    cc_instance_free(in);
    /* one-port: the 16 hops are 16 sends, 4 nodes x 1 per step: 4 (inject: 3) */
    in = inst("ring:4", CC_AAS, NULL, 1, CC_SF);
    ck_assert_int_eq(bound_named(in, "inject"), 3);
    ck_assert_int_eq(bound_named(in, "hop-sends"), 4);
    ck_assert_int_eq(in->bounds.best, 4);
    cc_instance_free(in);
    /* 3-cube AAS: distances 8 x (3x1 + 3x2 + 1x3) = 96 over 24 channels: 4;
     * bisection 16 messages over 4 channels: 4; diameter 3.  One-port: 96
     * sends, 8 per step: 12, far above inject 7. */
    in = inst("hypercube:3", CC_AAS, NULL, 0, CC_SF);
    ck_assert_int_eq(bound_named(in, "distance"), 4);
    ck_assert_int_eq(bound_named(in, "cut"), 4);
    ck_assert_int_eq(bound_named(in, "eccentricity"), 3);
    ck_assert_int_eq(in->bounds.best, 4);
    cc_instance_free(in);
    in = inst("hypercube:3", CC_AAS, NULL, 1, CC_SF);
    ck_assert_int_eq(bound_named(in, "hop-sends"), 12);
    ck_assert_int_eq(in->bounds.best, 12);
    cc_instance_free(in);
    /* The 2x4 ladder (paper 001 Table 1: SF AAB 4, no bound given): a corner
     * receives 7 messages over 2 channels: 4; diameter 4.  AAS: the middle
     * cut, 4 x 4 messages each way over 2 channels: 8. */
    in = inst("mesh:2x4", CC_AAB, NULL, 0, CC_SF);
    ck_assert_int_eq(bound_named(in, "receive"), 4);
    ck_assert_int_eq(bound_named(in, "eccentricity"), 4);
    ck_assert_int_eq(in->bounds.best, 4);
    cc_instance_free(in);
    in = inst("mesh:2x4", CC_AAS, NULL, 0, CC_SF);
    ck_assert_int_eq(bound_named(in, "cut"), 8);
    ck_assert_int_eq(in->bounds.best, 8);
    cc_instance_free(in);
    /* one-port SF AAB of the 3-cube: 56 deliveries, one hop and one send
     * each, 8 per step: 7 = receive 7 */
    in = inst("hypercube:3", CC_AAB, NULL, 1, CC_SF);
    ck_assert_int_eq(bound_named(in, "hop-sends"), 7);
    ck_assert_int_eq(bound_named(in, "receive"), 7);
    cc_instance_free(in);
}
END_TEST

START_TEST(schedule_writers)
{
    cc_instance *in = inst("ring:4", CC_AAB, NULL, 0, CC_UNSET);
    cc_schedule *s = cc_schedule_new();
    int p01[] = { 0, 1 }, p32[] = { 3, 2 }, p123[] = { 1, 2, 3 };
    ck_assert(cc_schedule_add(s, 1, 3, 2, p32) == CC_OK);
    ck_assert(cc_schedule_add(s, 0, 0, 2, p01) == CC_OK);
    ck_assert(cc_schedule_add(s, 1, 0, 3, p123) == CC_OK);
    ck_assert_int_eq(cc_schedule_steps(s, CC_WH), 2);
    ck_assert_int_eq(cc_schedule_steps(s, CC_SF), 3);   /* the 2-hop transfer ends a step later */
    cc_schedule_sort(s);
    ck_assert_int_eq(s->tr[0].step, 0);
    ck_assert_int_eq(s->tr[1].origin, 0);               /* step 1: origin 0 before 3 */
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    cc_schedule_write_text(f, s, in->pb);
    fclose(f);
    ck_assert_str_eq(text, "step 0: 0:0-1\nstep 1: 0:1-2-3 3:3-2\n");
    free(text);
    f = open_memstream(&text, &len);
    ck_assert_int_eq(cc_schedule_write_json(f, s, in->pb), 0);
    fclose(f);
    json_error_t je;
    json_t *v = json_loads(text, JSON_REJECT_DUPLICATES, &je);
    ck_assert_msg(v != NULL, "%s", je.text);
    ck_assert_str_eq(json_string_value(json_object_get(v, "topology")), "ring:4");
    ck_assert_str_eq(json_string_value(json_object_get(v, "cc")), "aab");
    ck_assert_str_eq(json_string_value(json_object_get(v, "ports")), "all");
    ck_assert(json_is_integer(json_object_get(v, "nonminimal")) && json_integer_value(json_object_get(v, "nonminimal")) == 0);
    ck_assert(json_integer_value(json_object_get(v, "steps")) == 2);
    ck_assert_int_eq((int)json_array_size(json_object_get(json_object_get(v, "faults"), "links")), 0);
    const json_t *st = json_object_get(v, "schedule");
    ck_assert_int_eq((int)json_array_size(st), 2);
    const json_t *tr = json_array_get(json_object_get(json_array_get(st, 1), "transfers"), 1);
    ck_assert_str_eq(json_string_value(json_object_get(tr, "msg")), "3");
    ck_assert_int_eq((int)json_array_size(json_object_get(tr, "path")), 2);
    json_decref(v);
    free(text);
    cc_schedule_free(s);
    cc_instance_free(in);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("cc_io");
    TCase *tc = tcase_create("io");
    tcase_add_test(tc, schedfile_is_strict);
    tcase_add_test(tc, problem_definitions);
    tcase_add_test(tc, bounds_by_hand);
    tcase_add_test(tc, sf_all_to_all_bounds_by_hand);
    tcase_add_test(tc, schedule_writers);
    suite_add_tcase(s, tc);
    return testutil_run(s);
}
