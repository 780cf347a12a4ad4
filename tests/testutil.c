/* Shared by the Check test executables (see testutil.h). */
#include "tests/testutil.h"

#include "util/rng.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void testutil_same_metrics(const sim_metrics *a, const sim_metrics *b, const char *what, const char *an,
                           const char *bn)
{
#define SAME(field) ck_assert_msg(a->field == b->field, "%s: " #field " %s %lld, %s %lld", what, an, \
                                  (long long)a->field, bn, (long long)b->field)
    SAME(status); SAME(duration); SAME(te); SAME(ir); SAME(or_); SAME(ib); SAME(ob); SAME(lb);
    SAME(flits_injected); SAME(flits_ejected); SAME(packets); SAME(idle_nodes); SAME(cycles);
    SAME(max_link_flits); SAME(stop_cycle); SAME(late); SAME(tail_profile); SAME(late_sum);
#undef SAME
}

sim_params testutil_params(int n, int flits, int slices)
{
    sim_params p;
    sim_params_default(&p);
    p.n = n;
    p.flits = flits;
    p.slices = slices;
    return p;
}

void testutil_temp_file(char *path, const char *stem)
{
    const char *dir = getenv("TMPDIR");
    if (!dir || !*dir) dir = "/tmp";
    int n = snprintf(path, TESTUTIL_PATH_MAX, "%s/nocsim-%s-XXXXXX", dir, stem);
    ck_assert(n > 0 && n < TESTUTIL_PATH_MAX);
    int fd = mkstemp(path);
    ck_assert_msg(fd >= 0, "cannot create a file in %s", dir);
    close(fd);
}

void testutil_temp_db(char *path, const char *stem)
{
    testutil_temp_file(path, stem);
    unlink(path);
}

void testutil_remove_db(const char *path)
{
    char p[TESTUTIL_PATH_MAX + 8];
    unlink(path);
    snprintf(p, sizeof p, "%s-wal", path); unlink(p);
    snprintf(p, sizeof p, "%s-shm", path); unlink(p);
}

int testutil_run(Suite *s)
{
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

static int draw(uint64_t *s, int n) { return (int)(rng_splitmix64(s) % (uint64_t)n); }

void testutil_random_genes(sim_config *c, uint64_t *r, int flits, int imax, int vspan)
{
    for (int k = 0; k < c->nodes * NPORTS; k++) c->scheme[k] = (uint8_t)draw(r, VCSEL_NSCHEMES);
    size_t lists = (size_t)c->nodes * NPORTS * (size_t)c->vcs;
    for (size_t k = 0; k < lists; k++) {
        uint8_t *q = c->qorder + k * NPORTS;
        for (int j = 0; j < NPORTS; j++) q[j] = (uint8_t)j;
        for (int j = NPORTS - 1; j > 0; j--) {
            int x = draw(r, j + 1);
            uint8_t t = q[j]; q[j] = q[x]; q[x] = t;
        }
    }
    for (int i = 0; i < c->nodes; i++) c->inject[i] = (uint16_t)draw(r, imax + 1);
    c->interval = (uint32_t)(flits + draw(r, vspan + 1));
}
