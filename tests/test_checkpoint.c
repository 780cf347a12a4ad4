/* GA checkpoints as untrusted input: every field of a damaged blob is
 * refused with "database is damaged" and the field's name, never used (the
 * offsets below follow the layout written by ga_checkpoint_save); chromosome
 * blobs with out-of-range genes; scores from huge metrics; and the first
 * checkpoint, written with the run before ga_start, resumes into the same
 * run as an uninterrupted one. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "ga/checkpoint.h"
#include "ga/chrom.h"
#include "ga/ga.h"
#include "store/store.h"
#include "tests/testutil.h"
#include "traffic/traffic.h"

#define N 4
#define NODES (N * N)
#define POP 4
/* Offsets in the decompressed checkpoint. */
#define OFF_ALGO 4
#define OFF_POP 12
#define OFF_SORT_KEY (4 + 14 * 8)
#define OFF_TARGET_WINDOW (4 + 21 * 8)
#define OFF_RECORD (4 + 22 * 8)
#define OFF_CHILDREN (4 + 23 * 8)
#define OFF_START (4 + 24 * 8)
#define OFF_MUTATION (4 + 25 * 8)
#define OFF_SHIFT (OFF_MUTATION + 16)
#define OFF_TARGET (OFF_MUTATION + 24)
#define OFF_SIZE (OFF_MUTATION + 32 + 8)
#define OFF_HEIGHT (OFF_SIZE + 17 * 8)     /* NCK5 on: the last network field */
#define OFF_DEST (OFF_SIZE + 18 * 8 + 256) /* 18 network fields, the traffic name */
#define OFF_RNG (OFF_DEST + NODES * 8)
#define OFF_STATE (OFF_RNG + 32)
#define OFF_BEST_METRICS (OFF_STATE + 20 * 8 + 8)
#define OFF_BEST_CFG (OFF_BEST_METRICS + 18 * 8)
#define CFG_LEN (12 + 7 * NODES + 5 * NODES * 3 * 5)
#define OFF_POP0 (OFF_BEST_CFG + CFG_LEN)
/* NCK7 on: whether each slot's tails are known, just before the signature. */
#define TAILS_KNOWN_LEN (POP * 8)
#define OFF_TAILS_KNOWN(n) ((n) - 4 - TAILS_KNOWN_LEN)

static traffic *tr;

static void params(ga_params *gp, sim_params *sp)
{
    ga_params_default(gp);
    gp->pop = POP;
    gp->generations = 6;
    gp->stack_vmax = 30;
    gp->threads = 1;
    gp->seed = 7;
    gp->target = 0.3;   /* tails kept: each slot says whether its are known */
    sim_params_default(sp);
    sp->n = N;
    sp->slices = 2;
}

/* A blob from a GA a few generations in, decompressed into *raw. */
static uint8_t *raw_checkpoint(size_t *n)
{
    ga_params gp;
    sim_params sp;
    params(&gp, &sp);
    char err[256];
    ga *g = ga_new(&gp, &sp, tr->dest, "brev", NULL, "test", "{}", NULL, err, sizeof err);
    ck_assert_msg(g != NULL, "%s", err);
    ck_assert_msg(ga_start(g, err, sizeof err) == 0, "%s", err);
    for (int k = 0; k < 3; k++) ck_assert_int_ge(ga_step(g, err, sizeof err), 0);
    uint8_t *blob;
    size_t len;
    ck_assert_int_eq(ga_checkpoint_save(g, &blob, &len, err, sizeof err), 0);
    ga_free(g);
    uint64_t rawn = 0;
    for (int k = 0; k < 8; k++) rawn |= (uint64_t)blob[k] << (8 * k);
    uint8_t *raw = malloc(rawn);
    uLongf dl = (uLongf)rawn;
    ck_assert_int_eq(uncompress(raw, &dl, blob + 8, (uLong)(len - 8)), Z_OK);
    ck_assert_uint_eq(dl, rawn);
    free(blob);
    *n = (size_t)rawn;
    return raw;
}

/* raw (n decoded bytes, its signature included) as a stored blob, as it is. */
static uint8_t *pack_unsigned(const uint8_t *raw, size_t n, size_t *len)
{
    uLongf zl = compressBound((uLong)n);
    uint8_t *b = malloc(8 + zl);
    for (int k = 0; k < 8; k++) b[k] = (uint8_t)((uint64_t)n >> (8 * k));
    ck_assert_int_eq(compress2(b + 8, &zl, raw, (uLong)n, 1), Z_OK);
    *len = 8 + zl;
    return b;
}

/* raw as a stored blob, its last 4 bytes re-signed (the CRC-32 of the bytes
 * before them), so an edit reaches the field checks behind the signature. */
static uint8_t *pack(const uint8_t *raw, size_t n, size_t *len)
{
    uint8_t *m = malloc(n);
    memcpy(m, raw, n);
    uint32_t sig = (uint32_t)crc32(crc32(0L, Z_NULL, 0), m, (uInt)(n - 4));
    for (int k = 0; k < 4; k++) m[n - 4 + (size_t)k] = (uint8_t)(sig >> (8 * k));
    uint8_t *b = pack_unsigned(m, n, len);
    free(m);
    return b;
}

static void put64(uint8_t *p, uint64_t v)
{
    for (int k = 0; k < 8; k++) p[k] = (uint8_t)(v >> (8 * k));
}

/* Load raw (n bytes) and expect a refusal naming `what`. */
static void expect_damaged(const uint8_t *raw, size_t n, const char *what)
{
    size_t len;
    uint8_t *b = pack(raw, n, &len);
    char err[384] = "";
    ga *g = ga_checkpoint_load(b, len, 1, NULL, err, sizeof err);
    free(b);
    if (g) ga_free(g);
    ck_assert_msg(g == NULL, "a checkpoint with bad %s was loaded", what);
    ck_assert_msg(strstr(err, "database is damaged") && strstr(err, what), "'%s' lacks '%s'", err, what);
}

/* raw (n bytes) signed, packed and loaded: the GA of raw_checkpoint, at its
 * generation 3. */
static ga *load_raw(const uint8_t *raw, size_t n)
{
    size_t len;
    uint8_t *b = pack(raw, n, &len);
    char err[384];
    ga *g = ga_checkpoint_load(b, len, 1, NULL, err, sizeof err);
    free(b);
    ck_assert_msg(g != NULL, "%s", err);
    ga_progress pr;
    ga_get_progress(g, &pr);
    ck_assert_int_eq(pr.generation, 3);
    return g;
}

START_TEST(intact_checkpoint_loads)
{
    size_t n;
    uint8_t *raw = raw_checkpoint(&n);
    ga_free(load_raw(raw, n));
    free(raw);
}
END_TEST

/* NCK4 checkpoints (no height, no start rule, no tails known), NCK5 ones
 * (no start rule, no tails known) and NCK6 ones (no tails known) are still
 * read, as a square's started from simple stacking with every slot's tails
 * known: the blob without those fields and with the old magic resumes into
 * the same state, and saved again it is the NCK7 blob it came from (whose
 * slots all have their tails known: no perturbation). */
static uint8_t *without(const uint8_t *raw, size_t n, size_t cut1, size_t cut2, size_t *m)
{
    uint8_t *old = malloc(n);
    size_t k = 0, known = OFF_TAILS_KNOWN(n);
    for (size_t i = 0; i < n; i++)
        if ((i < cut1 || i >= cut1 + 8) && (i < cut2 || i >= cut2 + 8) && (i < known || i >= known + TAILS_KNOWN_LEN))
            old[k++] = raw[i];
    *m = k;
    return old;
}

START_TEST(earlier_formats_read)
{
    size_t n;
    uint8_t *raw = raw_checkpoint(&n);
    ck_assert_mem_eq(raw, "NCK7", 4);
    ck_assert_uint_eq(raw[OFF_HEIGHT], 0);
    ck_assert_uint_eq(raw[OFF_START], GA_START_STACKING);
    for (int k = 0; k < POP; k++) ck_assert_uint_eq(raw[OFF_TAILS_KNOWN(n) + 8 * (size_t)k], 1);
    for (char v = '4'; v <= '6'; v++) {
        size_t m;
        /* A cut given twice is one field cut. */
        size_t cut1 = v == '6' ? n : OFF_START, cut2 = v == '4' ? OFF_HEIGHT : cut1;
        uint8_t *old = without(raw, n, cut1, cut2, &m);
        ck_assert_uint_eq(m, n - TAILS_KNOWN_LEN - (v == '4' ? 16 : v == '5' ? 8 : 0));
        old[3] = (uint8_t)v;
        ga *g = load_raw(old, m);
        char err[384];
        ck_assert_int_eq(ga_get_sim_params(g)->n, N);
        ck_assert_int_eq(ga_get_sim_params(g)->h, 0);
        uint8_t *again;
        size_t alen;
        ck_assert_int_eq(ga_checkpoint_save(g, &again, &alen, err, sizeof err), 0);
        uint64_t an = 0;
        for (int k = 0; k < 8; k++) an |= (uint64_t)again[k] << (8 * k);
        ck_assert_uint_eq(an, n);
        uint8_t *araw = malloc(n);
        uLongf dl = (uLongf)n;
        ck_assert_int_eq(uncompress(araw, &dl, again + 8, (uLong)(alen - 8)), Z_OK);
        /* The elapsed time differs; everything before it is the same. */
        ck_assert_mem_eq(araw, raw, OFF_STATE + 20 * 8);
        ck_assert_mem_eq(araw + OFF_BEST_METRICS, raw + OFF_BEST_METRICS, n - OFF_BEST_METRICS - 4);
        free(araw);
        free(again);
        ga_free(g);
        free(old);
    }
    free(raw);
}
END_TEST

/* A GA of gp, sp and dest three generations in (*g), saved (*blob, *len)
 * and loaded (returned): the same run, which both finish with the same best
 * signature and duration. */
static ga *saved_and_loaded(const ga_params *gp, const sim_params *sp, const int32_t *dest, ga **g, uint8_t **blob,
                            size_t *len)
{
    char err[384];
    *g = ga_new(gp, sp, dest, "brev", NULL, "test", "{}", NULL, err, sizeof err);
    ck_assert_msg(*g && ga_start(*g, err, sizeof err) == 0, "%s", err);
    for (int k = 0; k < 3; k++) ck_assert_int_ge(ga_step(*g, err, sizeof err), 0);
    ck_assert_int_eq(ga_checkpoint_save(*g, blob, len, err, sizeof err), 0);
    ga *h = ga_checkpoint_load(*blob, *len, 1, NULL, err, sizeof err);
    ck_assert_msg(h != NULL, "%s", err);
    return h;
}

static void same_to_the_end(ga *g, ga *h)
{
    char err[384];
    sim_metrics ma, mb;
    uint32_t ca, cb;
    ga_best(g, &ma, &ca);
    ga_best(h, &mb, &cb);
    ck_assert_uint_eq(ca, cb);
    ck_assert_int_eq(ma.duration, mb.duration);
    while (ga_step(g, err, sizeof err) > 0) {}
    while (ga_step(h, err, sizeof err) > 0) {}
    ga_best(g, &ma, &ca);
    ga_best(h, &mb, &cb);
    ck_assert_uint_eq(ca, cb);
    ck_assert_int_eq(ma.duration, mb.duration);
}

/* A rectangle's checkpoint carries its height: a GA on a 4x2 torus saved
 * and loaded is the same run, with the same best signature. */
START_TEST(rectangle_checkpoint)
{
    ga_params gp;
    sim_params sp;
    params(&gp, &sp);
    sp.h = 2;
    char err[384];
    traffic *t = traffic_new_grid("brev", N, 2, 1, NULL, err, sizeof err);
    ck_assert_msg(t != NULL, "%s", err);
    ga *g;
    uint8_t *blob;
    size_t len;
    ga *h = saved_and_loaded(&gp, &sp, t->dest, &g, &blob, &len);
    ck_assert_int_eq(ga_get_sim_params(h)->n, N);
    ck_assert_int_eq(ga_get_sim_params(h)->h, 2);
    same_to_the_end(g, h);
    ga_free(h);
    ga_free(g);
    free(blob);
    traffic_free(t);
}
END_TEST

/* A routing function other than dor travels in the checkpoint (NCK8: the
 * function, the selection rule and the route seed after the height; dor's
 * stay NCK7, as earlier_formats_read checks): a GA under min-adaptive with
 * the random selection, saved and loaded, is the same run to its end.  A
 * function field of dor in an NCK8 checkpoint (it would be NCK7) is damage,
 * as are a function and a rule past the table's. */
START_TEST(routing_checkpoint)
{
    ga_params gp;
    sim_params sp;
    params(&gp, &sp);
    sp.topo = TOPO_MESH;
    sp.vc_rule = VCRULE_ANY;
    sp.routing = ROUTING_MIN_ADAPTIVE;
    sp.selection = SELECT_RANDOM;
    sp.route_seed = 0x1234567890abcdefull;
    ga *g;
    uint8_t *blob;
    size_t len;
    ga *h = saved_and_loaded(&gp, &sp, tr->dest, &g, &blob, &len);
    const sim_params *hp = ga_get_sim_params(h);
    ck_assert_int_eq(hp->routing, ROUTING_MIN_ADAPTIVE);
    ck_assert_int_eq(hp->selection, SELECT_RANDOM);
    ck_assert_uint_eq(hp->route_seed, 0x1234567890abcdefull);
    same_to_the_end(g, h);
    uint64_t rawn = 0;
    for (int k = 0; k < 8; k++) rawn |= (uint64_t)blob[k] << (8 * k);
    uint8_t *raw = malloc(rawn);
    uLongf dl = (uLongf)rawn;
    ck_assert_int_eq(uncompress(raw, &dl, blob + 8, (uLong)(len - 8)), Z_OK);
    ck_assert_mem_eq(raw, "NCK8", 4);
    ck_assert_uint_eq(raw[OFF_HEIGHT + 8], ROUTING_MIN_ADAPTIVE);
    put64(raw + OFF_HEIGHT + 8, ROUTING_DOR);
    expect_damaged(raw, (size_t)rawn, "routing");
    put64(raw + OFF_HEIGHT + 8, ROUTING_COUNT);
    expect_damaged(raw, (size_t)rawn, "routing");
    put64(raw + OFF_HEIGHT + 8, ROUTING_MIN_ADAPTIVE);
    put64(raw + OFF_HEIGHT + 16, SELECT_COUNT);
    expect_damaged(raw, (size_t)rawn, "selection");
    free(raw);
    free(blob);
    ga_free(h);
    ga_free(g);
}
END_TEST

START_TEST(every_field_range_checked)
{
    size_t n;
    uint8_t *raw = raw_checkpoint(&n), *m = malloc(n);
    /* Layout self-check: the fields we poke hold what the run had. */
    ck_assert_uint_eq(raw[OFF_POP], POP);
    ck_assert_uint_eq(raw[OFF_SIZE], N);
    ck_assert_uint_eq(raw[OFF_DEST + 8 * 1], (uint8_t)tr->dest[1]);
    ck_assert_uint_eq(raw[OFF_STATE], 3); /* generation */
    ck_assert_mem_eq(raw + OFF_BEST_CFG, "NCG1", 4);
    ck_assert_mem_eq(raw + OFF_POP0 + 16 + 18 * 8, "NCG1", 4);
    static const struct { size_t off; uint64_t v; const char *what; } cases[] = {
        { OFF_ALGO, 7, "algo" },
        { OFF_POP, 5000000, "pop" },
        { OFF_POP, (uint64_t)1 << 32 | POP, "pop" },       /* would truncate to 4 as an int */
        { OFF_SORT_KEY, 99, "sort_key" },
        { OFF_TARGET_WINDOW, 0, "target_window" },
        { OFF_TARGET_WINDOW, 256, "target_window" },
        { OFF_RECORD, 2, "record" },
        { OFF_CHILDREN, 0, "children" },
        { OFF_CHILDREN, GA_CHILDREN_MAX + 1, "children" },
        { OFF_START, GA_START_COUNT, "start" },
        { OFF_SIZE, 2000, "size" },
        { OFF_SIZE + 15 * 8, 2, "topology" },
        { OFF_SIZE + 16 * 8, 2, "vc_rule" },
        { OFF_HEIGHT, 2000, "height" },
        { OFF_HEIGHT, 3, "height" },                       /* odd on a torus */
        { OFF_DEST + 8 * 3, 99, "dest[3]" },               /* heap overflow in ga_effective_new */
        { OFF_DEST + 8 * 5, (uint64_t)-1, "dest[5]" },
        { OFF_STATE, 1000, "generation" },                 /* above --generations */
        { OFF_STATE + 6 * 8, 10, "base_scheme" },
        { OFF_STATE + 16 * 8, (uint64_t)-5, "best_score" },
        { OFF_STATE + 18 * 8, (uint64_t)-1, "synonyms_seen" },
        { OFF_BEST_METRICS, 9, "best status" },
        { OFF_BEST_METRICS + 8, (uint64_t)INT64_MAX, "best duration" },
        { OFF_BEST_METRICS + 13 * 8, (uint64_t)INT64_MAX, "best max_link_flits" },
        { OFF_POP0 + 16 + 8, (uint64_t)INT64_MAX, "population[0] duration" },
        { OFF_POP0, 12345, "population[0]: score does not match" },
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        memcpy(m, raw, n);
        put64(m + cases[k].off, cases[k].v);
        expect_damaged(m, n, cases[k].what);
    }
    memcpy(m, raw, n);
    double nan = NAN;
    memcpy(m + OFF_MUTATION, &nan, 8);
    expect_damaged(m, n, "mutation");
    memcpy(m, raw, n);
    memcpy(m + OFF_SHIFT, &nan, 8);
    expect_damaged(m, n, "shift");
    memcpy(m, raw, n);
    double two = 2;
    memcpy(m + OFF_TARGET, &two, 8);
    expect_damaged(m, n, "target");
    memcpy(m, raw, n);
    memset(m + OFF_RNG, 0, 32);
    expect_damaged(m, n, "random generator");
    memcpy(m, raw, n);
    m[OFF_BEST_CFG + 12 + 7 * NODES] = 32;   /* a queue-order byte: 1u << 32 in the old check */
    expect_damaged(m, n, "queue order");
    memcpy(m, raw, n);
    m[OFF_BEST_CFG + 12 + 2 * NODES] = 10;   /* scheme C10 */
    expect_damaged(m, n, "scheme");
    memcpy(m, raw, n);
    m[0] = 'X';
    expect_damaged(m, n, "magic");
    /* The previous format is not damage: it names the version to use. */
    memcpy(m, raw, n);
    put64(m + OFF_TAILS_KNOWN(n) + 8, 2);
    expect_damaged(m, n, "population[1] tails known");
    memcpy(m, raw, n);
    ck_assert_mem_eq(m, "NCK7", 4);
    m[3] = '3';
    size_t blen;
    uint8_t *b = pack(m, n, &blen);
    char why[384] = "";
    ck_assert_ptr_null(ga_checkpoint_load(b, blen, 1, NULL, why, sizeof why));
    ck_assert_msg(strstr(why, "earlier nocsim") && strstr(why, "NCK3") && !strstr(why, "damaged"), "%s", why);
    free(b);
    expect_damaged(raw, OFF_POP0 + 3, "too short");
    expect_damaged(raw, n - 4, "truncated");
    memcpy(m, raw, n);
    expect_damaged(m, n - 8 + 4, "truncated");
    uint8_t *longer = calloc(n + 5, 1);
    memcpy(longer, raw, n);
    expect_damaged(longer, n + 5, "after the end");
    free(longer);
    free(m);
    free(raw);
}
END_TEST

/* Edits that stay inside every range (issue 26: 15 of 108 were accepted,
 * 2 changed the resumed result) are refused by the signature. */
START_TEST(signature_checked)
{
    size_t n, len;
    uint8_t *raw = raw_checkpoint(&n), *m = malloc(n);
    /* The signature is the CRC-32 of the bytes before it, little-endian. */
    uint32_t sig = (uint32_t)crc32(crc32(0L, Z_NULL, 0), raw, (uInt)(n - 4));
    ck_assert_uint_eq(raw[n - 4] | raw[n - 3] << 8 | raw[n - 2] << 16 | (uint32_t)raw[n - 1] << 24, sig);
    static const size_t offs[] = { OFF_RNG, OFF_RNG + 9, OFF_STATE + 8, OFF_BEST_CFG + 12, 0 };
    for (size_t k = 0; k < sizeof offs / sizeof offs[0]; k++) {
        memcpy(m, raw, n);
        m[offs[k] ? offs[k] : n - 1] ^= 1;   /* 0: the signature itself */
        uint8_t *b = pack_unsigned(m, n, &len);
        char err[384] = "";
        ga *g = ga_checkpoint_load(b, len, 1, NULL, err, sizeof err);
        if (g) ga_free(g);
        ck_assert_msg(g == NULL, "an edit at %zu was loaded", offs[k]);
        ck_assert_msg(strstr(err, "database is damaged: checkpoint: its contents give CRC-32"), "%s", err);
        ga_params gp;
        sim_params sp;
        int32_t *dest = NULL;
        char name[256];
        ck_assert_int_ne(ga_checkpoint_peek(b, len, &gp, &sp, &dest, name, err, sizeof err), 0);
        ck_assert_ptr_null(dest);
        free(b);
    }
    /* Re-signed, the edit of the generator state is in range and loads. */
    memcpy(m, raw, n);
    m[OFF_RNG + 9] ^= 1;
    uint8_t *b = pack(m, n, &len);
    char err[384];
    ga *g = ga_checkpoint_load(b, len, 1, NULL, err, sizeof err);
    ck_assert_msg(g != NULL, "%s", err);
    ga_free(g);
    free(b);
    free(m);
    free(raw);
}
END_TEST

START_TEST(compressed_envelope_checked)
{
    size_t n, len;
    uint8_t *raw = raw_checkpoint(&n);
    uint8_t *b = pack(raw, n, &len);
    char err[384];
    /* A size claim far beyond zlib's ratio is refused before any allocation. */
    put64(b, (uint64_t)1 << 33);
    ck_assert_ptr_null(ga_checkpoint_load(b, len, 1, NULL, err, sizeof err));
    ck_assert_ptr_nonnull(strstr(err, "database is damaged"));
    put64(b, n + 1);
    ck_assert_ptr_null(ga_checkpoint_load(b, len, 1, NULL, err, sizeof err));
    ck_assert_ptr_nonnull(strstr(err, "corrupt compressed"));
    put64(b, n);
    b[len / 2] ^= 0x55;
    ck_assert_ptr_null(ga_checkpoint_load(b, len, 1, NULL, err, sizeof err));
    ck_assert_ptr_nonnull(strstr(err, "database is damaged"));
    ck_assert_ptr_null(ga_checkpoint_load(b, 5, 1, NULL, err, sizeof err));
    ck_assert_ptr_nonnull(strstr(err, "database is damaged"));
    ga_params gp;
    sim_params sp;
    int32_t *dest = NULL;
    char name[256];
    ck_assert_int_ne(ga_checkpoint_peek(b, len, &gp, &sp, &dest, name, err, sizeof err), 0);
    ck_assert_ptr_null(dest);
    free(b);
    free(raw);
}
END_TEST

START_TEST(chromosome_blob_genes_checked)
{
    sim_config *c = sim_config_new(NODES, 3, 2, 8);
    size_t n = chrom_encoded_size(N, 3);
    uint8_t *buf = malloc(n);
    chrom_encode(c, N, buf);
    char err[160];
    ck_assert_int_eq(chrom_decode(c, buf, n, err, sizeof err), 0);
    /* 32 and 37 pass a 32-bit mask test through 1u << (q & 31) on x86. */
    static const uint8_t bad[] = { 5, 32, 37, 255 };
    for (size_t k = 0; k < sizeof bad; k++) {
        chrom_encode(c, N, buf);
        buf[n - 1] = bad[k];
        ck_assert_int_ne(chrom_decode(c, buf, n, err, sizeof err), 0);
        ck_assert_msg(strstr(err, "queue order"), "%s", err);
    }
    chrom_encode(c, N, buf);
    buf[12 + 2 * NODES] = 10;
    ck_assert_int_ne(chrom_decode(c, buf, n, err, sizeof err), 0);
    ck_assert_int_ne(chrom_decode(c, buf, n - 1, err, sizeof err), 0);
    free(buf);
    sim_config_free(c);
}
END_TEST

START_TEST(huge_metrics_score_as_failures)
{
    ga_params gp;
    sim_params sp;
    params(&gp, &sp);
    sim_metrics m;
    memset(&m, 0, sizeof m);
    m.duration = 100;
    ck_assert_int_eq(ga_score_primary(ga_score(&gp, &m)), 100);
    int64_t fail = ga_score(&gp, &(sim_metrics){ .status = SIM_DEADLOCK });
    m.duration = INT64_MAX;
    ck_assert_int_eq(ga_score(&gp, &m), fail);
    gp.fitness = GA_FIT_ESTIMATE;
    gp.estimate_slices = SIM_MAX_SLICES;
    m.duration = 10;
    m.te = (int64_t)1 << 40;
    ck_assert_int_eq(ga_score(&gp, &m), fail);
}
END_TEST

/* The run's rows that must not depend on where it was interrupted. */
static void run_digest(store *db, int64_t run, char *out, size_t len)
{
    store_run r;
    char err[256];
    ck_assert_msg(store_run_get(db, run, &r, err, sizeof err) == STORE_OK, "%s", err);
    snprintf(out, len, "%lld %lld %lld %lld", (long long)r.best_duration, (long long)r.best_crc,
             (long long)r.base_stacking, (long long)r.synonyms);
    store_run_clear(&r);
}

START_TEST(first_checkpoint_precedes_start)
{
    char path[] = "/tmp/nocsim_ckpt_XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    close(fd);
    unlink(path);
    char err[384];
    store *db = store_open(path, STORE_CREATE, err, sizeof err);
    ck_assert_msg(db != NULL, "%s", err);
    ga_params gp;
    sim_params sp;
    params(&gp, &sp);
    /* Uninterrupted. */
    ga *g = ga_new(&gp, &sp, tr->dest, "brev", db, "test", "{}", NULL, err, sizeof err);
    ck_assert_msg(g && ga_start(g, err, sizeof err) == 0, "%s", err);
    while (ga_step(g, err, sizeof err) > 0) {}
    int64_t a = ga_run_id(g);
    ga_free(g);
    /* "Killed" right after creation: the checkpoint is already there. */
    g = ga_new(&gp, &sp, tr->dest, "brev", db, "test", "{}", NULL, err, sizeof err);
    ck_assert_msg(g != NULL, "%s", err);
    int64_t b = ga_run_id(g);
    ga_free(g);
    uint8_t *blob;
    size_t len;
    int64_t gen;
    ck_assert_int_eq(store_checkpoint_get(db, b, &gen, &blob, &len, err, sizeof err), STORE_OK);
    free(blob);
    g = ga_resume(db, b, 1, NULL, err, sizeof err);
    ck_assert_msg(g != NULL, "%s", err);
    while (ga_step(g, err, sizeof err) > 0) {}
    ga_free(g);
    char da[128], dbuf[128];
    run_digest(db, a, da, sizeof da);
    run_digest(db, b, dbuf, sizeof dbuf);
    ck_assert_str_eq(da, dbuf);
    store_close(db);
    char side[64];
    unlink(path);
    snprintf(side, sizeof side, "%s-wal", path);
    unlink(side);
    snprintf(side, sizeof side, "%s-shm", path);
    unlink(side);
}
END_TEST

int main(void)
{
    char err[128];
    tr = traffic_new("brev", N, 1, err, sizeof err);
    if (!tr) { fprintf(stderr, "%s\n", err); return 1; }
    Suite *s = suite_create("checkpoint");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, intact_checkpoint_loads);
    tcase_add_test(tc, every_field_range_checked);
    tcase_add_test(tc, earlier_formats_read);
    tcase_add_test(tc, rectangle_checkpoint);
    tcase_add_test(tc, routing_checkpoint);
    tcase_add_test(tc, compressed_envelope_checked);
    tcase_add_test(tc, signature_checked);
    tcase_add_test(tc, chromosome_blob_genes_checked);
    tcase_add_test(tc, huge_metrics_score_as_failures);
    tcase_add_test(tc, first_checkpoint_precedes_start);
    suite_add_tcase(s, tc);
    int rc = testutil_run(s);
    traffic_free(tr);
    return rc;
}
