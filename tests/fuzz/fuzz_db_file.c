/* libFuzzer target: the store opened on a damaged database file, then read
 * the way the commands read it (runs, best, generations, chromosomes with
 * their genes, checkpoints, schedules, SQLite's quick_check, and db merge's
 * ga_db_check).  The first byte picks the file:
 *   even  a real database (a short GA run on a 4x4 torus, built once and
 *         shrunk to 1 KiB pages) with the rest of the input applied as
 *         patches: 3 bytes each, a 16-bit offset (mod the size) and a byte
 *         (so mutations land inside a database SQLite still opens);
 *   odd   the rest of the input is the file as it is.
 * Bit 1 of the first byte opens it writable (the validation a writer runs
 * first) instead of read-only.  Properties beyond "no crash, no leak": every
 * failure message is one line, and a refused open says what kind it was. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sqlite3.h>

#include "ga/dbcheck.h"
#include "ga/ga.h"
#include "store/store.h"
#include "traffic/traffic.h"

static char path[64];
static uint8_t *base;
static size_t base_len;

static void one_line(const char *err)
{
    if (strchr(err, '\n')) abort();
}

static void remove_files(void)
{
    static const char *const ext[] = { "", "-wal", "-shm", "-journal" };
    char p[96];
    for (size_t k = 0; k < sizeof ext / sizeof ext[0]; k++) {
        snprintf(p, sizeof p, "%s%s", path, ext[k]);
        unlink(p);
    }
}

static int slurp(const char *p, uint8_t **out, size_t *len)
{
    FILE *f = fopen(p, "rb");
    if (!f) return -1;
    size_t cap = 1 << 16, n = 0;
    uint8_t *b = malloc(cap);
    size_t got;
    while (b && (got = fread(b + n, 1, cap - n, f)) > 0)
        if ((n += got) == cap) {
            uint8_t *nb = realloc(b, cap *= 2);
            if (!nb) { free(b); b = NULL; }
            else b = nb;
        }
    fclose(f);
    if (!b) return -1;
    *out = b;
    *len = n;
    return 0;
}

/* The real database the patches damage: a GA run that records a run, its
 * generations, chromosomes and a checkpoint, then VACUUMed to small pages. */
static void build_base(void)
{
    char err[512];
    remove_files();
    store *s = store_open(path, STORE_CREATE, err, sizeof err);
    traffic *t = traffic_new("brev", 4, 1, err, sizeof err);
    if (!s || !t) abort();
    ga_params gp;
    sim_params sp;
    ga_params_default(&gp);
    gp.pop = 4;
    gp.generations = 3;
    gp.stack_vmax = 30;
    gp.threads = 1;
    gp.seed = 7;
    sim_params_default(&sp);
    sp.n = 4;
    sp.slices = 2;
    ga *g = ga_new(&gp, &sp, t->dest, "brev", s, "fuzz", "{}", NULL, err, sizeof err);
    if (!g || ga_start(g, err, sizeof err)) abort();
    while (ga_step(g, err, sizeof err) > 0) {}
    if (ga_finish(g, err, sizeof err)) abort();
    ga_free(g);
    traffic_free(t);
    store_close(s);
    sqlite3 *db;
    if (sqlite3_open(path, &db) != SQLITE_OK ||
        sqlite3_exec(db, "PRAGMA journal_mode = DELETE; PRAGMA page_size = 1024; VACUUM;", NULL, NULL, NULL) != SQLITE_OK)
        abort();
    sqlite3_close(db);
    if (slurp(path, &base, &base_len) || base_len == 0) abort();
    remove_files();
}

static int run_cb(const store_run *r, void *ctx)
{
    int64_t *ids = ctx;
    if (ids[0] < 8) ids[1 + ids[0]++] = r->id;
    return 0;
}
static int gen_cb(const store_gen *g, void *ctx) { (void)g; (void)ctx; return 0; }
static int chrom_cb(const store_chrom *c, void *ctx) { (void)c; (void)ctx; return 0; }
static int cc_cb(const store_cc *c, void *ctx) { (void)c; (void)ctx; return 0; }

static void read_all(store *s)
{
    char err[1024] = "";
    int64_t ids[9] = { 0 }, best[9] = { 0 };
    if (store_quick_check(s, err, sizeof err) != STORE_OK) one_line(err);
    if (store_runs_list(s, NULL, run_cb, ids, err, sizeof err) != STORE_OK) one_line(err);
    if (store_runs_best(s, NULL, run_cb, best, err, sizeof err) != STORE_OK) one_line(err);
    for (int64_t k = 0; k < ids[0]; k++) {
        int64_t run = ids[1 + k];
        store_run r;
        if (store_run_get(s, run, &r, err, sizeof err) == STORE_OK) store_run_clear(&r);
        else one_line(err);
        if (store_gen_list(s, run, gen_cb, NULL, err, sizeof err) != STORE_OK) one_line(err);
        store_chrom_query q = { .run = run, .with_genes = true };
        if (store_chrom_list(s, &q, chrom_cb, NULL, err, sizeof err) != STORE_OK) one_line(err);
        q.synonyms_only = true;
        q.with_genes = false;
        int64_t n;
        if (store_chrom_count(s, &q, &n, err, sizeof err) != STORE_OK) one_line(err);
        uint8_t *blob = NULL;
        size_t len = 0;
        int64_t gen;
        if (store_checkpoint_get(s, run, &gen, &blob, &len, err, sizeof err) == STORE_ERROR) one_line(err);
        free(blob);
        if (store_cc_list(s, run, cc_cb, NULL, err, sizeof err) != STORE_OK) one_line(err);
    }
    store_chrom c;
    if (store_chrom_get(s, 1, &c, err, sizeof err) == STORE_OK) store_chrom_clear(&c);
    else one_line(err);
    if (ga_db_check(s, err, sizeof err)) one_line(err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) return 0;
    if (!path[0]) {
        snprintf(path, sizeof path, "/tmp/fuzz_db_file_%ld.db", (long)getpid());
        build_base();
    }
    const uint8_t *p = data + 1;
    size_t n = size - 1;
    uint8_t *file = NULL;
    size_t len;
    if (data[0] % 2 == 0) {
        if (!(file = malloc(base_len))) return 0;
        memcpy(file, base, base_len);
        len = base_len;
        for (size_t k = 0; k + 3 <= n; k += 3) file[(p[k] | (size_t)p[k + 1] << 8) % len] = p[k + 2];
    } else {
        len = n;
    }
    FILE *f = fopen(path, "wb");
    if (f) {
        if (len) fwrite(file ? file : p, 1, len, f);
        fclose(f);
        char err[1024] = "";
        store_fault fault;
        store *s = store_open_fault(path, data[0] & 2 ? 0 : STORE_READONLY, &fault, err, sizeof err);
        if (s) {
            read_all(s);
            store_close(s);
        } else {
            one_line(err);
            if (fault == STORE_FAULT_NONE) abort();
        }
    }
    free(file);
    remove_files();
    return 0;
}
