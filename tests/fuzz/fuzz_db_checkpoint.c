/* libFuzzer target: what a damaged or crafted database hands the GA.  The
 * first byte picks the path:
 *   0  the rest is a decompressed GA checkpoint: signed (its last 4 bytes
 *      replaced by the CRC-32 of the rest), compressed here and loaded (so
 *      mutations reach every field, not only the signature and zlib's);
 *   1  the rest is a stored checkpoint blob as it is (length + zlib);
 *   2  the rest is a chromosome encoding, decoded as a stored gene blob;
 *   3  the rest is a checkpoint row's data for the store (zlib as the store
 *      writes it), read back through store_checkpoint_get and loaded;
 *   4  the same for a chromosome row's genes, its crc set to their CRC-32
 *      when they decompress (so the decoder behind the store's signature
 *      check is reached), then the whole file is checked as db merge
 *      checks it (ga_db_check).
 * A blob that loads and is small is then run for one generation, so state
 * that passes validation is also used.  Seeds: tests/fuzz/corpus/db_checkpoint/. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sqlite3.h>
#include <zlib.h>

#include "ga/checkpoint.h"
#include "ga/chrom.h"
#include "ga/dbcheck.h"
#include "ga/ga.h"
#include "ga/ga_internal.h"
#include "store/store.h"

static void use(ga *g)
{
    if (!g) return;
    const sim_params *sp = ga_get_sim_params(g);
    const ga_params *gp = ga_get_params(g);
    char err[256];
    /* One generation where that is cheap (and ga_start has run: resume
     * would run it first); a loaded state must be usable. */
    if (g->space.genes && sp->n <= 8 && gp->pop <= 16 && gp->perturb <= 2 && sp->slices <= 4)
        (void)ga_step(g, err, sizeof err);
    ga_free(g);
}

static void load_raw(const uint8_t *in, size_t n)
{
    uLongf zl = compressBound((uLong)n);
    uint8_t *b = malloc(8 + zl), *p = malloc(n ? n : 1);
    if (!b || !p) { free(b); free(p); return; }
    memcpy(p, in, n);
    if (n >= 8) {
        uint32_t sig = (uint32_t)crc32(crc32(0L, Z_NULL, 0), p, (uInt)(n - 4));
        for (int k = 0; k < 4; k++) p[n - 4 + (size_t)k] = (uint8_t)(sig >> (8 * k));
    }
    for (int k = 0; k < 8; k++) b[k] = (uint8_t)((uint64_t)n >> (8 * k));
    char err[384];
    if (compress2(b + 8, &zl, p, (uLong)n, 1) == Z_OK) use(ga_checkpoint_load(b, 8 + zl, 1, NULL, err, sizeof err));
    free(b);
    free(p);
}

static void decode_genes(const uint8_t *p, size_t n)
{
    int tn, th, vcs;
    if (chrom_peek(p, n, &tn, &th, &vcs) || tn > 64 || th > 64 || vcs > SIM_MAX_VCS) return;
    sim_config *c = sim_config_new(tn * th, vcs, 0, 1);
    char err[256];
    if (c && chrom_decode(c, p, n, err, sizeof err) == 0 && sim_config_check(c, err, sizeof err) != 0) abort();
    sim_config_free(c);
}

/* Replace one column pair of a row with the fuzz input, in raw SQL: the
 * first 3 bytes are the claimed uncompressed length, the rest the data. */
static void poke(const char *path, const char *sql, const uint8_t *p, size_t n)
{
    sqlite3 *db;
    if (sqlite3_open(path, &db) == SQLITE_OK) {
        sqlite3_stmt *st;
        int64_t claimed = n >= 3 ? (int64_t)(p[0] | p[1] << 8 | p[2] << 16) : 0;
        if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK) {
            sqlite3_bind_blob(st, 1, n > 3 ? p + 3 : p, n > 3 ? (int)(n - 3) : 0, SQLITE_STATIC);
            sqlite3_bind_int64(st, 2, claimed);
            sqlite3_step(st);
            sqlite3_finalize(st);
        }
    }
    sqlite3_close(db);
}

/* Set the chromosome row's crc to the CRC-32 of the genes poke wrote, when
 * they decompress to their claimed length (at most 1 MiB). */
static void sign_genes(const char *path, const uint8_t *p, size_t n)
{
    if (n <= 3) return;
    uLongf claimed = (uLongf)(p[0] | p[1] << 8 | p[2] << 16), got = claimed;
    uint8_t *g = malloc(claimed ? claimed : 1);
    if (!g) return;
    if (uncompress(g, &got, p + 3, (uLong)(n - 3)) == Z_OK && got == claimed) {
        uint32_t crc = (uint32_t)crc32(crc32(0L, Z_NULL, 0), g, (uInt)got);
        sqlite3 *db;
        if (sqlite3_open(path, &db) == SQLITE_OK) {
            char sql[64];
            snprintf(sql, sizeof sql, "UPDATE chromosomes SET crc = %u", crc);
            sqlite3_exec(db, sql, NULL, NULL, NULL);
        }
        sqlite3_close(db);
    }
    free(g);
}

/* A run with one checkpoint and one chromosome row, one of them replaced
 * by the input, read back through the store. */
static void via_store(const uint8_t *p, size_t n, int chromosome)
{
    static char path[64];
    if (!path[0]) snprintf(path, sizeof path, "/tmp/fuzz_db_%ld.db", (long)getpid());
    char err[512];
    store *s = store_open(path, STORE_CREATE, err, sizeof err);
    if (!s) return;
    store_run r = store_run_init("ga");
    store_chrom c = { .crc = 1, .genes = (const uint8_t *)"", .genes_len = 0 };
    if (store_run_create(s, &r, err, sizeof err) == STORE_OK &&
        store_checkpoint_put(s, r.id, 0, "", 0, err, sizeof err) == STORE_OK &&
        (c.run = r.id, store_chrom_add(s, &c, NULL, err, sizeof err) == STORE_OK)) {
        if (chromosome) {
            poke(path, "UPDATE chromosomes SET genes = ?1, genes_len = ?2", p, n);
            sign_genes(path, p, n);
            (void)ga_db_check(s, err, sizeof err);
        } else {
            poke(path, "UPDATE checkpoints SET data = ?1, data_len = ?2", p, n);
            uint8_t *blob = NULL;
            size_t len = 0;
            int64_t gen;
            if (store_checkpoint_get(s, r.id, &gen, &blob, &len, err, sizeof err) == STORE_OK)
                use(ga_checkpoint_load(blob, len, 1, NULL, err, sizeof err));
            free(blob);
        }
    }
    store_close(s);
    unlink(path);
    char side[80];
    snprintf(side, sizeof side, "%s-wal", path);
    unlink(side);
    snprintf(side, sizeof side, "%s-shm", path);
    unlink(side);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) return 0;
    const uint8_t *p = data + 1;
    size_t n = size - 1;
    char err[384];
    switch (data[0] % 5) {
    case 0: load_raw(p, n); break;
    case 1: use(ga_checkpoint_load(p, n, 1, NULL, err, sizeof err)); break;
    case 2: decode_genes(p, n); break;
    case 3: via_store(p, n, 0); break;
    default: via_store(p, n, 1); break;
    }
    return 0;
}
