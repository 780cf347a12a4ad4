/* The store tests' shared fixture and helpers (store_testutil.h). */
#include <check.h>

#include <dirent.h>
#include <sqlite3.h>
#include <zlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/store_testutil.h"

char tmpdir[64];
char errbuf[512];

void setup(void)
{
    snprintf(tmpdir, sizeof tmpdir, "/tmp/nocsim-store-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(tmpdir));
    errbuf[0] = 0;
}

void teardown(void)
{
    DIR *d = opendir(tmpdir);
    if (d) {
        struct dirent *e;
        char p[512];
        while ((e = readdir(d)))
            if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
                snprintf(p, sizeof p, "%s/%s", tmpdir, e->d_name);
                unlink(p);
            }
        closedir(d);
    }
    rmdir(tmpdir);
}

const char *tpath(const char *name)
{
    static char buf[4][256];
    static int k;
    k = (k + 1) % 4;
    snprintf(buf[k], sizeof buf[k], "%s/%s", tmpdir, name);
    return buf[k];
}

bool exists(const char *p)
{
    struct stat sb;
    return stat(p, &sb) == 0;
}

void raw_exec(const char *path, const char *sql)
{
    sqlite3 *db = NULL;
    ck_assert_int_eq(sqlite3_open(path, &db), SQLITE_OK);
    char *msg = NULL;
    int rc = sqlite3_exec(db, sql, NULL, NULL, &msg);
    ck_assert_msg(rc == SQLITE_OK, "%s: %s", sql, msg ? msg : "");
    sqlite3_free(msg);
    ck_assert_int_eq(sqlite3_close(db), SQLITE_OK);
}

int64_t raw_int(const char *path, const char *sql)
{
    sqlite3 *db = NULL;
    sqlite3_stmt *st = NULL;
    ck_assert_int_eq(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    ck_assert_int_eq(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
    ck_assert_int_eq(sqlite3_step(st), SQLITE_ROW);
    int64_t v = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    ck_assert_int_eq(sqlite3_close(db), SQLITE_OK);
    return v;
}

int64_t count(const char *db, const char *table)
{
    char sql[128];
    snprintf(sql, sizeof sql, "SELECT COUNT(*) FROM %s", table);
    return raw_int(db, sql);
}

store *open_new(const char *name)
{
    store *s = store_open(tpath(name), STORE_CREATE, ERR);
    ck_assert_msg(s != NULL, "%s", errbuf);
    return s;
}

int64_t new_run(store *s, const char *traffic, int32_t slices)
{
    store_run r = store_run_init("ga");
    r.traffic = traffic;
    r.slices = slices;
    r.size = 16;
    r.flits = 8;
    r.seed = 42;
    ck_assert_msg(store_run_create(s, &r, ERR) == STORE_OK, "%s", errbuf);
    return r.id;
}

/* Make the CRC-32 of genes[0..n) equal crc by choosing its last 4 bytes
 * (n >= 4): run the CRC back from crc through 4 bytes (the top bytes of the
 * table's entries are distinct, so each step's table index is known), then
 * the patch is the forward register xor the backward one. */
static void force_crc(uint8_t *genes, size_t n, uint32_t crc)
{
    uint32_t table[256];
    for (uint32_t j = 0; j < 256; j++) {
        uint32_t r = j;
        for (int b = 0; b < 8; b++) r = r & 1 ? (r >> 1) ^ 0xedb88320u : r >> 1;
        table[j] = r;
    }
    uint32_t fwd = ~(uint32_t)crc32(crc32(0L, Z_NULL, 0), genes, (uInt)(n - 4));
    uint32_t bkd = ~crc;
    for (int step = 0; step < 4; step++) {
        uint32_t j = 0;
        while (table[j] >> 24 != bkd >> 24) j++;
        bkd = ((bkd ^ table[j]) << 8) | j;
    }
    uint32_t patch = fwd ^ bkd;
    for (int b = 0; b < 4; b++) genes[n - 4 + (size_t)b] = (uint8_t)(patch >> (8 * b));
    ck_assert_uint_eq((uint32_t)crc32(crc32(0L, Z_NULL, 0), genes, (uInt)n), crc);
}

store_chrom chrom(int64_t run, uint32_t crc, int64_t score, int k, uint8_t *genes, size_t n)
{
    for (size_t i = 0; i < n; i++)
        genes[i] = (uint8_t)(i * 7 + (size_t)k * 13);
    if (n >= 4) force_crc(genes, n, crc);
    store_chrom c = {.run = run, .generation = k, .crc = crc, .score = score, .duration = score,
                     .t_d = 100 + k, .t_e = 200 + k, .ir = k, .or_ = 2 * k, .ib = 3 * k,
                     .ob = 4 * k, .lb = 5 * k, .is_synonym = k % 2, .genes = genes,
                     .genes_len = n};
    return c;
}

int64_t add(store *s, const store_chrom *c)
{
    int64_t id = 0;
    ck_assert_msg(store_chrom_add(s, c, &id, ERR) == STORE_OK, "%s", errbuf);
    ck_assert_int_gt(id, 0);
    return id;
}

int collect_gen(const store_gen *g, void *ctx)
{
    store_gen *out = ctx;
    out[g->generation] = *g;
    return 0;
}

int count_cb(const store_chrom *c, void *ctx)
{
    (void)c;
    ++*(int *)ctx;
    return 0;
}
