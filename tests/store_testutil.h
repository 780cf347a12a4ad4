/* The fixture and helpers shared by the store's tests (test_store.c,
 * test_store_runs.c, test_store_chrom.c): a scratch folder per test, raw
 * SQLite access to a file, and runs and chromosomes made to order. */
#ifndef NOCSIM_STORE_TESTUTIL_H
#define NOCSIM_STORE_TESTUTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "store/store.h"

/* The test's scratch folder (setup makes it, teardown empties and removes
 * it) and the error buffer every store call of the tests writes to. */
extern char tmpdir[64];
extern char errbuf[512];
#define ERR errbuf, sizeof errbuf

void setup(void);
void teardown(void);
/* name inside tmpdir (one of four rotating buffers). */
const char *tpath(const char *name);
bool exists(const char *p);
/* SQL on the file directly, bypassing the store (fails the test on error). */
void raw_exec(const char *path, const char *sql);
/* The first column of the first row of a query on the file. */
int64_t raw_int(const char *path, const char *sql);
int64_t count(const char *db, const char *table);   /* rows of table */
/* A new database tmpdir/name, and a new run of kind ga in it. */
store *open_new(const char *name);
int64_t new_run(store *s, const char *traffic, int32_t slices);
/* A chromosome whose genes and metrics derive from k, its genes signed crc
 * (the store checks the signature on every read; n = 0 signs as 0). */
store_chrom chrom(int64_t run, uint32_t crc, int64_t score, int k, uint8_t *genes, size_t n);
/* Record c; returns its id. */
int64_t add(store *s, const store_chrom *c);

/* Listing callbacks: ids and a second value per row; generations into
 * out[generation]; a count of chromosomes. */
struct collect {
    int n;
    int64_t ids[32];
    int64_t syn[32];
};
int collect_gen(const store_gen *g, void *ctx);
int count_cb(const store_chrom *c, void *ctx);

#endif
